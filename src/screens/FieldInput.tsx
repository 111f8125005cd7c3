/**
 * One form input from its declaration (SPEC §2.30 widgets), by an exhaustive switch over the field
 * kinds: labels and placeholders from i18n, required flags from the declaration or the contract.
 * Validation is react-admin's, so every required field is flagged together (no browser tooltips).
 */
import { AutocompleteInput, DateInput, NumberInput, ReferenceInput, SelectInput, TextInput, email, maxValue, minValue, regex, required, useGetList, useRecordContext, useTranslate, type Validator } from 'react-admin';
import { patternRegExp, type EntityContract } from '../../contract';
import type { Field } from './types';
import { CurrencyInput } from '../widgets/CurrencyInput';
import { LocationInput } from '../widgets/LocationInput';
import { PickOrTypeInput, type PickOption } from '../widgets/PickOrTypeInput';
import { valueAt } from './cells';
import { Loaded } from './loaded';

type PickField = Extract<Field, { kind: 'pickOrType' }>;

/** Options of a pick-or-type field: names of another resource's records, or of an array in the record. */
function usePickOptions(field: PickField): { options: PickOption[]; loading: boolean } {
  const record = useRecordContext();
  const reference = 'reference' in field.options ? field.options.reference : undefined;
  const { data = [], isPending } = useGetList(
    reference ?? '',
    { pagination: { page: 1, perPage: 100 }, sort: { field: 'name', order: 'ASC' } },
    { enabled: !!reference },
  );
  if ('path' in field.options) {
    const carry = field.options.carry ?? [];
    const items = valueAt(record ?? { id: '' }, field.options.path);
    const options = (Array.isArray(items) ? items : []).map((item: Record<string, unknown>) => ({
      value: String(item.name ?? ''),
      carry: Object.fromEntries(carry.map((key) => [key, item[key] ?? null])),
    }));
    return { options, loading: false };
  }
  return { options: data.map((r) => ({ value: String(r.name) })), loading: isPending };
}

function PickOrType({ field, label, isRequired }: { field: PickField; label: string; isRequired: boolean }) {
  const { options, loading } = usePickOptions(field);
  return <PickOrTypeInput source={field.source} label={label} options={options} isRequired={isRequired} loading={loading} />;
}

/**
 * The validators the contract asks of a field: required, email, number range, format. A format's
 * words are the field's hint in the current language (`resources.<name>.hints.<source>`).
 */
export function validatorsOf(entity: EntityContract, field: Field, isRequired: boolean, hint: () => string): Validator[] {
  const spec = entity.fields[field.source];
  const out: Validator[] = isRequired ? [required()] : [];
  if (field.kind === 'email' || spec?.type === 'email') out.push(email());
  const pattern = spec?.pattern;
  if (pattern) out.push(regex(patternRegExp(pattern), () => ({ message: 'validation.pattern', args: { hint: hint(), example: pattern.example } })));
  if (field.kind === 'number' && spec?.min !== undefined) out.push(minValue(spec.min));
  if (field.kind === 'number' && spec?.max !== undefined) out.push(maxValue(spec.max));
  return out;
}

/** Whether the form shows a field across both columns. */
export const isWide = (field: Field) =>
  field.kind === 'location' || field.kind === 'textarea' || (field.kind === 'custom' && field.wide === true);

export function FieldInput({ field, name, entity }: { field: Field; name: string; entity: EntityContract }) {
  const translate = useTranslate();
  const isRequired = field.required ?? entity.fields[field.source]?.required ?? false;
  const label = `resources.${name}.inputs.${field.source}`;
  const validate = validatorsOf(entity, field, isRequired, () => translate(`resources.${name}.hints.${field.source}`));
  const placeholder = field.kind !== 'location' && field.placeholder ? translate(`resources.${name}.placeholders.${field.source}`) : undefined;
  const common = { source: field.source, label, validate, placeholder, fullWidth: true };
  switch (field.kind) {
    case 'text':
      return <TextInput {...common} />;
    case 'textarea':
      return <TextInput {...common} multiline minRows={5} />;
    case 'number':
      return <NumberInput {...common} />;
    case 'email':
      return <TextInput {...common} type="email" />;
    case 'date':
      return <DateInput {...common} />;
    case 'select':
      return <SelectInput {...common} choices={field.choices.map((c) => ({ id: c, name: `resources.${name}.choices.${c}` }))} />;
    case 'location':
      return <LocationInput levels={field.levels} required={isRequired} />;
    case 'reference':
      return (
        <ReferenceInput source={field.source} reference={field.reference} perPage={100} sort={{ field: 'name', order: 'ASC' }}>
          <AutocompleteInput label={label} optionText="name" validate={validate} fullWidth />
        </ReferenceInput>
      );
    case 'pickOrType':
      return <PickOrType field={field} label={label} isRequired={isRequired} />;
    case 'currency':
      return <CurrencyInput source={field.source} label={label} isRequired={isRequired} only={field.only} />;
    case 'custom':
      return <Loaded loader={field.component} props={{ source: field.source, label, required: isRequired, name }} />;
    default: {
      const never: never = field;
      return never;
    }
  }
}
