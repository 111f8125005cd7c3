/**
 * The OpenAPI document: served by the server, generated (a new resource file appears in it with
 * no other change), complete (every entity, every endpoint the server registered, every call of
 * contract/calls.ts), faithful to the contract's fields and rules, and valid OpenAPI 3.1 by a validator.
 * Its interactive reference page is served from the package, offline.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileErrors, validate } from '@readme/openapi-parser';
import { CALLS, createRegistry, type EntityContract } from '../../contract';
import { registry as projectRegistry } from '../../server/registry';
import type { ResourceDefinition } from '../../resources/types';
import fixture from './fixture/fixtureVouchers';
import { ADMIN, startServer, type TestServer } from './harness';
import { bodyProblem } from './documentCheck';
import { buildOpenApi, type ActionRoles } from '../../server/openapi';

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, { 'x-roles': string[]; security: unknown[]; responses: Record<string, unknown>; requestBody?: unknown }>>;
  components: { schemas: Record<string, { required?: string[]; properties: Record<string, any> }>; securitySchemes: Record<string, unknown> };
  'x-undocumented'?: string[];
};

const registry = createRegistry<ResourceDefinition>([...(projectRegistry.resources as ResourceDefinition[]), fixture]);
const pascal = (name: string) => name.replace(/(^|[-_ ])(\w)/g, (_m, _s, c: string) => c.toUpperCase());
/** Entities the server serves: any whose calls someone may use. */
const served = (e: EntityContract) => Object.values(e.rules).some((r) => r !== 'none');

let s: TestServer;
let doc: Doc;

beforeAll(async () => {
  s = await startServer({ registry, demo: false });
  const res = await fetch(`${s.url}/openapi.json`);
  expect(res.status).toBe(200);
  doc = (await res.json()) as Doc;
});
afterAll(() => s.close());

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(doc) as never);
    if (!result.valid) throw new Error(compileErrors(result));
    expect(result.valid).toBe(true);
  });

  it('describes every endpoint the server registered (none left undocumented)', () => {
    expect(doc['x-undocumented']).toBeUndefined();
  });

  it("holds every entity: its record, create and update schemas, its contract calls and its REST face", () => {
    const entities = registry.entities.filter(served);
    expect(entities.map((e) => e.name)).toContain(fixture.name);
    for (const entity of entities) {
      const name = pascal(entity.name);
      for (const schema of [name, `${name}Update`]) expect(doc.components.schemas[schema], schema).toBeDefined();
      // A create schema only where someone may create through the API.
      expect(Boolean(doc.components.schemas[`${name}Create`]), `${name}Create`).toBe(entity.rules.create !== 'none' && !entity.ownRoutes);
      if (!entity.ownRoutes) {
        for (const path of [entity.list, entity.save]) expect(doc.paths[path]?.post, `${entity.name} ${path}`).toBeDefined();
        // A status call only where there is a status to change or a record to delete (not subcategories).
        expect(Boolean(doc.paths[entity.status]?.post), `${entity.name} ${entity.status}`).toBe(entity.statusFields.length > 0 || entity.remove !== 'none');
      }
      expect(doc.paths[`/rest/${entity.name}`]?.get, entity.name).toBeDefined();
      expect(doc.paths[`/rest/${entity.name}/{id}`]?.get, entity.name).toBeDefined();
      expect(doc.paths[`/rest/${entity.name}/{id}`]?.put, entity.name).toBeDefined();
      expect(Boolean(doc.paths[`/rest/${entity.name}`]?.post), `${entity.name} create`).toBe(entity.rules.create !== 'none' && !entity.ownRoutes);
      expect(Boolean(doc.paths[`/rest/${entity.name}/{id}`]?.delete), `${entity.name} delete`).toBe(entity.remove !== 'none');
    }
    for (const entity of registry.entities.filter((e) => !served(e))) {
      expect(doc.components.schemas[pascal(entity.name)], entity.name).toBeUndefined();
    }
  });

  it('holds every other call of the contract', () => {
    for (const call of CALLS) expect(doc.paths[call.path]?.[call.method.toLowerCase()], `${call.method} ${call.path}`).toBeDefined();
  });

  it("states each entity's fields with their types, required fields and limits", () => {
    const schema = doc.components.schemas[`${pascal(fixture.name)}Create`];
    // A value as written; what the server also reads (a number as text...) comes after it in anyOf.
    const written = (property: any) => property.anyOf?.[0] ?? property;
    expect(schema.required?.sort()).toEqual(['code', 'expires_at', 'percent_off']);
    expect(written(schema.properties.code)).toMatchObject({ type: 'string', minLength: 3, maxLength: 32, pattern: '^(?:[A-Z0-9]+)$', examples: ['WELCOME10'] });
    expect(new RegExp(written(schema.properties.code).pattern).test(fixture.api.fields.code.pattern!.example)).toBe(true);
    expect(written(schema.properties.percent_off)).toMatchObject({ type: 'integer', minimum: 1, maximum: 90 });
    // A date as the server reads it: YYYY-MM-DD, a time may follow.
    expect(written(schema.properties.expires_at)).toMatchObject({ type: 'string', pattern: expect.stringContaining('\\d{4}-\\d{2}-\\d{2}') });
    for (const entity of registry.entities.filter((e) => served(e) && e.rules.create !== 'none' && !e.ownRoutes)) {
      const create = doc.components.schemas[`${pascal(entity.name)}Create`];
      const fields = Object.entries(entity.fields).filter(([f, spec]) => !spec.serverSet && !spec.creator && (!entity.saveFields || entity.saveFields.includes(f)));
      const groups = [...new Set(fields.map(([, spec]) => spec.group).filter((g): g is string => Boolean(g)))];
      expect(Object.keys(create.properties).sort(), entity.name).toEqual([...fields.map(([f]) => f), ...groups].sort());
      // A required field of a group may come at the top level or nested: required through allOf.
      expect((create.required ?? []).sort(), entity.name).toEqual(fields.filter(([, spec]) => spec.required && !spec.group).map(([f]) => f).sort());
      for (const [f, spec] of fields) if (spec.oneOf) expect(written(create.properties[f]).enum, `${entity.name}.${f}`).toEqual(expect.arrayContaining([...spec.oneOf]));
    }
  });

  it('states who may call each operation, the bearer scheme, the envelope and the error answers', () => {
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        // An empty list says nobody may call (an audit entry is never saved through the API).
        expect(Array.isArray(op['x-roles']), `${method} ${path}`).toBe(true);
        expect(op.responses['400'], `${method} ${path}`).toBeDefined();
        // Any call may be refused to an admin or seller who must set up a second factor first.
        expect(op.responses['403'], `${method} ${path}`).toBeDefined();
        // A 429 says when to try again.
        const throttled = op.responses['429'] as { $ref?: string; headers?: unknown } | undefined;
        if (throttled) {
          const answer = throttled.$ref ? (doc.components as unknown as { responses: Record<string, { headers?: unknown }> }).responses[throttled.$ref.split('/').pop()!] : throttled;
          expect(answer.headers, `${method} ${path}`).toMatchObject({ 'Retry-After': { schema: { type: 'integer' } } });
        }
      }
    }
    expect(doc.paths['/user/reset'].post.responses['429']).toBeDefined();
    // A visitor opening a chat, through the contract or the REST face, is given the cookie that finds it again.
    const chats = registry.entity('chats');
    expect(doc.paths[chats.save].post.responses['200']).toMatchObject({ headers: { 'Set-Cookie': { description: expect.stringContaining('chat_visitor') } } });
    expect(doc.paths['/rest/chats'].post.responses['201']).toMatchObject({ headers: { 'Set-Cookie': expect.anything() } });
    expect((doc.paths['/rest/shops'].post.responses['201'] as { headers: object }).headers).not.toHaveProperty('Set-Cookie');
    expect(doc.paths[fixture.api.list].post['x-roles']).toEqual(['admin']);
    const audit = registry.entity('auditLogs');
    expect(doc.paths[audit.save].post['x-roles']).toEqual([]);
    expect(doc.paths[audit.list].post['x-roles']).toEqual(['admin']);
    expect(doc.paths['/shops'].post['x-roles']).toEqual(['admin', 'seller']);
    expect(doc.paths['/user/terminal'].post.security).toContainEqual({});
    expect(doc.paths['/shop'].post.security).toEqual([{ bearer: [] }]);
    expect(doc.paths['/shop'].post.responses['403']).toBeDefined();
    expect(doc.paths['/rest/shops'].get.responses['200']).toMatchObject({ headers: { 'Content-Range': expect.anything() } });
    expect(doc.components.schemas.Envelope.required).toEqual(['status', 'query', 'detail', 'reset_token', 'HLL']);
    expect(doc.components.schemas.Paginator.required).toContain('last_page');
  });
});

describe('the route table and the document', () => {
  const fastifyPath = (url: string) => url.replace(/^\/api/, '').replace(/:(\w+)/g, '{$1}');

  it("documents every route of the server's table, with the roles of its gate", () => {
    const routes = s.routes();
    expect(routes.length).toBeGreaterThan(0);
    for (const route of routes) {
      const op = doc.paths[fastifyPath(route.url)]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${route.url} has no documentation`).toBeDefined();
      expect(op['x-roles'], `${route.method} ${route.url}`).toEqual(route.roles);
      expect(Object.keys(op.responses).some((code) => /^2/.test(code)), `${route.method} ${route.url}`).toBe(true);
    }
  });

  it('names a route nobody described, and documents a route that carries its call', () => {
    const none = new Map<string, ActionRoles>();
    const bare = buildOpenApi(registry, [{ method: 'POST', url: '/made-up', roles: ['admin'] }], none);
    expect(bare['x-undocumented']).toEqual(['POST /made-up']);
    const carried = buildOpenApi(registry, [{
      method: 'POST', url: '/made-up', roles: ['admin'],
      call: { method: 'POST', path: '/made-up', summary: 'A call of a test', roles: ['admin'], fails: { 409: 'Taken' } },
    }], none) as Doc;
    expect(carried['x-undocumented']).toBeUndefined();
    expect(Object.keys(carried.paths['/made-up'].post.responses).sort()).toEqual(['200', '400', '401', '403', '409', '413', '415']);
  });
});

describe('one request schema per action', () => {
  const brand = registry.entity('brands');
  it("tells a delete from a status change, and a create from an update (the README's own bodies)", () => {
    expect(bodyProblem(doc, 'post', brand.status, { tyype: 'clear', id: 7 })).toBeUndefined();
    expect(bodyProblem(doc, 'post', brand.status, { id: 7, is_active: 0 })).toBeUndefined();
    expect(bodyProblem(doc, 'post', brand.save, { name: 'Acme', type: 'popular' })).toBeUndefined();
    expect(bodyProblem(doc, 'post', brand.save, { id: 7, name: 'Acme Ltd' })).toBeUndefined();
    // Neither a change nor a delete, and an update without an id, are no action at all.
    expect(bodyProblem(doc, 'post', brand.status, { id: 7 })).toBeDefined();
    expect(bodyProblem(doc, 'post', brand.save, { name: 'Acme', type: 'popular', id: 'x' })).toBeDefined();
  });

  it('offers no create where nobody may create, and states who may take each action', () => {
    for (const entity of registry.entities.filter((e) => served(e) && !e.ownRoutes)) {
      const body = doc.paths[entity.save].post.requestBody as { content: { 'application/json': { schema: { oneOf?: { title: string }[]; title?: string } } } } | undefined;
      // Nobody saves (the audit log): no body to send at all.
      if (!body) {
        expect(entity.rules.create === 'none' && entity.rules.update === 'none', entity.name).toBe(true);
        continue;
      }
      const schema = body.content['application/json'].schema;
      const titles = schema.oneOf ? schema.oneOf.map((o) => o.title) : [schema.title];
      expect(titles, entity.name).toEqual([...(entity.rules.create !== 'none' ? ['Create'] : []), ...(entity.rules.update !== 'none' ? ['Update'] : [])]);
    }
    const supports = doc.paths[registry.entity('supports').save].post.requestBody as { content: { 'application/json': { schema: { oneOf: { title: string; 'x-roles': string[] }[] } } } };
    const [create, update] = supports.content['application/json'].schema.oneOf;
    expect(create['x-roles']).toEqual(['signed-in']);
    expect(update['x-roles']).not.toContain('signed-in');
  });

  it("refuses a list's order that is not ASC or DESC, with or without sort, as the document says", async () => {
    const admin = (await s.userWith(ADMIN, [registry.entity('brands').access])).token;
    const brands = registry.entity('brands');
    for (const order of [['asc'], 'up', 5]) {
      const res = await s.post(brands.list, { page: 1, order }, admin);
      expect(res.http, JSON.stringify(order)).toBe(400);
      expect(res.body.query).toBe('order must be ASC or DESC');
      expect(bodyProblem(doc, 'post', brands.list, { page: 1, order })).toBeDefined();
    }
    for (const order of ['asc', 'DESC']) expect((await s.post(brands.list, { page: 1, order, sort: 'id' }, admin)).http).toBe(200);
  });

  it('has no status call where there is nothing to change and nothing to delete (subcategories)', async () => {
    const subcategories = registry.entity('subcategories');
    const admin = (await s.userWith(ADMIN, [subcategories.access])).token;
    expect(doc.paths[subcategories.status]).toBeUndefined();
    expect((await s.post(subcategories.status, { id: 1 }, admin)).http).toBe(404);
  });

  it("states the rules the server checks: an order's items, a job's Before", () => {
    const orders = registry.entity('orders');
    expect(bodyProblem(doc, 'post', orders.save, { shop_id: 1 })).toContain('items');
    expect(bodyProblem(doc, 'post', orders.save, { shop_id: 1, items: [{ product_id: 2, quantity: 1 }] })).toBeUndefined();
    const jobs = registry.entity('jobs');
    const job = { title: 'T', description: 'D', qualification: 'Q', details: 'X', country: 'Nigeria' };
    expect(bodyProblem(doc, 'post', jobs.save, { ...job, expiry: '2026-12-31' })).toContain('pattern');
    expect(bodyProblem(doc, 'post', jobs.save, { ...job, expiry: '31/12/2026' })).toBeUndefined();
  });
});

describe('the interactive reference', () => {
  it('is served from the package itself, with no outside address', async () => {
    const page = await fetch(`${s.url}/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('docs/swagger-ui-bundle.js');
    expect(html).not.toMatch(/https?:\/\//);
    const bundle = await fetch(`${s.url}/docs/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toContain('javascript');
    expect((await bundle.text()).length).toBeGreaterThan(100_000);
    expect((await fetch(`${s.url}/docs/start.js`)).status).toBe(200);
    expect((await fetch(`${s.url}/docs/package.json`)).status).toBe(404);
    expect((await fetch(`${s.url}/docs/..%2Fpackage.json`)).status).toBe(404);
  });
});
