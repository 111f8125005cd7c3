/**
 * The OpenAPI 3.1 document of the API, generated from the contract (contract/: entities and their
 * fields, rules and paths through the registry; the other calls in contract/calls.ts) and the
 * server's own route table, never written by hand. Every route the server registered under /api
 * is described; one that neither source knows is listed under `x-undocumented` (a test keeps that
 * list empty).
 */
import {
  CALLS, DEFAULT_PER_PAGE, limitsOf, MAX_PER_PAGE, type CallRole, type CallSpec, type EntityContract, type FieldSpec, type Registry, type Rule,
} from '../contract';
import { BODY_LIMITS } from './limits';

type Schema = Record<string, unknown>;
type Operation = Record<string, unknown>;

/** A date as the server reads it (server/records.ts): YYYY-MM-DD, a time may follow. */
const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}([T ][\\d:.]+Z?)?$';
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const response = (name: string) => ({ $ref: `#/components/responses/${name}` });
/** Component names: 'shops' → 'Shops'. */
/** 'a shop', 'an order'. */
const a = (title: string) => `${/^[aeiou]/i.test(title) ? 'an' : 'a'} ${title.toLowerCase()}`;
const pascal = (name: string) => name.replace(/(^|[-_ ])(\w)/g, (_m, _s, c: string) => c.toUpperCase());

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
const has = (name: string): Schema => ({ required: [name], properties: { [name]: {} } });

/** What the server reads for a field: the value, or wrapped as {wrap: value}. */
const sentAs = (field: FieldSpec, schema: Schema): Schema =>
  field.wrap ? { anyOf: [schema, { type: 'object', properties: { [field.wrap]: schema }, required: [field.wrap] }] } : schema;

/**
 * A request body of fields: what a caller may send, with the required ones when creating. A field
 * of a group may come at the top level or nested in its group; other fields are ignored.
 */
function inputSchema(fields: Readonly<Record<string, FieldSpec>>, create: boolean, extra: Schema = {}): Schema {
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
function recordSchema(entity: EntityContract): Schema {
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

function whoOf(rule: Rule, entity: EntityContract, read = false): string {
  switch (rule) {
    case 'public':
      return 'Anyone, signed in or not.';
    case 'user':
      return 'Any signed-in user.';
    case 'owner':
      return `An admin holding the '${entity.access}' access; a seller (or an admin without it) on their own records${
        read && entity.buyerKey ? `; a buyer reads the records naming them as ${entity.buyerKey}` : ''
      }.`;
    case 'admin':
      return `An admin holding the '${entity.access}' access.`;
    case 'none':
      return 'Nobody.';
  }
}

const security = (roles: readonly CallRole[]) => (roles.includes('anyone') ? [{}, { bearer: [] }] : [{ bearer: [] }]);

/** The error answers, by status: a component each (its envelope, `status: false`). */
const ERROR_RESPONSES: Record<number, [string, string]> = {
  400: ['BadRequest', 'The request is not valid; query says why'],
  401: ['Unauthorized', 'No session where one is needed, or the token sent is unknown or has ended'],
  403: ['Forbidden', 'The caller may not do this'],
  404: ['NotFound', "No such record (or not the caller's)"],
  409: ['Conflict', 'A unique value is taken, or other records still use this one'],
  413: ['TooLarge', 'The request body (or a file) is too large'],
  415: ['Unsupported', 'The body is not of a kind this call takes (a multipart form where JSON is taken)'],
  429: ['TooManyRequests', 'Too many attempts; Retry-After says when to try again'],
  503: ['Unavailable', 'Not ready to serve (the database, the storage, or the process stopping); query says why'],
};

/**
 * Every error an operation answers: 400 always; 401 and 403 as its roles say; 413 and 415 for a
 * call that takes a body; the statuses given, each with the reason when one is given.
 */
function errors(roles: readonly CallRole[], opts: { body: boolean; extra?: readonly number[] | Readonly<Partial<Record<number, string | true>>> }): Record<string, unknown> {
  // 401 everywhere: a token that is unknown or has ended is refused even where no session is needed.
  const codes = new Set<number>([400, 401]);
  if (!(roles.length === 1 && roles[0] === 'anyone')) codes.add(403);
  if (opts.body) [413, 415].forEach((c) => codes.add(c));
  const reasons: Partial<Record<number, string | true>> = Array.isArray(opts.extra) ? {} : { ...(opts.extra as Record<number, string | true>) };
  const extra = Array.isArray(opts.extra) ? opts.extra : Object.keys(opts.extra ?? {}).map(Number);
  extra.forEach((c) => codes.add(c));
  return Object.fromEntries(
    [...codes].sort().map((code) => [String(code), typeof reasons[code] === 'string' ? errorResponse(reasons[code]) : response(ERROR_RESPONSES[code][0])]),
  );
}

function operation(parts: {
  id: string; summary: string; tag: string; roles: readonly CallRole[]; who: string; extension?: boolean;
  body?: Schema; multipart?: Schema; ok: Record<string, unknown>; errors: Record<string, unknown>; parameters?: unknown[];
}): Operation {
  return {
    operationId: parts.id,
    summary: parts.summary,
    description: `Who may call: ${parts.who}${parts.extension ? '\n\nAn extension of the contract: absent (404) in strict contract mode.' : ''}`,
    tags: [parts.tag],
    'x-roles': parts.roles,
    ...(parts.extension ? { 'x-extension': true } : {}),
    security: security(parts.roles),
    ...(parts.parameters ? { parameters: parts.parameters } : {}),
    ...(parts.body || parts.multipart
      ? {
          requestBody: {
            required: true,
            content: {
              ...(parts.body ? { 'application/json': { schema: parts.body } } : {}),
              ...(parts.multipart ? { 'multipart/form-data': { schema: parts.multipart } } : {}),
            },
          },
        }
      : {}),
    responses: { ...parts.ok, ...parts.errors },
  };
}

const envelopeOf = (detail: Schema | undefined, hll: Schema | undefined, description: string, extra: Schema = {}) => ({
  description,
  content: {
    'application/json': {
      schema: {
        allOf: [
          ref('Envelope'),
          {
            type: 'object',
            properties: {
              status: { const: true }, detail: detail ?? { type: 'null' }, HLL: hll ?? { type: 'null' }, ...extra,
            },
          },
        ],
        unevaluatedProperties: false,
      },
    },
  },
});

/** A page or a size: a whole number from 1, a text of digits, or nothing (null, ''): the default. */
const wholeNumber = (max?: number): Schema => ({
  anyOf: [{ type: 'integer', minimum: 1, ...(max ? { maximum: max } : {}) }, { type: 'string', pattern: '^\\d+$' }, { enum: [null, ''] }],
});

const LIST_EXTENSIONS: Schema = {
  per_page: { ...wholeNumber(MAX_PER_PAGE), description: `Extension: rows per page (default ${DEFAULT_PER_PAGE})` },
  sort: { type: 'string', description: 'Extension: a column to order by' },
  order: { type: ['string', 'null'], pattern: '^([aA][sS][cC]|[dD][eE][sS][cC])$', description: 'Extension: the order, ASC or DESC in any case (DESC by default)' },
  filter: { type: 'object', maxProperties: 20, additionalProperties: { type: ['string', 'number', 'null'], maxLength: 255 }, description: 'Extension: equality filters on columns' },
  scope: { description: "Extension: 'own', only the caller's own records (the seller screens); any other value is ignored" },
};

/** A record's id in a body: a positive whole number (a text of digits is read as one). */
const ID = { anyOf: [{ type: 'integer', minimum: 1 }, { type: 'string', pattern: '^0*[1-9]\\d*$' }] };
/** No id, or an empty one: a new record. */
const NO_ID = { enum: [null, 0, ''], description: 'Absent (or empty): a new record' };
/** A value other than 'clear' (a delete). */
const NOT_CLEAR = { not: { const: 'clear' } };

/** The delete body of the status call, in the entity's delete style (SPEC §4.8). */
function removeBody(entity: EntityContract): Schema | undefined {
  switch (entity.remove) {
    case 'tyype':
      return { type: 'object', properties: { tyype: { const: 'clear' }, id: ID }, required: ['tyype', 'id'], additionalProperties: true };
    case 'tyype+type':
      return {
        type: 'object', properties: { tyype: { type: 'string' }, type: { type: 'string' }, id: ID }, required: ['id'],
        anyOf: [{ ...has('tyype'), properties: { tyype: { const: 'clear' } } }, { ...has('type'), properties: { type: { const: 'clear' } } }],
        additionalProperties: true,
      };
    case 'id':
      return { type: 'object', properties: { id: ID }, required: ['id'], additionalProperties: false, description: 'Only the id: a delete' };
    case 'none':
      return undefined;
  }
}

/** The status call's change of status fields: never a delete body. */
function changeBody(entity: EntityContract): Schema | undefined {
  const names = entity.statusFields.filter((f) => entity.fields[f]);
  if (!names.length) return undefined;
  const fields = Object.fromEntries(names.map((f) => [f, { ...entity.fields[f], required: false }]));
  const schema = inputSchema(fields, false, { id: ID, ...Object.fromEntries(Object.entries(entity.statusExtra ?? {}).map(([k, v]) => [k, { const: v }])) });
  const props = schema.properties as Schema;
  if (entity.remove === 'tyype' || entity.remove === 'tyype+type') props.tyype = NOT_CLEAR;
  if (entity.remove === 'tyype+type' && !entity.statusExtra?.type) props.type = NOT_CLEAR;
  for (const [field, alias] of Object.entries(entity.sellerStatusAs ?? {})) props[alias] = { ...(props[field] as Schema), description: `${field} under another name` };
  const send = [...names, ...Object.values(entity.sellerStatusAs ?? {})];
  return {
    ...schema, required: send.length === 1 ? ['id', ...send] : ['id'], ...(send.length > 1 ? { anyOf: send.map(has) } : {}),
    description: `A change of ${names.join(', ')}; fields the call does not name are ignored`,
  };
}

/** The roles of one action of an entity, as the server's gate lets callers through. */
export interface ActionRoles {
  roles(op: 'read' | 'one' | 'create' | 'edit' | 'save' | 'status'): readonly CallRole[];
  /** A create naming an existing record adds to it (categories by name): it then needs no required field. */
  addsToExisting?: boolean;
}

/** The save call's bodies: a create (no id) and an update (with one), each with who may send it. */
function saveBody(entity: EntityContract, roles: ActionRoles): Schema {
  const name = pascal(entity.name);
  const options: Schema[] = [];
  if (entity.rules.create !== 'none') {
    const unique = Object.keys(entity.fields).filter((f) => entity.fields[f].unique);
    const create = roles.addsToExisting && unique.length
      ? {
          anyOf: [ref(`${name}Create`), { type: 'object', ...(unique.length === 1 ? has(unique[0]) : { anyOf: unique.map(has) }) }],
          description: `A create naming an existing record (by ${unique.join(' or ')}) adds to it: its empty values leave what the record holds`,
        }
      : ref(`${name}Create`);
    options.push({ title: 'Create', 'x-roles': roles.roles('create'), allOf: [create], properties: { id: NO_ID } });
  }
  if (entity.rules.update !== 'none') {
    options.push({ title: 'Update', 'x-roles': roles.roles('edit'), allOf: [ref(`${name}Update`)], required: ['id'], properties: { id: ID } });
  }
  return options.length === 1 ? options[0] : { oneOf: options };
}

/**
 * Whether the save call may answer 401: a create that needs a session, or any change (a visitor
 * without their chat cookie is asked to sign in).
 */
const needsSession = (actions: ActionRoles, creates: boolean, updates: boolean) => (creates && !actions.roles('create').includes('anyone')) || updates;

/** The operations of an entity's contract calls (save, list, status). */
function contractOperations(entity: EntityContract, actions: ActionRoles): Record<string, [string, Operation]> {
  const name = pascal(entity.name);
  const record = ref(name);
  const readRoles = actions.roles('read');
  const saveRoles = actions.roles('save');
  const statusRoles = actions.roles('status');
  const remove = removeBody(entity);
  const change = changeBody(entity);
  const publicWrite = entity.rules.create === 'public' || entity.rules.update === 'public';
  const creates = entity.rules.create !== 'none';
  const updates = entity.rules.update !== 'none';
  const who = [
    creates && `Creating: ${whoOf(entity.rules.create, entity)}`,
    updates && `Changing (with an id): ${whoOf(entity.rules.update, entity)}`,
  ].filter(Boolean).join(' ');
  const out: Record<string, [string, Operation]> = {
    [entity.list]: ['post', operation({
      id: `${entity.name}_list`, tag: entity.name, roles: readRoles, who: whoOf(entity.rules.read, entity, true),
      summary: `List ${entity.name} (${entity.listShape === 'paginated' ? 'a page' : 'a plain array, paged when per_page is sent'}), newest first`,
      body: { type: 'object', properties: { page: { ...wholeNumber(), default: 1 }, ...LIST_EXTENSIONS }, additionalProperties: true },
      ok: {
        200: entity.listShape === 'paginated'
          ? envelopeOf(undefined, { allOf: [ref('Paginator'), { type: 'object', properties: { data: { type: 'array', items: record } } }] }, 'The page, in HLL')
          : envelopeOf(undefined, { type: 'array', items: record }, 'The records, in HLL (with `total` when paged)'),
      },
      errors: errors(readRoles, { body: true }),
    })],
    [entity.save]: ['post', operation({
      id: `${entity.name}_save`, tag: entity.name, roles: saveRoles, who,
      summary: [creates && `Create ${a(entity.title)} (no id)`, updates && `change one (with its id)`].filter(Boolean).join(' or ') || `Nobody saves ${entity.name} through the API`,
      body: creates || updates ? saveBody(entity, actions) : undefined,
      ok: { 200: envelopeOf(record, undefined, 'The saved record in detail, the message in query') },
      errors: errors(saveRoles, {
        body: true,
        extra: [403, ...(updates ? [404] : []), 409, ...(publicWrite ? [429] : []), ...(needsSession(actions, creates, updates) ? [401] : [])],
      }),
    })],
  };
  if (change || remove) {
    out[entity.status] = ['post', operation({
      id: `${entity.name}_status`, tag: entity.name, roles: statusRoles, who: whoOf(entity.rules.update, entity),
      summary: [change && `Change ${a(entity.title)}'s ${entity.statusFields.join(', ')}`, remove && `delete ${a(entity.title)}`].filter(Boolean).join(', or '),
      body: change && remove ? { oneOf: [{ title: 'Change', ...change }, { title: 'Delete', ...remove }] } : (change ?? remove),
      ok: { 200: envelopeOf(remove ? { anyOf: [record, { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'], additionalProperties: false }] } : record, undefined, 'The changed record (or {id} of the deleted one) in detail') },
      errors: errors(statusRoles, { body: true, extra: [404, ...(remove ? [409] : [])] }),
    })];
  }
  return out;
}

const ID_PARAMETER = { name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } };
const SCOPE_PARAMETER = { name: 'scope', in: 'query', schema: { type: 'string', enum: ['own'] }, description: "Only the caller's own records (an admin's 'My Shops')" };
const MESSAGE_HEADER = { 'X-Message': { schema: { type: 'string' }, description: "The server's message ('Shop updated successfully')" } };

/** The REST face's operations of one entity, as its routes exist. */
function restOperation(entity: EntityContract, actions: ActionRoles, method: string, withId: boolean): Operation | undefined {
  const name = pascal(entity.name);
  const record = ref(name);
  const json = (schema: Schema, description: string, headers: Record<string, unknown> = MESSAGE_HEADER) => ({
    description, headers, content: { 'application/json': { schema } },
  });
  const base = { tag: entity.name, extension: true };
  const readRoles = actions.roles('read');
  const publicWrite = (rule: Rule) => (rule === 'public' ? [429] : []);
  if (method === 'GET' && !withId) {
    return operation({
      ...base, id: `rest_${entity.name}_list`, roles: readRoles, who: whoOf(entity.rules.read, entity, true),
      summary: `List ${entity.name} (react-admin simple REST: sort, range, filter; the total in Content-Range)`,
      parameters: [
        { name: 'sort', in: 'query', schema: { type: 'string' }, example: '["id","DESC"]', description: 'JSON [column, "ASC" | "DESC"]; an unknown column orders newest first' },
        { name: 'range', in: 'query', schema: { type: 'string' }, example: '[0,24]', description: 'JSON [first, last], a page: first is a multiple of its length, at most 1,000 rows' },
        { name: 'filter', in: 'query', schema: { type: 'string' }, example: '{"is_active":1}', description: `JSON object: column values (equality), "id": one id or a list (getMany, up to 1,000)${entity.search ? `, "q": text searched in ${entity.search.targets.join(', ')}` : ''}` },
        SCOPE_PARAMETER,
      ],
      ok: {
        200: json({ type: 'array', items: record }, 'The records of the range', {
          'Content-Range': { schema: { type: 'string' }, description: `'${entity.name} 0-24/319': the range and the total ('${entity.name} */0' when empty)` },
          'X-Total-Count': { schema: { type: 'integer' } },
        }),
      },
      errors: errors(readRoles, { body: false }),
    });
  }
  if (method === 'GET') {
    return operation({
      ...base, id: `rest_${entity.name}_get`, roles: readRoles, who: whoOf(entity.rules.read, entity, true), summary: `One ${entity.title.toLowerCase()}`,
      parameters: [ID_PARAMETER, SCOPE_PARAMETER], ok: { 200: json(record, 'The record', {}) }, errors: errors(readRoles, { body: false, extra: [404] }),
    });
  }
  if (method === 'POST') {
    const roles = actions.roles('create');
    return operation({
      ...base, id: `rest_${entity.name}_create`, roles, who: whoOf(entity.rules.create, entity), summary: `Create ${a(entity.title)}`,
      body: { allOf: [ref(`${name}Create`)], properties: { id: { enum: [null, ''], description: 'A new record takes no id' } } }, ok: { 201: json(record, 'The created record') },
      errors: errors(roles, { body: true, extra: [403, 409, ...publicWrite(entity.rules.create)] }),
    });
  }
  if (method === 'PUT') {
    const roles = actions.roles('edit');
    return operation({
      ...base, id: `rest_${entity.name}_update`, roles, who: whoOf(entity.rules.update, entity), summary: `Change ${a(entity.title)}`,
      parameters: [ID_PARAMETER], body: ref(`${name}Update`), ok: { 200: json(record, 'The changed record') },
      errors: errors(roles, { body: true, extra: [403, 404, 409, ...publicWrite(entity.rules.update)] }),
    });
  }
  if (method === 'DELETE') {
    const roles = actions.roles('status');
    return operation({
      ...base, id: `rest_${entity.name}_delete`, roles, who: whoOf(entity.rules.update, entity),
      summary: `Delete ${a(entity.title)} (refused while other records use it)`,
      parameters: [ID_PARAMETER], ok: { 200: json({ type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] }, 'The deleted id') },
      errors: errors(roles, { body: true, extra: [404, 409] }),
    });
  }
  return undefined;
}

/** A call's schema as written in contract/calls.ts: `{record: 'shops'}` names an entity's record. */
function callSchema(schema: Readonly<Record<string, unknown>>): Schema {
  return JSON.parse(JSON.stringify(schema), (_k, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v) && typeof (v as Schema).record === 'string' && Object.keys(v).length === 1) {
      return ref(pascal((v as { record: string }).record));
    }
    return v;
  }) as Schema;
}

function callOperation(call: CallSpec): Operation {
  const answers = call.answers ?? 'envelope';
  const types = call.types ?? (answers === 'html' ? ['text/html'] : answers === 'events' ? ['text/event-stream'] : ['application/octet-stream']);
  const ok =
    answers === 'envelope'
      ? { 200: envelopeOf(call.detail && callSchema(call.detail), call.hll && callSchema(call.hll), 'The envelope', call.extra && callSchema(call.extra)) }
      : answers === 'json'
        ? { 200: { description: 'A JSON document', content: { 'application/json': { schema: { type: 'object' } } } } }
        : {
            200: {
              description: answers === 'html' ? 'An HTML page' : answers === 'events' ? 'A stream of server-sent events' : 'The file',
              content: Object.fromEntries(types.map((t) => [t, { schema: { type: 'string', ...(answers === 'file' ? { contentMediaType: t } : {}) } }])),
            },
          };
  const params = [
    ...[...call.path.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string', maxLength: 255 } })),
    ...Object.entries(call.query ?? {}).map(([name, q]) => ({ name, in: 'query', description: q.description, schema: { type: 'string', maxLength: 255 } })),
  ];
  const who = call.who ?? (call.roles.includes('anyone') ? 'Anyone.' : call.roles.join(', '));
  const body = call.method !== 'GET';
  return operation({
    id: call.path.replace(/[^\w]+/g, '_').replace(/^_|_$/g, '') || 'root',
    tag: call.operations ? 'operations' : call.extension ? 'extensions' : 'calls',
    summary: call.summary,
    roles: call.roles,
    who: who.endsWith('.') ? who : `${who}.`,
    extension: call.extension,
    body: call.body ? inputSchema(call.body, true) : undefined,
    multipart: call.multipart ? inputSchema(call.multipart, true) : undefined,
    parameters: params.length ? params : undefined,
    ok,
    errors: errors(call.roles, { body, extra: { ...(call.path.includes('{') ? { 404: true } : {}), ...(call.operations ? { 503: true } : {}), ...call.fails } }),
  });
}

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: ref('Error') } },
});

export interface ApiRoute {
  method: string;
  /** The route's path under the API base, in Fastify's form ('/rest/shops/:id'). */
  url: string;
  /** Who the route's gate lets through (server/guard.ts): what x-roles says. */
  roles?: readonly CallRole[];
  /** The call's description when the route carries it (config.call) rather than contract/calls.ts. */
  call?: CallSpec;
}

/** The document for these routes (the server's own table) of this registry. */
export function buildOpenApi(registry: Registry, routes: readonly ApiRoute[], services: ReadonlyMap<string, ActionRoles>, version = '1'): Record<string, unknown> {
  const served = new Set(services.keys());
  const entities = registry.entities.filter((e) => served.has(e.name));
  const contract = new Map<string, [string, Operation]>();
  for (const entity of entities.filter((e) => !e.ownRoutes)) {
    for (const [path, op] of Object.entries(contractOperations(entity, services.get(entity.name)!))) contract.set(path, op);
  }
  const calls = new Map(CALLS.map((c) => [`${c.method} ${c.path}`, c]));
  const paths: Record<string, Record<string, Operation>> = {};
  const undocumented: string[] = [];
  for (const { method, url, roles, call } of routes) {
    const path = url.replace(/:(\w+)/g, '{$1}');
    let op: Operation | undefined;
    const rest = /^\/rest\/([^/]+)(\/\{id\})?$/.exec(path);
    const own = contract.get(path);
    if (method === 'POST' && own) op = own[1];
    else if (rest && served.has(rest[1])) op = restOperation(registry.entity(rest[1]), services.get(rest[1])!, method, Boolean(rest[2]));
    else if (call) op = callOperation({ ...call, path, method: method as CallSpec['method'] });
    else if (calls.has(`${method} ${path}`)) op = callOperation(calls.get(`${method} ${path}`)!);
    if (!op) {
      undocumented.push(`${method} ${path}`);
      continue;
    }
    // The roles are the gate's, the server's own answer to who may call.
    if (roles) op = { ...op, 'x-roles': roles, security: security(roles) };
    (paths[path] ??= {})[method.toLowerCase()] = op;
  }

  const schemas: Record<string, unknown> = {
    Envelope: {
      type: 'object',
      description: 'Every answer of the contract calls (SPEC §3.1)',
      properties: {
        status: { type: 'boolean' },
        query: { type: 'string', description: 'A readable message' },
        detail: { description: 'The saved record, or the call\'s detail' },
        reset_token: { type: ['string', 'null'] },
        HLL: { description: 'A list: the paginator, or a plain array' },
        total: { type: 'integer', description: 'Extension: the number of matches of a paged array list' },
      },
      required: ['status', 'query', 'detail', 'reset_token', 'HLL'],
    },
    Error: {
      allOf: [
        ref('Envelope'),
        {
          type: 'object',
          properties: {
            status: { const: false },
            message: { type: 'string', description: 'The REST face only: the same text as query (what react-admin shows)' },
          },
        },
      ],
    },
    Paginator: {
      type: 'object',
      properties: {
        data: { type: 'array', items: {} },
        total: { type: 'integer' }, from: { type: ['integer', 'null'] }, to: { type: ['integer', 'null'] },
        current_page: { type: 'integer' }, last_page: { type: 'integer' }, per_page: { type: 'integer' },
      },
      required: ['data', 'total', 'from', 'to', 'current_page', 'last_page', 'per_page'],
    },
  };
  for (const entity of entities) {
    const name = pascal(entity.name);
    schemas[name] = recordSchema(entity);
    const fields = entity.saveFields
      ? Object.fromEntries(Object.entries(entity.fields).filter(([f]) => entity.saveFields!.includes(f)))
      : entity.fields;
    // A record is created through the API only where someone may create one (not users: they register).
    if (entity.rules.create !== 'none' && !entity.ownRoutes) schemas[`${name}Create`] = inputSchema(fields, true);
    schemas[`${name}Update`] = {
      ...inputSchema(fields, false, { id: ID }),
      description: "The fields to change; the contract's save names the record by id, the REST face by its address. Fields the call does not name are ignored",
    };
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'Marketplace API',
      version,
      description: [
        'The marketplace product API (POST calls answering the envelope) and the REST face (react-admin simple REST).',
        `Bodies are JSON objects under 1 MB, nested at most ${BODY_LIMITS.depth} levels, with lists of at most ${BODY_LIMITS.items} items and texts of at most ${BODY_LIMITS.string} characters.`,
        'Send the session token of the sign-in call as `Authorization: Bearer <token>`.',
        '`x-roles` names who may call an operation: anyone, signed-in (any user), seller, admin (holding the access named in the description).',
      ].join('\n\n'),
    },
    servers: [{ url: '/api' }],
    tags: [
      { name: 'calls', description: 'Calls of the contract that are not one entity\'s' },
      { name: 'extensions', description: 'Calls beyond the contract (absent in strict mode)' },
      { name: 'operations', description: "Probes for the load balancer and the operator (kept in strict mode)" },
      ...entities.map((e) => ({ name: e.name, description: `${e.title} records` })),
    ],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'The token answered by POST /user/terminal or /user' } },
      schemas,
      responses: Object.fromEntries(Object.values(ERROR_RESPONSES).map(([name, description]) => [name, errorResponse(description)])),
    },
    ...(undocumented.length ? { 'x-undocumented': undocumented } : {}),
  };
}
