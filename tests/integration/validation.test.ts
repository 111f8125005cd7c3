/**
 * Bad input gets a clear error and changes nothing: wrong types, missing fields, unknown search
 * targets, SQL metacharacters, oversized strings, broken JSON.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../server/registry';
import { startServer, demo, type TestServer } from './harness';

let s: TestServer;
let admin: string;
/** Records of the test's own that the refused calls name (their ids are set once they are made). */
const brand = { id: 0 };
const user = { id: 0, abilities: 'admin' };
beforeAll(async () => {
  s = await startServer();
  admin = await s.login(demo.admin.email, demo.admin.password);
  brand.id = (await s.post('/brand', { name: 'Validated', type: 'popular' }, admin)).body.detail.id;
  user.id = (await s.userWith([1])).id;
});
afterAll(() => s.close());

const snapshot = async () => {
  const tables = registry.entities.map((e) => e.name);
  return Object.fromEntries(await Promise.all(tables.map(async (t) => [t, await s.db.selectFrom(t).selectAll().orderBy('id').execute()])));
};

const shop = {
  name: 'Valid', description: 'd', category_id: 1,
  address: { street_name: 's', zip: 'z', country: 'c' },
  bank: { bank_name: 'b', bank_country: 'c', account_name: 'a', account_number: '1' },
};

describe('malformed payloads answer 4xx with a readable query and change nothing', () => {
  const cases: [string, string, unknown, number, RegExp | string][] = [
    ['missing required fields', '/brand', { name: 'Only a name' }, 400, 'type is required'],
    ['a value outside the allowed list', '/brand', { name: 'B', type: 'famous' }, 400, 'type must be one of: popular, upcoming'],
    ['a number field given text', '/shop', { ...shop, category_id: 'one' }, 400, 'category id must be a number'],
    ['an object where text belongs', '/shop', { ...shop, name: { $ne: 1 } }, 400, 'name must be text'],
    ['an oversized string', '/shop', { ...shop, name: 'x'.repeat(256) }, 400, 'name must be at most 255 characters'],
    ['an oversized text', '/shop', { ...shop, description: 'x'.repeat(5001) }, 400, 'description must be at most 5000 characters'],
    ['a whole number past what its column holds', '/brand', { name: 'B', type: 'popular', product_id: 2147483648 }, 400, 'product id must be at most 2147483647'],
    ['a whole number below what its column holds', '/brand', { name: 'B', type: 'popular', product_id: -2147483649 }, 400, 'product id must be at least -2147483648'],
    ['a link to nothing', '/shop', { ...shop, category_id: 999999 }, 400, 'category id 999999 does not match any category'],
    ['every problem named at once', '/distance', { location_A: 5, distance_km: 'far' }, 400, 'location B is required; distance km must be a number'],
    ['a bad id', '/brand/status', { id: "1 OR 1=1", is_active: 0 }, 400, 'id must be a positive whole number'],
    ['an unknown id', '/brand/status', { id: 424242, is_active: 0 }, 404, 'No brands record has id 424242'],
    ['a status call with nothing to change', '/brand/status', brand, 400, 'Nothing to change: send is_active'],
    ['a body that is an array', '/brand', [1, 2], 400, 'The request body must be a JSON object'],
    ['an unknown search target', '/search-dive', { keyIndex: 10, value: 'x', targets: ['password_hash'] }, 400, 'password_hash cannot be searched here; allowed: id, name'],
    ['a search with no targets', '/search-dive', { keyIndex: 10, value: 'x' }, 400, 'targets must be a list of column names'],
    ['an unknown keyIndex', '/search-dive', { keyIndex: 99, value: 'x', targets: ['id'] }, 400, 'keyIndex 99 does not name a searchable list'],
    ['an oversized search', '/search-dive', { keyIndex: 10, value: 'x'.repeat(101), targets: ['name'] }, 400, 'value must be at most 100 characters'],
    ['a page that is not a page', '/shops', { page: -1 }, 400, 'page must be a whole number from 1'],
    ['a page size over the limit', '/shops', { page: 1, per_page: 1000 }, 400, 'per_page must be a whole number from 1 to 100'],
    ['a page size one over the limit', '/shops', { page: 1, per_page: 101 }, 400, 'per_page must be a whole number from 1 to 100'],
    ['a page size of 0', '/shops', { page: 1, per_page: 0 }, 400, 'per_page must be a whole number from 1 to 100'],
    ['a filter on an unknown column', '/brands', { page: 1, filter: { 'name; drop table brands': 1 } }, 400, 'Cannot filter on name; drop table brands'],
    ['a sort by an unknown column', '/brands', { page: 1, sort: 'name desc; drop table brands', order: 'sideways' }, 400, 'order must be ASC or DESC'],
    ['an abilities list that is not one', '/user/edit', user, 400, 'abilities must be a list of the numbers 1, 2 and 3, such as [1,2]'],
    ['a bad email', '/user', { name: 'N', email: 'not-an-email', phone: '+15550000', password: 'password1' }, 400, 'email must be an email address'],
    ['broken JSON', '/brand', '{"name": ', 400, 'The request body is not valid JSON'],
  ];
  it('takes each limit at its value: a page size of 100, a search of 100 characters', async () => {
    const page = await s.post('/shops', { page: 1, per_page: 100 }, admin);
    expect(page.http).toBe(200);
    expect(page.body.HLL.per_page).toBe(100);
    const search = await s.post('/search-dive', { keyIndex: 10, value: 'x'.repeat(100), targets: ['name'] }, admin);
    expect(search.http).toBe(200);
    expect(search.body.HLL).toEqual([]);
  });

  it.each(cases)('%s', async (_what, path, body, http, query) => {
    const before = await snapshot();
    const res = await s.post(path, body, admin);
    expect(res.http).toBe(http);
    expect(res.body).toMatchObject({ status: false, detail: null, HLL: null });
    expect(res.body.query).toEqual(typeof query === 'string' ? query : expect.stringMatching(query));
    expect(await snapshot()).toEqual(before);
  });

  it('treats SQL metacharacters as plain text, in saves and in searches', async () => {
    const name = `Robert'); DROP TABLE brands;-- 100% _x_`;
    const saved = await s.post('/brand', { name, type: 'popular' }, admin);
    expect(saved.body).toMatchObject({ status: true, detail: { name } });
    const found = await s.post('/search-dive', { keyIndex: 13, value: "'); DROP TABLE brands;--", targets: ['id', 'name'] }, admin);
    expect(found.body.HLL).toEqual([expect.objectContaining({ name })]);
    const percent = await s.post('/search-dive', { keyIndex: 13, value: '100% _x', targets: ['name'] }, admin);
    expect(percent.body.HLL.map((b: { name: string }) => b.name)).toEqual([name]);
    const wildcard = await s.post('/search-dive', { keyIndex: 13, value: '%', targets: ['name'] }, admin);
    expect(wildcard.body.HLL.map((b: { name: string }) => b.name)).toEqual([name]);
    expect((await s.post('/brands', { page: 1 }, admin)).body.HLL.total).toBe(Number((await s.db.selectFrom('brands').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n));
  });

  it('answers an unknown endpoint with 404 and the envelope', async () => {
    const res = await s.post('/nowhere', {}, admin);
    expect(res.http).toBe(404);
    expect(res.body).toMatchObject({ status: false, query: 'There is no POST /nowhere endpoint' });
  });

  it('reads a list call with no body at all, as a legacy client sends /exchangess', async () => {
    const res = await fetch(`${s.url}/exchangess`, { method: 'POST', headers: { 'Content-Type': 'application/json' } });
    const body = await res.json();
    expect(res.status).toBe(200);
    const held = await s.db.selectFrom('exchanges').select('code').execute();
    expect(body.HLL.map((r: { code: string }) => r.code).sort()).toEqual(held.map((r) => r.code).sort());
  });
});
