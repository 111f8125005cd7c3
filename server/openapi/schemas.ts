/** The API document's schemas of fields, request bodies and records, as the server reads and answers them (server/records.ts). */
import { limitsOf, type EntityContract, type FieldSpec } from '../../contract';

export type Schema = Record<string, unknown>;
export type Operation = Record<string, unknown>;

/** A date as the server reads it (server/records.ts): YYYY-MM-DD, a time may follow. */
const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}([T ][\\d:.]+Z?)?$';
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const response = (name: string) => ({ $ref: `#/components/responses/${name}` });
/** Component names: 'shops' → 'Shops'. */
/** 'a shop', 'an order'. */
export const a = (title: string) => `${/^[aeiou]/i.test(title) ? 'an' : 'a'} ${title.toLowerCase()}`;
export const pascal = (name: string) => name.replace(/(^|[-_ ])(\w)/g, (_m, _s, c: string) => c.toUpperCase());
/** A field's value as the server reads it (server/records.ts: texts trimmed, '' clears an optional value). */
function fieldSchema(name: string, field: FieldSpec, opts: { nullable: boolean; input?: boolean }): Schema {
  const { maxLength, ...bounds } = limitsOf(field);
  let schema: Schema;
  switch (field.type) {
    case 'int':
    case 'number':
      schema = { type: field.type === 'int' ? 'integer' : 'number', ...bounds };
      break;
    case 'bool':
      schema = { anyOf: [{ type: 'boolean' }, { type: 'integer', enum: [0, 1] }] };
      break;
    case 'json':
      schema = { ...(field.shape ?? {}), description: `${field.shape ? 'JSON' : 'Any JSON value'} (at most ${maxLength} characters once encoded)` };
      break;
    default: {
      schema = { type: 'string', ...bounds, maxLength };
      // The format is a rule of what is sent (records stored before it was declared may not have it).
      if (field.pattern && opts.input) Object.assign(schema, { pattern: `^(?:${field.pattern.regex})$`, examples: [field.pattern.example] });
      if (field.type === 'email') schema.format = 'email';
      if (field.type === 'date') schema.pattern = DATE_PATTERN;
    }
  }
  // A request's value reads null in anyOf (readAs); an answer's enum lists it with its type.
  if (field.oneOf) schema.enum = [...field.oneOf, ...(opts.nullable && !opts.input ? [null] : [])];
  if (opts.input) schema = readAs(field, schema, opts.nullable);
  if (opts.nullable && typeof schema.type === 'string') schema.type = [schema.type, 'null'];
  if (opts.nullable && schema.anyOf) schema.anyOf = [...(schema.anyOf as Schema[]), { type: 'null' }];
  if (field.default !== undefined) schema.default = field.default;
  const notes = [
    field.unique && 'unique among records (text compared case-insensitively)',
    field.adminOnly && 'only an administrator may change it',
    field.creator && 'set by the server to the creating user',
    field.group && `may also be sent nested as {${field.group}: {${name}}}`,
    field.wrap && `may also be sent as {${field.wrap}: value}`,
    field.type === 'date' && 'a calendar date, YYYY-MM-DD (a time may follow)',
    field.pattern && `${field.pattern.hint.en}, such as ${field.pattern.example}`,
  ].filter(Boolean);
  if (notes.length) schema.description = [schema.description, ...notes].filter(Boolean).join('; ');
  return schema;
}

/**
 * What the server also reads as a field's value in a request (server/records.ts): a number as
 * text, text as a number, '0' / '1' / 'true' / 'false' as a yes or no, '' as no value.
 */
function readAs(field: FieldSpec, schema: Schema, nullable: boolean): Schema {
  if (field.type === 'json') return schema;
  const empty = nullable ? [{ const: '' }] : [];
  if (field.type === 'int' || field.type === 'number') {
    return { anyOf: [schema, { type: 'string', pattern: '^\\s*-?\\d+(\\.\\d+)?([eE][+-]?\\d+)?\\s*$' }, ...empty] };
  }
  if (field.type === 'bool') return { anyOf: [schema, { enum: ['0', '1', 'true', 'false'] }] };
  if (field.oneOf) return field.oneOf.every((v) => typeof v === 'string') && nullable ? { anyOf: [schema, ...empty] } : schema;
  return { anyOf: [schema, { type: 'number' }, ...empty] };
}

/** A body that has this property (named in properties too, as linters ask). */
export const has = (name: string): Schema => ({ required: [name], properties: { [name]: {} } });

/** What the server reads for a field: the value, or wrapped as {wrap: value}. */
const sentAs = (field: FieldSpec, schema: Schema): Schema =>
  field.wrap ? { anyOf: [schema, { type: 'object', properties: { [field.wrap]: schema }, required: [field.wrap] }] } : schema;

/**
 * A request body of fields: what a caller may send, with the required ones when creating. A field
 * of a group may come at the top level or nested in its group; other fields are ignored.
 */
export function inputSchema(fields: Readonly<Record<string, FieldSpec>>, create: boolean, extra: Schema = {}): Schema {
  const properties: Schema = { ...extra };
  const required: string[] = [];
  const groups: Record<string, Schema> = {};
  const either: Schema[] = [];
  for (const [name, field] of Object.entries(fields)) {
    if (field.serverSet || field.creator) continue;
    const schema = sentAs(field, fieldSchema(name, field, { nullable: !field.required, input: true }));
    properties[name] = schema;
    if (field.group) {
      (groups[field.group] ??= { type: 'object', properties: {}, additionalProperties: true }).properties = {
        ...(groups[field.group].properties as Schema), [name]: schema,
      };
      if (create && field.required) either.push({ anyOf: [has(name), { ...has(field.group), properties: { [field.group]: has(name) } }] });
    } else if (create && field.required) required.push(name);
  }
  Object.assign(properties, groups);
  return {
    type: 'object', properties, ...(required.length ? { required } : {}), ...(either.length ? { allOf: either } : {}),
    additionalProperties: true, description: 'Fields the call does not name are ignored',
  };
}

/** A record as answers carry it: groups nested, wrapped values wrapped, linked records included. */
export function recordSchema(entity: EntityContract): Schema {
  const properties: Schema = { id: { type: 'integer' } };
  const groups: Record<string, Schema> = {};
  for (const [name, field] of Object.entries(entity.fields)) {
    let schema = fieldSchema(name, field, { nullable: true });
    if (field.serverSet) schema = { ...schema, readOnly: true };
    if (field.wrap) schema = { type: 'object', properties: { [field.wrap]: schema } };
    if (field.group) ((groups[field.group] ??= { type: 'object', properties: {} }).properties as Schema)[name] = schema;
    else properties[name] = schema;
  }
  Object.assign(properties, groups);
  for (const rel of entity.relations ?? []) {
    const linked = { type: 'object', properties: Object.fromEntries(rel.pick.map((p) => [p, {}])), additionalProperties: false };
    properties[rel.as] = rel.kind === 'one' ? { anyOf: [linked, { type: 'null' }], description: `The linked ${rel.entity} record` } : { type: 'array', items: linked };
  }
  properties.created_at = { type: ['string', 'null'] };
  properties.updated_at = { type: ['string', 'null'] };
  // A field the answer carries and the document does not is a mistake a test catches.
  return { type: 'object', properties, required: ['id'], additionalProperties: false };
}
