/**
 * The OpenAPI 3.1 document of the API, generated from the contract (contract/: entities and their
 * fields, rules and paths through the registry; the other calls in contract/calls.ts) and the
 * server's own route table, never written by hand. Every route the server registered under /api
 * is described; one that neither source knows is listed under `x-undocumented` (a test keeps that
 * list empty).
 */
import { CALLS, type CallRole, type CallSpec, type Registry } from '../../contract';
import { BODY_LIMITS } from '../limits';
import { callOperation } from './calls';
import { contractOperations, ID, restOperation, type ActionRoles } from './entities';
import { ERROR_RESPONSES, errorResponse, security } from './operations';
import { inputSchema, pascal, recordSchema, ref, type Operation } from './schemas';

export type { ActionRoles } from './entities';

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
    else if (rest && served.has(rest[1])) {
      const entity = registry.entity(rest[1]);
      op = restOperation(entity, services.get(rest[1])!, method, Boolean(rest[2]), calls.get(`POST ${entity.save}`)?.fails);
    }
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
        i18n: {
          type: 'array',
          minItems: 1,
          description:
            "Extension (absent in strict mode): the message keys of a known `query` text, one per text it joins with '; ', each with the values of its %{…} parts, for a client to word it in its own language; the catalogue is the console's `server.*` messages (English exactly as `query`)",
          items: {
            type: 'object',
            properties: {
              key: { type: 'string', pattern: '^server\\.\\w+$', examples: ['server.stock_left'] },
              values: { type: 'object', additionalProperties: { type: 'string' }, examples: [{ count: '3', name: 'Lamp' }] },
            },
            required: ['key', 'values'],
            additionalProperties: false,
          },
        },
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
      responses: Object.fromEntries(Object.entries(ERROR_RESPONSES).map(([code, [name, description]]) => [name, errorResponse(description, Number(code))])),
    },
    ...(undocumented.length ? { 'x-undocumented': undocumented } : {}),
  };
}

