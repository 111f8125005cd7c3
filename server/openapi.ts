/**
 * The OpenAPI 3.1 document of the API, generated from the contract (contract/: entities and their
 * fields, rules and paths through the registry; the other calls in contract/calls.ts) and the
 * server's own route table, never written by hand. Every route the server registered under /api
 * is described; one that neither source knows is listed under `x-undocumented` (a test keeps that
 * list empty).
 */
import {
  CALLS, DEFAULT_PER_PAGE, maxLengthOf, MAX_PER_PAGE, type CallRole, type CallSpec, type EntityContract, type FieldSpec, type Registry, type Rule,
} from '../contract';
import { BODY_LIMITS } from './limits';
import { rolesOf } from './guard';

type Schema = Record<string, unknown>;
type Operation = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const response = (name: string) => ({ $ref: `#/components/responses/${name}` });
/** Component names: 'shops' → 'Shops'. */
/** 'a shop', 'an order'. */
const a = (title: string) => `${/^[aeiou]/i.test(title) ? 'an' : 'a'} ${title.toLowerCase()}`;
const pascal = (name: string) => name.replace(/(^|[-_ ])(\w)/g, (_m, _s, c: string) => c.toUpperCase());

function fieldSchema(name: string, field: FieldSpec, opts: { nullable: boolean }): Schema {
  let schema: Schema;
  switch (field.type) {
    case 'int':
    case 'number':
      schema = { type: field.type === 'int' ? 'integer' : 'number' };
      if (field.min !== undefined) schema.minimum = field.min;
      if (field.max !== undefined) schema.maximum = field.max;
      break;
    case 'bool':
      schema = { anyOf: [{ type: 'boolean' }, { type: 'integer', enum: [0, 1] }] };
      break;
    case 'json':
      schema = { description: `Any JSON value (at most ${maxLengthOf(field)} characters once encoded)` };
      break;
    default: {
      schema = { type: 'string', maxLength: maxLengthOf(field) };
      if (field.min !== undefined) schema.minLength = field.min;
      if (field.pattern) Object.assign(schema, { pattern: `^(?:${field.pattern.regex})$`, examples: [field.pattern.example] });
      if (field.type === 'email') schema.format = 'email';
      if (field.type === 'date') schema.format = 'date';
    }
  }
  if (field.oneOf) schema.enum = [...field.oneOf, ...(opts.nullable ? [null] : [])];
  if (opts.nullable && typeof schema.type === 'string') schema.type = [schema.type, 'null'];
  if (field.default !== undefined) schema.default = field.default;
  const notes = [
    field.unique && 'unique among records (text compared case-insensitively)',
    field.adminOnly && 'only an administrator may change it',
    field.creator && 'set by the server to the creating user',
    field.group && `may also be sent nested as {${field.group}: {${name}}}`,
    field.wrap && `may also be sent as {${field.wrap}: value}`,
  ].filter(Boolean);
  if (notes.length) schema.description = [schema.description, ...notes].filter(Boolean).join('; ');
  return schema;
}

/** A request body of fields: what a caller may send, with the required ones when creating. */
function inputSchema(fields: Readonly<Record<string, FieldSpec>>, create: boolean, extra: Schema = {}): Schema {
  const properties: Schema = { ...extra };
  const required: string[] = [];
  for (const [name, field] of Object.entries(fields)) {
    if (field.serverSet || field.creator) continue;
    properties[name] = fieldSchema(name, field, { nullable: !field.required });
    if (create && field.required) required.push(name);
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
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
    const linked = { type: 'object', properties: Object.fromEntries(rel.pick.map((p) => [p, {}])) };
    properties[rel.as] = rel.kind === 'one' ? { anyOf: [linked, { type: 'null' }], description: `The linked ${rel.entity} record` } : { type: 'array', items: linked };
  }
  properties.created_at = { type: ['string', 'null'] };
  properties.updated_at = { type: ['string', 'null'] };
  return { type: 'object', properties, required: ['id'] };
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

function errors(roles: readonly CallRole[], extra: string[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = { 400: response('BadRequest') };
  if (!roles.includes('anyone')) out[401] = response('Unauthorized');
  if (!(roles.length === 1 && roles[0] === 'anyone')) out[403] = response('Forbidden');
  for (const code of extra) out[code] = response(({ 404: 'NotFound', 409: 'Conflict', 429: 'TooManyRequests', 503: 'Unavailable' } as Record<string, string>)[code]);
  return out;
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

const envelopeOf = (detail: Schema | undefined, hll: Schema | undefined, description: string) => ({
  description,
  content: {
    'application/json': {
      schema: {
        allOf: [
          ref('Envelope'),
          { type: 'object', properties: { status: { const: true }, ...(detail ? { detail } : {}), ...(hll ? { HLL: hll } : {}) } },
        ],
      },
    },
  },
});

const LIST_EXTENSIONS: Schema = {
  per_page: { type: 'integer', minimum: 1, maximum: MAX_PER_PAGE, description: `Extension: rows per page (default ${DEFAULT_PER_PAGE})` },
  sort: { type: 'string', description: 'Extension: a column to order by' },
  order: { type: 'string', enum: ['ASC', 'DESC'], description: 'Extension: the order (DESC by default)' },
  filter: { type: 'object', maxProperties: 20, additionalProperties: { type: ['string', 'number', 'null'], maxLength: 255 }, description: 'Extension: equality filters on columns' },
  scope: { type: 'string', enum: ['own'], description: "Extension: only the caller's own records (the seller screens)" },
};

function removeBody(entity: EntityContract): Schema | undefined {
  const id = { type: 'integer', minimum: 1 };
  switch (entity.remove) {
    case 'tyype':
      return { type: 'object', properties: { tyype: { const: 'clear' }, id }, required: ['tyype', 'id'] };
    case 'tyype+type':
      return { type: 'object', properties: { tyype: { type: 'string' }, type: { const: 'clear' }, id }, required: ['type', 'id'] };
    case 'id':
      return { type: 'object', properties: { id }, required: ['id'], additionalProperties: false };
    case 'none':
      return undefined;
  }
}

/** The operations of an entity's contract calls (save, list, status). */
function contractOperations(entity: EntityContract): Record<string, [string, Operation]> {
  const name = pascal(entity.name);
  const record = ref(name);
  const readRoles = rolesOf(entity.rules.read, entity, true);
  const writeRoles = [...new Set([...rolesOf(entity.rules.create, entity), ...rolesOf(entity.rules.update, entity)])];
  const statusFields = Object.fromEntries(entity.statusFields.filter((f) => entity.fields[f]).map((f) => [f, entity.fields[f]]));
  const remove = removeBody(entity);
  const change = inputSchema(statusFields, false, { id: { type: 'integer', minimum: 1 }, ...Object.fromEntries(Object.entries(entity.statusExtra ?? {}).map(([k, v]) => [k, { const: v }])) });
  change.required = ['id'];
  const publicWrite = entity.rules.create === 'public' || entity.rules.update === 'public';
  return {
    [entity.list]: ['post', operation({
      id: `${entity.name}_list`, tag: entity.name, roles: readRoles, who: whoOf(entity.rules.read, entity, true),
      summary: `List ${entity.name} (${entity.listShape === 'paginated' ? 'a page' : 'a plain array, paged when per_page is sent'}), newest first`,
      body: { type: 'object', properties: { page: { type: 'integer', minimum: 1, default: 1 }, ...LIST_EXTENSIONS } },
      ok: {
        200: entity.listShape === 'paginated'
          ? envelopeOf(undefined, { allOf: [ref('Paginator'), { type: 'object', properties: { data: { type: 'array', items: record } } }] }, 'The page, in HLL')
          : envelopeOf(undefined, { type: 'array', items: record }, 'The records, in HLL (with `total` when paged)'),
      },
      errors: errors(readRoles),
    })],
    [entity.save]: ['post', operation({
      id: `${entity.name}_save`, tag: entity.name, roles: writeRoles,
      who: `Creating: ${whoOf(entity.rules.create, entity)} Changing (with an id): ${whoOf(entity.rules.update, entity)}`,
      summary: `Create ${a(entity.title)} (no id) or change one (with its id)`,
      body: { oneOf: [ref(`${name}Create`), ref(`${name}Update`)] },
      ok: { 200: envelopeOf(record, undefined, 'The saved record in detail, the message in query') },
      errors: errors(writeRoles, ['404', '409', ...(publicWrite ? ['429'] : [])]),
    })],
    [entity.status]: ['post', operation({
      id: `${entity.name}_status`, tag: entity.name, roles: rolesOf(entity.rules.update, entity), who: whoOf(entity.rules.update, entity),
      summary: `Change ${a(entity.title)}'s status fields (${entity.statusFields.join(', ') || 'none'})${remove ? ', or delete it' : ''}`,
      body: remove ? { oneOf: [change, remove] } : change,
      ok: { 200: envelopeOf(record, undefined, 'The changed record (or {id} of the deleted one) in detail') },
      errors: errors(rolesOf(entity.rules.update, entity), ['404', ...(remove ? ['409'] : [])]),
    })],
  };
}

const ID_PARAMETER = { name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } };
const SCOPE_PARAMETER = { name: 'scope', in: 'query', schema: { type: 'string', enum: ['own'] }, description: "Only the caller's own records (an admin's 'My Shops')" };
const MESSAGE_HEADER = { 'X-Message': { schema: { type: 'string' }, description: "The server's message ('Shop updated successfully')" } };

/** The REST face's operations of one entity, as its routes exist. */
function restOperation(entity: EntityContract, method: string, withId: boolean): Operation | undefined {
  const name = pascal(entity.name);
  const record = ref(name);
  const json = (schema: Schema, description: string, headers: Record<string, unknown> = MESSAGE_HEADER) => ({
    description, headers, content: { 'application/json': { schema } },
  });
  const base = { tag: entity.name, extension: true };
  const readRoles = rolesOf(entity.rules.read, entity, true);
  const updateRoles = rolesOf(entity.rules.update, entity);
  const publicWrite = (rule: Rule) => (rule === 'public' ? ['429'] : []);
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
      errors: errors(readRoles),
    });
  }
  if (method === 'GET') {
    return operation({
      ...base, id: `rest_${entity.name}_get`, roles: readRoles, who: whoOf(entity.rules.read, entity, true), summary: `One ${entity.title.toLowerCase()}`,
      parameters: [ID_PARAMETER, SCOPE_PARAMETER], ok: { 200: json(record, 'The record', {}) }, errors: errors(readRoles, ['404']),
    });
  }
  if (method === 'POST') {
    const roles = rolesOf(entity.rules.create, entity);
    return operation({
      ...base, id: `rest_${entity.name}_create`, roles, who: whoOf(entity.rules.create, entity), summary: `Create ${a(entity.title)}`,
      body: ref(`${name}Create`), ok: { 201: json(record, 'The created record') }, errors: errors(roles, ['409', ...publicWrite(entity.rules.create)]),
    });
  }
  if (method === 'PUT') {
    return operation({
      ...base, id: `rest_${entity.name}_update`, roles: updateRoles, who: whoOf(entity.rules.update, entity), summary: `Change ${a(entity.title)}`,
      parameters: [ID_PARAMETER], body: ref(`${name}Update`), ok: { 200: json(record, 'The changed record') },
      errors: errors(updateRoles, ['404', '409', ...publicWrite(entity.rules.update)]),
    });
  }
  if (method === 'DELETE') {
    return operation({
      ...base, id: `rest_${entity.name}_delete`, roles: updateRoles, who: whoOf(entity.rules.update, entity),
      summary: `Delete ${a(entity.title)} (refused while other records use it)`,
      parameters: [ID_PARAMETER], ok: { 200: json({ type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] }, 'The deleted id') },
      errors: errors(updateRoles, ['404', '409']),
    });
  }
  return undefined;
}

function callOperation(call: CallSpec): Operation {
  const answers = call.answers ?? 'envelope';
  const ok =
    answers === 'envelope'
      ? { 200: envelopeOf(undefined, undefined, 'The envelope') }
      : answers === 'json'
        ? { 200: { description: 'A JSON document', content: { 'application/json': { schema: {} } } } }
        : answers === 'html'
          ? { 200: { description: 'An HTML page', content: { 'text/html': { schema: { type: 'string' } } } } }
          : answers === 'events'
            ? { 200: { description: 'A stream of server-sent events', content: { 'text/event-stream': { schema: { type: 'string' } } } } }
            : { 200: { description: 'The file', content: { 'application/octet-stream': { schema: { type: 'string', contentEncoding: 'binary' } } } } };
  const params = [...call.path.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string', maxLength: 255 } }));
  const who = call.who ?? (call.roles.includes('anyone') ? 'Anyone.' : call.roles.join(', '));
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
    errors: errors(call.roles, [...(call.path.includes('{') ? ['404'] : []), ...(call.operations ? ['503'] : [])]),
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
}

/** The document for these routes (the server's own table) of this registry. */
export function buildOpenApi(registry: Registry, routes: readonly ApiRoute[], served: ReadonlySet<string>, version = '1'): Record<string, unknown> {
  const entities = registry.entities.filter((e) => served.has(e.name));
  const contract = new Map<string, [string, Operation]>();
  for (const entity of entities.filter((e) => !e.ownRoutes)) {
    for (const [path, op] of Object.entries(contractOperations(entity))) contract.set(path, op);
  }
  const calls = new Map(CALLS.map((c) => [`${c.method} ${c.path}`, c]));
  const paths: Record<string, Record<string, Operation>> = {};
  const undocumented: string[] = [];
  for (const { method, url, roles } of routes) {
    const path = url.replace(/:(\w+)/g, '{$1}');
    let op: Operation | undefined;
    const rest = /^\/rest\/([^/]+)(\/\{id\})?$/.exec(path);
    const own = contract.get(path);
    if (method === 'POST' && own) op = own[1];
    else if (rest && served.has(rest[1])) op = restOperation(registry.entity(rest[1]), method, Boolean(rest[2]));
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
    schemas[`${name}Create`] = inputSchema(fields, true);
    const update = inputSchema(fields, false, { id: { type: 'integer', minimum: 1 } });
    schemas[`${name}Update`] = { ...update, required: ['id'], description: 'On the REST face the id comes from the address and may be left out' };
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
      responses: {
        BadRequest: errorResponse('The request is not valid; query says why'),
        Unauthorized: errorResponse('No session, or it has ended'),
        Forbidden: errorResponse('The caller may not do this'),
        NotFound: errorResponse('No such record (or not the caller\'s)'),
        Conflict: errorResponse('A unique value is taken, or other records still use this one'),
        TooManyRequests: errorResponse('Too many attempts; Retry-After says when to try again'),
        Unavailable: errorResponse('Not ready to serve (the database, the storage, or the process stopping); query says why'),
      },
    },
    ...(undocumented.length ? { 'x-undocumented': undocumented } : {}),
  };
}
