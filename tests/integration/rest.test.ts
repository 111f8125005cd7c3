/**
 * The REST face (react-admin's simple REST dialect) over the same rules as the contract's calls:
 * lists with Content-Range, sort, range, filter, search and getMany; one record; creates with
 * validation errors in the envelope; updates; deletes refused while records use them; seller
 * scoping; wrong roles refused; absent in strict mode. Expected values are read from the database
 * or from the contract's own calls, never from the demo seeds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { registry } from '../../server/registry';
import { startServer, demo, type TestServer } from './harness';

let s: TestServer;
let admin: string;
let seller: string;
let buyer: string;
let sellerId: number;

interface RestAnswer<T = any> {
  http: number;
  body: T;
  headers: Headers;
}

async function rest<T = any>(method: string, path: string, token?: string | null, body?: unknown): Promise<RestAnswer<T>> {
  const res = await fetch(`${s.url}/rest${path}`, {
    method,
    headers: {
      Accept: 'application/json',
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { http: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}

const list = (entity: string, params: Record<string, unknown>, token: string | null = admin) => {
  const query = new URLSearchParams(
    Object.entries(params).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
  ).toString();
  return rest<any[]>('GET', `/${entity}${query ? `?${query}` : ''}`, token);
};

const count = async (table: string, where: (q: any) => any = (q) => q) =>
  Number((await where(s.db.selectFrom(table).select((eb: any) => eb.fn.countAll().as('n'))).executeTakeFirstOrThrow()).n);

/** A refusal: the envelope with the same text as `message`. */
function refused(answer: RestAnswer, http: number, text?: string | RegExp) {
  expect(answer.http).toBe(http);
  expect(answer.body).toMatchObject({ status: false, detail: null, HLL: null });
  expect(answer.body.message).toBe(answer.body.query);
  if (text) expect(answer.body.query).toMatch(text);
}

beforeAll(async () => {
  s = await startServer();
  admin = await s.login(demo.admin.email, demo.admin.password);
  seller = await s.login(demo.seller.email, demo.seller.password);
  buyer = await s.login(demo.buyer.email, demo.buyer.password);
  sellerId = Number((await s.db.selectFrom('users').select('id').where('email', '=', demo.seller.email).executeTakeFirstOrThrow()).id);
});
afterAll(() => s.close());

describe('REST lists', () => {
  it('answer a range of records with the total in Content-Range, readable across origins', async () => {
    const total = await count('shops');
    const res = await list('shops', { range: [0, 4] });
    expect(res.http).toBe(200);
    expect(res.body).toHaveLength(Math.min(5, total));
    expect(res.headers.get('content-range')).toBe(`shops 0-${res.body.length - 1}/${total}`);
    expect(res.headers.get('x-total-count')).toBe(String(total));
    expect(res.headers.get('access-control-expose-headers')).toContain('Content-Range');
  });

  it('page and order as the contract call does (one rule set)', async () => {
    const legacy = await s.post('/shops', { page: 2, per_page: 3, sort: 'name', order: 'ASC' }, admin);
    const res = await list('shops', { sort: ['name', 'ASC'], range: [3, 5] });
    expect(res.body.map((r) => r.id)).toEqual(legacy.body.HLL.data.map((r: { id: number }) => r.id));
    expect(res.headers.get('content-range')).toBe(`shops 3-${3 + res.body.length - 1}/${legacy.body.HLL.total}`);
    const names = (await s.db.selectFrom('shops').select('name').orderBy('name', 'desc').orderBy('id', 'asc').limit(4).execute()).map((r) => r.name);
    expect((await list('shops', { sort: ['name', 'DESC'], range: [0, 3] })).body.map((r) => r.name)).toEqual(names);
  });

  it('filter on columns, search with q, and read several records by id (getMany)', async () => {
    const inactive = await list('brands', { filter: { is_active: 0 }, range: [0, 99] });
    expect(inactive.body.length).toBe(await count('brands', (q) => q.where('is_active', '=', 0)));
    expect(inactive.body.every((b) => b.is_active === 0 || b.is_active === false)).toBe(true);

    const search = await s.post('/search-dive', { keyIndex: 10, value: 'store 1', targets: ['name'] }, admin);
    const found = await list('shops', { filter: { q: 'store 1' }, range: [0, 99] });
    expect(found.body.map((r) => r.id).sort()).toEqual(search.body.HLL.map((r: { id: number }) => r.id).sort());

    const ids = (await s.db.selectFrom('shops').select('id').orderBy('id').limit(3).execute()).map((r) => Number(r.id));
    const many = await list('shops', { filter: { id: [...ids, 999999] } });
    expect(many.http).toBe(200);
    expect(many.body.map((r) => r.id).sort((a, b) => a - b)).toEqual(ids);
  });

  it('refuse malformed parameters with the envelope', async () => {
    refused(await list('shops', { range: [1, 5] }), 400, /multiple of its length/);
    refused(await list('shops', { range: [0, 5000] }), 400, /at most 1000/);
    refused(await list('shops', { sort: 'name' }), 400, /sort must be JSON/);
    refused(await list('shops', { sort: ['name', 'SIDEWAYS'] }), 400, /ASC or DESC/);
    refused(await list('shops', { filter: '{not json' }), 400, /filter must be JSON/);
    refused(await list('shops', { filter: { no_such_column: 1 } }), 400, /Cannot filter on no_such_column/);
    refused(await list('shops', { filter: { id: ['x'] } }), 400, /filter.id/);
    refused(await list('chats', { filter: { q: 'abc' } }), 400, /cannot be searched/);
    refused(await list('shops', { scope: 'everyone' }), 400, /scope/);
  });
});

describe('REST records', () => {
  it('read one record as the contract search answers it, 404 when missing', async () => {
    const [first] = (await list('shops', { range: [0, 0] })).body;
    const one = await rest('GET', `/shops/${first.id}`, admin);
    expect(one.http).toBe(200);
    const legacy = await s.post('/search-dive', { keyIndex: 10, value: String(first.id), targets: ['id'] }, admin);
    expect(one.body).toEqual(legacy.body.HLL[0]);
    refused(await rest('GET', '/shops/999999', admin), 404);
    refused(await rest('GET', '/shops/abc', admin), 400);
  });

  it('create: validation errors in the envelope, then a record with the message and an audit entry', async () => {
    const before = await count('brands');
    const bad = await rest('POST', '/brands', admin, { type: 'sideways' });
    refused(bad, 400, /name is required/);
    expect(bad.body.query).toMatch(/type must be one of: popular, upcoming/);
    refused(await rest('POST', '/brands', admin, { id: 5, name: 'X', type: 'popular' }), 400, /takes no id/);
    expect(await count('brands')).toBe(before);

    const made = await rest('POST', '/brands', admin, { name: 'Rest Brand', type: 'popular' });
    expect(made.http).toBe(201);
    expect(made.headers.get('x-message')).toBe('Brand created successfully');
    expect(made.body).toMatchObject({ name: 'Rest Brand', type: 'popular' });
    expect(await count('brands')).toBe(before + 1);
    const entry = await s.db.selectFrom('auditLogs').selectAll().where('entity', '=', 'brands').where('record_id', '=', made.body.id).executeTakeFirst();
    expect(entry?.action).toBe('create');
  });

  it('update: the address names the record; the same validation; audited', async () => {
    const made = await rest('POST', '/brands', admin, { name: 'Rest Update', type: 'popular' });
    const changed = await rest('PUT', `/brands/${made.body.id}`, admin, { ...made.body, name: 'Rest Updated' });
    expect(changed.http).toBe(200);
    expect(changed.headers.get('x-message')).toBe('Brand updated successfully');
    expect(changed.body.name).toBe('Rest Updated');
    const row = await s.db.selectFrom('brands').select('name').where('id', '=', made.body.id).executeTakeFirstOrThrow();
    expect(row.name).toBe('Rest Updated');
    refused(await rest('PUT', `/brands/${made.body.id}`, admin, { id: made.body.id + 1, name: 'Other' }), 400, /not the address/);
    // An id that is neither a number nor a text (one that cannot even be made a text) is refused the same way.
    for (const id of [{ toString: 1 }, [made.body.id], true]) {
      refused(await rest('PUT', `/brands/${made.body.id}`, admin, { id, name: 'Other' }), 400, /not the address/);
    }
    expect((await rest('PUT', `/brands/${made.body.id}`, admin, { id: String(made.body.id), name: 'Rest Updated' })).http).toBe(200);
    refused(await rest('PUT', `/brands/${made.body.id}`, admin, { name: '' }), 400, /name is required/);
    refused(await rest('PUT', '/brands/999999', admin, { name: 'Nobody' }), 404);
    const actions = await s.db.selectFrom('auditLogs').select('action').where('entity', '=', 'brands').where('record_id', '=', made.body.id).execute();
    expect(actions.map((a) => a.action)).toEqual(expect.arrayContaining(['create', 'update']));
  });

  it('delete: refused while other records use it, as the contract call refuses', async () => {
    const used = await s.db.selectFrom('products').select('shop_id').where('shop_id', 'is not', null).executeTakeFirstOrThrow();
    const res = await rest('DELETE', `/shops/${used.shop_id}`, admin);
    refused(res, 409, /still used by/);
    expect(await count('shops', (q) => q.where('id', '=', used.shop_id))).toBe(1);

    const made = await rest('POST', '/brands', admin, { name: 'Rest Delete', type: 'upcoming' });
    const gone = await rest('DELETE', `/brands/${made.body.id}`, admin);
    expect(gone.http).toBe(200);
    expect(gone.body).toEqual({ id: made.body.id });
    expect(gone.headers.get('x-message')).toBe('Brand deleted successfully');
    expect(await count('brands', (q) => q.where('id', '=', made.body.id))).toBe(0);
    refused(await rest('DELETE', `/brands/${made.body.id}`, admin), 404);
  });

  it('has no delete for records that are never deleted, and no create for users', async () => {
    const [order] = (await list('orders', { range: [0, 0] })).body;
    expect((await rest('DELETE', `/orders/${order.id}`, admin)).http).toBe(404);
    expect((await rest('POST', '/users', admin, { name: 'x' })).http).toBe(404);
    // Update-only entities have no create: the address answers 404 like any unknown one.
    refused(await rest('POST', '/templates', admin, { subject: 'x' }), 404, 'There is no POST /rest/templates endpoint');
  });
});

describe('REST seller scoping and roles', () => {
  it("a seller lists, reads and changes only their own shops and products", async () => {
    const own = await list('shops', { range: [0, 99] }, seller);
    expect(own.http).toBe(200);
    const mine = await count('shops', (q) => q.where('owner_id', '=', sellerId));
    expect(own.headers.get('content-range')).toMatch(new RegExp(`/${mine}$`));
    expect(own.body.every((r) => r.owner_id === sellerId)).toBe(true);
    const products = await list('products', { range: [0, 99] }, seller);
    expect(products.body.length).toBeGreaterThan(0);
    expect(products.body.every((p) => p.shop.owner_id === sellerId)).toBe(true);

    const other = await s.db.selectFrom('shops').selectAll().where('owner_id', '!=', sellerId).executeTakeFirstOrThrow();
    refused(await rest('GET', `/shops/${other.id}`, seller), 404);
    refused(await rest('PUT', `/shops/${other.id}`, seller, { name: 'Taken over' }), 403);
    refused(await rest('DELETE', `/shops/${other.id}`, seller), 403);
    expect((await s.db.selectFrom('shops').select('name').where('id', '=', other.id).executeTakeFirstOrThrow()).name).toBe(other.name);
  });

  it("scope=own narrows an admin to their own records (My Shops)", async () => {
    const adminId = Number((await s.db.selectFrom('users').select('id').where('email', '=', demo.admin.email).executeTakeFirstOrThrow()).id);
    const res = await list('shops', { scope: 'own', range: [0, 99] });
    expect(res.body.length).toBe(await count('shops', (q) => q.where('owner_id', '=', adminId)));
    expect(res.body.every((r) => r.owner_id === adminId)).toBe(true);
  });

  it('refuses wrong roles as the contract calls do', async () => {
    refused(await list('shops', {}, null), 401);
    refused(await list('shops', {}, buyer), 403);
    refused(await rest('POST', '/brands', buyer, { name: 'No', type: 'popular' }), 403);
    refused(await rest('POST', '/brands', seller, { name: 'No', type: 'popular' }), 403);
    refused(await list('templates', {}, seller), 403);
    refused(await list('users', {}, seller), 403);
    const bare = await s.userWith([1, 2, 3], []);
    refused(await list('templates', {}, bare.token), 403, /not been granted/);
    const [brand] = (await list('brands', { range: [0, 0] })).body;
    refused(await rest('DELETE', `/brands/${brand.id}`, seller), 403);
    refused(await rest('PUT', `/brands/${brand.id}`, null, { name: 'x' }), 401);
  });

  it('users: an admin lists and edits with the edit call\'s rules; anyone reads only themselves', async () => {
    const users = await list('users', { filter: { q: demo.seller.email }, range: [0, 9] });
    expect(users.body.map((u) => u.email)).toEqual([demo.seller.email]);
    const me = await rest('GET', `/users/${sellerId}`, seller);
    expect(me.body.email).toBe(demo.seller.email);
    const adminId = Number((await s.db.selectFrom('users').select('id').where('email', '=', demo.admin.email).executeTakeFirstOrThrow()).id);
    refused(await rest('GET', `/users/${adminId}`, seller), 403);
    refused(await rest('PUT', `/users/${adminId}`, admin, { abilities: '[1]' }), 403, /own abilities/);
    const renamed = await rest('PUT', `/users/${sellerId}`, admin, { name: 'Sam Renamed' });
    expect(renamed.body.name).toBe('Sam Renamed');
    expect(renamed.headers.get('x-message')).toBe('User updated successfully');
  });
});

describe('REST input from strangers', () => {
  it('never answers a 5xx to generated list parameters, ids and bodies, as any role', async () => {
    const roles = [null, admin, seller, buyer];
    const entities = registry.entities.map((e) => e.name);
    const json = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v));
    const text = fc.oneof(json, fc.string({ maxLength: 30 }), fc.constantFrom('[0,24]', '["name","ASC"]', '{"id":[1,2]}', '{"q":"st"}', '[1e309,2]', '{"__proto__":1}'));
    const request = fc.record({
      role: fc.constantFrom(...roles.keys()),
      entity: fc.constantFrom(...entities),
      method: fc.constantFrom('GET', 'GET', 'POST', 'PUT', 'DELETE'),
      id: fc.oneof(fc.integer({ min: -2, max: 40 }).map(String), fc.constantFrom('abc', '1e3', '9007199254740993', '%20')),
      params: fc.dictionary(fc.constantFrom('sort', 'range', 'filter', 'scope', 'embed'), text, { maxKeys: 4 }),
      body: fc.option(fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 6 }), { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(request, async ({ role, entity, method, id, params, body }) => {
        const query = new URLSearchParams(params).toString();
        const path = method === 'POST' || (method === 'GET' && query) ? `/${entity}?${query}` : `/${entity}/${id}`;
        const res = await rest(method, path, roles[role], method === 'GET' || method === 'DELETE' ? undefined : (body ?? {}));
        expect(res.http, `${method} ${path}`).toBeLessThan(500);
        if (res.http >= 400) expect(res.body.status).toBe(false);
      }),
      { numRuns: 300, seed: 14 },
    );
  });
});

describe("the console's dialect", () => {
  it('config.json is served with DATA_DIALECT, keeping the rest of the built file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'marketplace-dialect-'));
    fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>x</title>');
    fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ apiUrl: '/api', geoKey: 'k', dataDialect: 'contract' }));
    const served = await startServer({ staticDir: dir, dataDialect: 'simple-rest', demo: false });
    const plain = await startServer({ staticDir: dir, demo: false });
    try {
      const res = await fetch(`${served.origin}/config.json`);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.json()).toEqual({ apiUrl: '/api', geoKey: 'k', dataDialect: 'simple-rest' });
      expect(await (await fetch(`${plain.origin}/config.json`)).json()).toMatchObject({ dataDialect: 'contract' });
    } finally {
      await served.close();
      await plain.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('REST in strict mode', () => {
  it('is absent (404), as the description and its reference page are', async () => {
    const strict = await startServer({ strict: true });
    try {
      const token = await strict.login(demo.admin.email, demo.admin.password);
      for (const path of ['/rest/shops', '/rest/shops/1', '/openapi.json', '/docs']) {
        const res = await fetch(`${strict.url}${path}`, { headers: { Authorization: `Bearer ${token}` } });
        expect(res.status, path).toBe(404);
      }
      const put = await fetch(`${strict.url}/rest/shops/1`, { method: 'PUT', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: '{}' });
      expect(put.status).toBe(404);
    } finally {
      await strict.close();
    }
  });
});

