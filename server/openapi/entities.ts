/** The API document's operations of an entity: its contract calls (save, list, status) and its REST face. */
import { DEFAULT_PER_PAGE, MAX_PER_PAGE, type CallRole, type EntityContract, type Fails, type Rule } from '../../contract';
import { API_PREFIX } from '../config';
import { createLimitOf } from '../throttle';
import { envelopeOf, errors, operation, whoOf } from './operations';
import { a, has, inputSchema, pascal, ref, type Operation, type Schema } from './schemas';

/** A page or a size: a whole number from 1, a text of digits, or nothing (null, ''): the default. */
const wholeNumber = (max?: number): Schema => ({
  anyOf: [{ type: 'integer', minimum: 1, ...(max ? { maximum: max } : {}) }, { type: 'string', pattern: '^\\d+$' }, { enum: [null, ''] }],
});

/** A record's id in a body: a positive whole number (a text of digits is read as one). */
export const ID = { anyOf: [{ type: 'integer', minimum: 1 }, { type: 'string', pattern: '^0*[1-9]\\d*$' }] };

const LIST_EXTENSIONS: Schema = {
  per_page: { ...wholeNumber(MAX_PER_PAGE), description: `Extension: rows per page (default ${DEFAULT_PER_PAGE})` },
  sort: { type: 'string', description: 'Extension: a column to order by' },
  order: { type: ['string', 'null'], pattern: '^([aA][sS][cC]|[dD][eE][sS][cC])$', description: 'Extension: the order, ASC or DESC in any case (DESC by default)' },
  filter: {
    type: 'object', maxProperties: 20,
    properties: { id: { anyOf: [{ type: ['string', 'number', 'null'], maxLength: 255 }, { type: 'array', maxItems: MAX_PER_PAGE, items: ID }] } },
    additionalProperties: { type: ['string', 'number', 'null'], maxLength: 255 },
    description: `Extension: equality filters on columns; \`id\` may list up to ${MAX_PER_PAGE} ids (several records in one call)`,
  },
  scope: { description: "Extension: 'own', only the caller's own records (the seller screens); any other value is ignored" },
};

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

/** The operations of an entity's contract calls (save, list, status). */
export function contractOperations(entity: EntityContract, actions: ActionRoles): Record<string, [string, Operation]> {
  const name = pascal(entity.name);
  const record = ref(name);
  const readRoles = actions.roles('read');
  const saveRoles = actions.roles('save');
  const statusRoles = actions.roles('status');
  const remove = removeBody(entity);
  const change = changeBody(entity);
  // 429: an anonymous write (per address), or a new record of a signed-in user who is not an admin (per user).
  const limited = entity.rules.update === 'public' || createLimitOf(entity.rules.create) !== undefined;
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
      errors: errors({ body: true }),
    })],
    [entity.save]: ['post', operation({
      id: `${entity.name}_save`, tag: entity.name, roles: saveRoles, who,
      summary: [creates && `Create ${a(entity.title)} (no id)`, updates && `change one (with its id)`].filter(Boolean).join(' or ') || `Nobody saves ${entity.name} through the API`,
      body: creates || updates ? saveBody(entity, actions) : undefined,
      ok: { 200: { ...envelopeOf(record, undefined, 'The saved record in detail, the message in query'), ...(entity.createCookie ? { headers: cookieHeader(entity.createCookie) } : {}) } },
      errors: errors({
        body: true,
        extra: [...(updates ? [404] : []), 409, ...(limited ? [429] : [])],
      }),
    })],
  };
  if (change || remove) {
    out[entity.status] = ['post', operation({
      id: `${entity.name}_status`, tag: entity.name, roles: statusRoles, who: whoOf(entity.rules.update, entity),
      summary: [change && `Change ${a(entity.title)}'s ${entity.statusFields.join(', ')}`, remove && `delete ${a(entity.title)}`].filter(Boolean).join(', or '),
      body: change && remove ? { oneOf: [{ title: 'Change', ...change }, { title: 'Delete', ...remove }] } : (change ?? remove),
      ok: { 200: envelopeOf(remove ? { anyOf: [record, { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'], additionalProperties: false }] } : record, undefined, 'The changed record (or {id} of the deleted one) in detail') },
      errors: errors({ body: true, extra: [404, ...(remove ? [409] : [])] }),
    })];
  }
  return out;
}

const ID_PARAMETER = { name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } };
const SCOPE_PARAMETER = { name: 'scope', in: 'query', schema: { type: 'string', enum: ['own'] }, description: "Only the caller's own records (an admin's 'My Shops')" };
const MESSAGE_HEADER = { 'X-Message': { schema: { type: 'string' }, description: "The server's message ('Shop updated successfully')" } };

/** The cookie an anonymous creation sets (a visitor's chat key). */
const cookieHeader = (name: string) => ({
  'Set-Cookie': {
    schema: { type: 'string' }, example: `${name}=…; Path=${API_PREFIX}; Max-Age=2592000; HttpOnly; SameSite=Strict`,
    description: `Set when a caller without a session creates a record: \`${name}\`, the key that finds it again (sent back by the browser to the API's paths)`,
  },
});

/**
 * The REST face's operations of one entity, as its routes exist. An entity whose save is a call of
 * its own (users) changes a record through it: its PUT answers what that call answers (`saveFails`).
 */
export function restOperation(entity: EntityContract, actions: ActionRoles, method: string, withId: boolean, saveFails?: Fails): Operation | undefined {
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
      errors: errors({ body: false }),
    });
  }
  if (method === 'GET') {
    return operation({
      ...base, id: `rest_${entity.name}_get`, roles: readRoles, who: whoOf(entity.rules.read, entity, true), summary: `One ${entity.title.toLowerCase()}`,
      parameters: [ID_PARAMETER, SCOPE_PARAMETER], ok: { 200: json(record, 'The record', {}) }, errors: errors({ body: false, extra: [404] }),
    });
  }
  if (method === 'POST') {
    const roles = actions.roles('create');
    return operation({
      ...base, id: `rest_${entity.name}_create`, roles, who: whoOf(entity.rules.create, entity), summary: `Create ${a(entity.title)}`,
      body: { allOf: [ref(`${name}Create`)], properties: { id: { enum: [null, ''], description: 'A new record takes no id' } } }, ok: { 201: json(record, 'The created record', { ...MESSAGE_HEADER, ...(entity.createCookie ? cookieHeader(entity.createCookie) : {}) }) },
      errors: errors({ body: true, extra: [409, ...(createLimitOf(entity.rules.create) ? [429] : [])] }),
    });
  }
  if (method === 'PUT') {
    const roles = actions.roles('edit');
    return operation({
      ...base, id: `rest_${entity.name}_update`, roles, who: whoOf(entity.rules.update, entity), summary: `Change ${a(entity.title)}`,
      parameters: [ID_PARAMETER], body: ref(`${name}Update`), ok: { 200: json(record, 'The changed record') },
      errors: errors({ body: true, extra: [404, 409, ...publicWrite(entity.rules.update)], fails: saveFails }),
    });
  }
  if (method === 'DELETE') {
    const roles = actions.roles('status');
    return operation({
      ...base, id: `rest_${entity.name}_delete`, roles, who: whoOf(entity.rules.update, entity),
      summary: `Delete ${a(entity.title)} (refused while other records use it)`,
      parameters: [ID_PARAMETER], ok: { 200: json({ type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] }, 'The deleted id') },
      errors: errors({ body: true, extra: [404, 409] }),
    });
  }
  return undefined;
}
