/**
 * Issue 22, item 7: who may call is answered before the body is checked, on every route. The walk
 * reads the server's own API document: for every operation, each caller its x-roles leave out
 * (anonymous, a buyer, a seller, an admin holding no access) is refused with 401 or 403 whatever it
 * sends (nothing, an empty object, wrong types, text that is not JSON), never 400. The document's
 * roles and the server's gates come from one source; named disagreements of the issue are checked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../server/registry';
import { startServer, ADMIN, type TestServer } from './harness';

type Doc = { paths: Record<string, Record<string, { 'x-roles': string[] }>> };

let s: TestServer;
let doc: Doc;
const callers: Record<string, string | null> = { anonymous: null };
beforeAll(async () => {
  s = await startServer({ demo: false });
  doc = (await s.get<Doc>('/api/openapi.json')).body;
  callers.buyer = (await s.userWith([1])).token;
  callers.seller = (await s.userWith([1, 2])).token;
  callers['admin holding no access'] = (await s.userWith(ADMIN, [])).token;
});
afterAll(() => s.close());

/** Whether the roles leave this caller out, by the document's words. */
function refuses(roles: string[], who: string): boolean {
  if (roles.includes('anyone')) return false;
  if (who === 'anonymous') return true;
  if (roles.includes('signed-in')) return false;
  if (who === 'buyer') return true;
  if (who === 'seller') return !roles.includes('seller');
  // An admin holding no access passes only where sellers do (on their own records).
  return !roles.includes('seller');
}

const BODIES: (string | undefined)[] = [
  undefined,
  '{}',
  JSON.stringify({ id: 'not-a-number', page: -1, per_page: 'many', tag: [], plan_id: 'x', shop_id: {}, name: 42, granted_accesses: 7, abilities: 'x' }),
  '{"id": 1, oops',
];

async function call(method: string, path: string, token: string | null, body: string | undefined) {
  const url = `${s.url}${path.replace(/\{id\}/g, '1').replace(/\{\w+\}/g, 'x')}${method === 'GET' ? '?range=bad&filter=bad&sort=bad' : ''}`;
  const res = await fetch(url, {
    method,
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(body !== undefined && method !== 'GET' ? { 'Content-Type': 'application/json' } : {}) },
    body: method === 'GET' ? undefined : body,
  });
  return { http: res.status, text: await res.text() };
}

describe('authorization before validation', () => {
  it('refuses, on every operation of the document, every caller its roles leave out, whatever the body', async () => {
    let walked = 0;
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        for (const [who, token] of Object.entries(callers)) {
          if (!refuses(op['x-roles'], who)) continue;
          for (const body of method === 'get' ? [undefined] : BODIES) {
            const res = await call(method.toUpperCase(), path, token, body);
            // Anonymous callers of a call nobody may make (a create where records are never created) hear 403.
            const expected = who === 'anonymous' ? [401, 403] : [403];
            expect(expected, `${method} ${path} as ${who} with ${body}: ${res.http} ${res.text.slice(0, 200)}`).toContain(res.http);
            walked++;
          }
        }
      }
    }
    expect(walked).toBeGreaterThan(0);
  });
});

describe('the document and the server agree', () => {
  it('lets through, on every operation with one role, a caller of that role: no refusal for the role itself', async () => {
    const of: Record<string, string> = {
      'signed-in': (await s.userWith([1])).token, seller: (await s.userWith([1, 2])).token, admin: (await s.userWith(ADMIN, [...registry.assignable])).token,
    };
    // 'This operation is not available' is no refusal of the role: a save's {} asks for a create the entity never allows.
    const ROLE_REFUSALS = /only available to|not been granted access|sign in to continue|session has expired/i;
    let walked = 0;
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        const [role, ...more] = op['x-roles'];
        // Signing out would end the walk's session (its gate is walked above).
        if (more.length || !(role in of) || path === '/user/logout') continue;
        const res = await call(method.toUpperCase(), path, of[role], '{}');
        const { query } = JSON.parse(res.text || '{}') as { query?: string };
        if (res.http === 401 || res.http === 403) expect(query ?? '', `${method} ${path} as ${role}: ${res.http}`).not.toMatch(ROLE_REFUSALS);
        walked++;
      }
    }
    expect(walked).toBeGreaterThan(0);
  });

  it('/shopz refuses buyers, /packages refuses admins, as their roles say', async () => {
    expect(doc.paths['/shopz'].post['x-roles']).not.toContain('signed-in');
    expect((await s.post('/shopz', {}, callers.buyer)).http).toBe(403);
    expect((await s.post('/shopz', {}, callers.seller)).http).toBe(200);
    expect(doc.paths['/packages'].post['x-roles']).not.toContain('admin');
    const admin = (await s.userWith(ADMIN, ['subscriptions'])).token;
    expect((await s.post('/packages', {}, admin)).http).toBe(403);
    expect((await s.post('/package/subscribe', {}, admin)).http).toBe(403);
    expect((await s.post('/packages', {}, callers.seller)).http).toBe(200);
  });

  it('named examples of the issue: uploads, packages and a REST create with an id', async () => {
    expect((await s.post('/upload/status', {}, callers.buyer)).http).toBe(403);
    expect((await s.send('POST', '/rest/brands', { id: 5 }, callers['admin holding no access'])).http).toBe(403);
    // A caller who may create still learns that a new record takes no id.
    const brands = (await s.userWith(ADMIN, ['brands'])).token;
    const withId = await s.send('POST', '/rest/brands', { id: 5, name: 'x', type: 'popular' }, brands);
    expect(withId.http).toBe(400);
    expect(withId.body.query).toMatch(/^A new record takes no id/);
  });
});

describe('what a save cannot change is not answered as applied', () => {
  it("a shop's owner: a REST PUT or save changing owner_id is refused and changes nothing; the same value passes", async () => {
    const seller = await s.userWith([1, 2]);
    const other = await s.userWith([1, 2]);
    const adminUser = await s.userWith(ADMIN, ['shops']);
    const admin = adminUser.token;
    const category = await s.db.insertInto('categories').values({ name: `Gates ${seller.id}`, commission_currency: 'USD', commission_flat_rate: 1, is_active: 1 })
      .returning('id').executeTakeFirstOrThrow();
    const shop = await s.post('/shop', {
      name: `Owned shop ${seller.id}`, description: 'd', category_id: Number(category.id), address: { street_name: 's', zip: 'z', country: 'Nigeria' },
      bank: { bank_name: 'b', bank_country: 'c', account_name: 'n', account_number: '1' },
    }, seller.token);
    expect(shop.body.status).toBe(true);
    const id = shop.body.detail.id;
    for (const [method, path, body] of [
      ['PUT', `/rest/shops/${id}`, { owner_id: other.id }],
      ['POST', '/shop', { id, owner_id: other.id, name: 'Moved' }],
    ] as const) {
      const res = await s.send(method, path, body, admin);
      expect(res.http, path).toBe(403);
      expect(res.body.query).toBe('owner id is set when the record is created; the change was not applied');
    }
    const row = await s.db.selectFrom('shops').select(['owner_id', 'name']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(Number(row.owner_id)).toBe(seller.id);
    const same = await s.send('PUT', `/rest/shops/${id}`, { owner_id: seller.id, name: 'Renamed' }, admin);
    expect(same.http).toBe(200);
    expect(same.body).toMatchObject({ name: 'Renamed' });
    // The generic payload carries the editing admin as owner_id (SPEC §3.24): not a change of owner.
    const edited = await s.post('/shop', { id, owner_id: adminUser.id, name: 'Edited by an admin' }, admin);
    expect(edited.http).toBe(200);
    expect(edited.body.detail).toMatchObject({ name: 'Edited by an admin', owner_id: seller.id });
  });

  it("a visitor's is_active on a new chat is ignored: the chat opens active", async () => {
    const chat = { user_name: 'Kofi', user_email: 'kofi@example.com', chats: [{ sent: 1, recieved: 0, message: 'Hi' }], is_active: 0 };
    const opened = await s.post('/chat', chat);
    expect(opened.body.status).toBe(true);
    const row = await s.db.selectFrom('chats').select('is_active').where('id', '=', opened.body.detail.id).executeTakeFirstOrThrow();
    expect(Number(row.is_active)).toBe(1);
  });
});
