/**
 * A management form's save: derived from the entity's own fields (DESIGN D13) — a field the form
 * shows is sent as the user left it, empty included (as null); a field it does not show falls back to
 * the record being edited, then to the field's default; grouped fields travel nested (`{address: {zip}}`)
 * and wrapped ones wrapped (`{currency: {code}}`), as answers carry them. An entity whose back end
 * needs SPEC §3.24's one payload declares `api.onePayload` (contract/onePayload.ts).
 */
import type { RaRecord } from 'react-admin';
import { buildPayload, formValues, type EntityContract, type PayloadUser } from '../../contract';

type Values = Record<string, unknown>;

const isPlain = (v: unknown): v is Values => typeof v === 'object' && v !== null && !Array.isArray(v);
const entered = (v: unknown) => v !== undefined && v !== null && v !== '';

/** A record as the entity's form edits it: its groups flattened, wrapped values unwrapped, fields declared `from` another path started from it. */
export function formValuesFor(
  entity: EntityContract,
  record: RaRecord | undefined,
  fields: readonly { source: string; from?: string }[] = [],
): Values {
  if (entity.onePayload) return formValues(record, fields);
  if (!record) return {};
  const flat: Values = { ...record };
  for (const [name, field] of Object.entries(entity.fields)) {
    const group = field.group ? record[field.group] : undefined;
    let value = field.group && isPlain(group) ? group[name] : record[name];
    if (field.wrap && isPlain(value)) value = value[field.wrap];
    if (value !== undefined) flat[name] = value;
  }
  for (const field of fields) if (field.from) flat[field.source] = record[field.from];
  return flat;
}

/** The save payload of the entity's form: `shown` are the values the form writes. */
export function payloadFor(entity: EntityContract, values: Values, record: RaRecord | undefined, user: PayloadUser, shown: readonly string[]): Values {
  if (entity.onePayload) return buildPayload(values, record, user, shown);
  const from = formValuesFor(entity, record);
  const inForm = new Set(shown);
  const out: Values = record ? { id: record.id } : {};
  for (const [name, field] of Object.entries(entity.fields)) {
    if (field.serverSet || field.creator) continue;
    let value: unknown;
    if (inForm.has(name)) value = entered(values[name]) ? values[name] : null;
    else if (entered(values[name])) value = values[name];
    else if (entered(from[name])) value = from[name];
    else if (!record && field.default !== undefined) value = field.default;
    else continue;
    if (field.wrap && value !== null) value = { [field.wrap]: value };
    if (field.group) ((out[field.group] ??= {}) as Values)[name] = value;
    else out[name] = value;
  }
  return out;
}
