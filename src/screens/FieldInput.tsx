/**
 * One form input from its declaration (SPEC §2.30 widgets): labels and placeholders from i18n,
 * required flags from the declaration or the contract.
 */
import { AutocompleteInput, NumberInput, ReferenceInput, SelectInput, TextInput, required, useGetList, useRecordContext, useTranslate } from 'react-admin';
import { ENTITIES } from '../../contract';
import type { Field, ResourceDeclaration } from '../../resources/types';
import { CurrencyInput } from '../widgets/CurrencyInput';
import { LocationInput } from '../widgets/LocationInput';
import { PickOrTypeInput, type PickOption } from '../widgets/PickOrTypeInput';
import { valueAt } from './cells';

/** Options of a pick-or-type field: values of another resource's records, or of a path in the record. */
function usePickOptions(field: Field): PickOption[] {
  const record = useRecordContext();
  const { data = [] } = useGetList(
    field.reference ?? '',
    { pagination: { page: 1, perPage: 100 }, sort: { field: 'name', order: 'ASC' } },
    { enabled: !!field.reference },
  );
  if (field.optionsFrom) {
    const items = valueAt(record ?? { id: '' }, field.optionsFrom.path);
    return (Array.isArray(items) ? items : []).map((item: Record<string, unknown>) => ({
      value: String(item.name ?? ''),
      carry: Object.fromEntries((field.optionsFrom?.carry ?? []).map((key) => [key, item[key] ?? null])),
    }));
  }
  return data.map((r) => ({ value: String(r.name) }));
}

function PickOrType({ field, label, isRequired }: { field: Field; label: string; isRequired: boolean }) {
  const options = usePickOptions(field);
  return <PickOrTypeInput source={field.source} label={label} options={options} isRequired={isRequired} />;
}

export function FieldInput({ field, declaration }: { field: Field; declaration: ResourceDeclaration }) {
  const translate = useTranslate();
  const contract = ENTITIES[declaration.entity].fields as Record<string, { required?: boolean } | undefined>;
  const isRequired = field.required ?? contract[field.source]?.required ?? false;
  const label = `resources.${declaration.name}.inputs.${field.source}`;
  const common = {
    source: field.source,
    label,
    validate: isRequired ? required() : undefined,
    placeholder: field.placeholder ? translate(`resources.${declaration.name}.placeholders.${field.source}`) : undefined,
    fullWidth: true,
  };
  switch (field.input ?? 'text') {
    case 'textarea':
      return <TextInput {...common} multiline minRows={5} />;
    case 'number':
      return <NumberInput {...common} />;
    case 'email':
      return <TextInput {...common} type="email" />;
    case 'select':
      return (
        <SelectInput
          {...common}
          choices={(field.choices ?? []).map((c) => ({ id: c, name: `resources.${declaration.name}.choices.${c}` }))}
        />
      );
    case 'location':
      return <LocationInput levels={field.levels} required={isRequired} />;
    case 'reference':
      return (
        <ReferenceInput source={field.source} reference={field.reference ?? ''} perPage={100} sort={{ field: 'name', order: 'ASC' }}>
          <AutocompleteInput label={label} optionText="name" validate={common.validate} fullWidth />
        </ReferenceInput>
      );
    case 'pickOrType':
      return <PickOrType field={field} label={label} isRequired={isRequired} />;
    case 'currency':
      return <CurrencyInput source={field.source} label={label} isRequired={isRequired} />;
    default:
      return <TextInput {...common} />;
  }
}
