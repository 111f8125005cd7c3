// @vitest-environment jsdom
/**
 * The console's dataProvider and authProvider against the reference server over real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PER_PAGE } from '../../contract';
import { createDataProvider, fetchClient, type HttpClient, type MarketplaceDataProvider } from '../../dataProvider';
import { createAuthProvider } from '../../authProvider';
import { clearSession, getSession } from '../../authProvider/session';
import { registry } from '../../resources';
import { startServer, demo, shopBody, type TestServer } from './harness';

let s: TestServer;
let dp: MarketplaceDataProvider;
let auth: ReturnType<typeof createAuthProvider>;
const LIST = { pagination: { page: 1, perPage: 5 }, sort: { field: 'id', order: 'DESC' as const }, filter: {} };

beforeAll(async () => {
  // jsdom brings its own FormData, but requests leave through Node's fetch, which (from Node 22 on)
  // sends only its own: use Node's here, as a browser's fetch takes the browser's.
  globalThis.FormData = (await new Response(new URLSearchParams()).formData()).constructor as typeof FormData;
  s = await startServer();
  dp = createDataProvider({ apiUrl: s.url, resources: registry, session: getSession });
  auth = createAuthProvider(s.url);
});
afterAll(() => s.close());

const as = async (who: { email: string; password: string }) => {
  clearSession();
  await auth.login({ credential: who.email, password: who.password });
};

/** Rows counted by the database itself, optionally only one owner's shops. */
const countShops = async (owner?: number) => {
  let q = s.db.selectFrom('shops');
  if (owner !== undefined) q = q.where('owner_id', '=', owner);
  return Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
};
const idOf = async (email: string) => Number((await s.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id);

describe('dataProvider over HTTP', () => {
  it('signs in and reads the identity and permissions', async () => {
    await as(demo.admin);
    expect(await auth.getIdentity()).toMatchObject({ fullName: demo.admin.name });
    expect(await auth.getPermissions()).toMatchObject({ role: 'admin', granted: expect.arrayContaining(['shops', 'users']) });
    expect(await auth.canAccess({ resource: 'Currencies-exchange', action: 'list' })).toBe(true);
  });

  it('pages a paginated list and an array list', async () => {
    // Two pages of five at least, whatever the database held: ten shops of a new seller's.
    const owner = await s.userWith([1, 2]);
    for (let i = 0; i < 10; i++) expect((await s.post('/shop', shopBody(`Paged ${owner.id} ${i}`), owner.token)).body.status).toBe(true);
    await as(demo.admin);
    const shops = await dp.getList('shops', { ...LIST, pagination: { page: 2, perPage: 5 } });
    const total = await countShops();
    const newest = await s.db.selectFrom('shops').select('id').orderBy('id', 'desc').limit(10).execute();
    expect(shops.total).toBe(total);
    expect(shops.data.map((r) => r.id)).toEqual(newest.slice(5, 10).map((r) => r.id));
    expect(shops.meta).toEqual({ from: 6, to: 10, current_page: 2, last_page: Math.ceil(total / 5) });
    const rates = await dp.getList('Currencies-exchange', { ...LIST, pagination: { page: 1, perPage: 2 } });
    const held = Number((await s.db.selectFrom('exchanges').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    expect(rates.total).toBe(held);
    expect(rates.data).toHaveLength(Math.min(2, held));
  });

  it('searches with the resource key and reads one record through the search', async () => {
    const owner = await s.userWith([1, 2]);
    const name = `Lagoon Traders ${owner.id}`;
    expect((await s.post('/shop', shopBody(name), owner.token)).body.status).toBe(true);
    const ownerName = (await s.db.selectFrom('users').select('name').where('id', '=', owner.id).executeTakeFirstOrThrow()).name;
    await as(demo.admin);
    const found = await dp.getList('shops', { ...LIST, filter: { q: `Traders ${owner.id}` } });
    expect(found.data.map((r) => r.name)).toEqual([name]);
    const one = await dp.getOne('shops', { id: found.data[0].id });
    expect(one.data).toMatchObject({ name, seller: { name: ownerName } });
    const sellerId = await idOf(demo.seller.email);
    const user = await dp.getOne('users', { id: sellerId });
    const theirs = await s.db.selectFrom('shops').select('id').where('owner_id', '=', sellerId).execute();
    expect(user.data).toMatchObject({ id: sellerId, email: demo.seller.email });
    expect((user.data.shops as { id: number }[]).map((r) => r.id).sort((a, b) => a - b)).toEqual(theirs.map((r) => Number(r.id)).sort((a, b) => a - b));
  });

  it('creates, updates, deactivates and deletes a brand', async () => {
    await as(demo.admin);
    const created = await dp.create('brands', { data: { name: 'Orbit', type: 'upcoming', product_id: 0 } });
    expect(created.data).toMatchObject({ id: expect.any(Number), name: 'Orbit', is_active: 1 });
    expect(created.meta).toEqual({ query: 'Brand created successfully' });
    const id = created.data.id;
    const updated = await dp.update('brands', { id, data: { name: 'Orbit Two' }, previousData: created.data });
    expect(updated.data.name).toBe('Orbit Two');
    const off = await dp.setStatus('brands', { id, data: { is_active: 'Deactivate' }, previousData: updated.data });
    expect(off).toMatchObject({ data: { is_active: 0 }, query: 'Brand status updated successfully' });
    await dp.delete('brands', { id, previousData: off.data });
    await expect(dp.getOne('brands', { id })).rejects.toMatchObject({ status: 404 });
  });

  it('keeps a seller, and an admin on a seller screen, to their own shops', async () => {
    await as(demo.seller);
    const mine = await dp.getList('my-shops', { ...LIST, pagination: { page: 1, perPage: 50 } });
    const sellerId = await idOf(demo.seller.email);
    expect(mine.total).toBe(await countShops(sellerId));
    expect(mine.data.every((r) => r.owner_id === sellerId)).toBe(true);
    // The admin's own shops only, on the seller screen: one made here, beside everyone else's.
    const adminToken = await s.login(demo.admin.email, demo.admin.password);
    const own = (await s.post('/shop', shopBody('Admin Own Shop'), adminToken)).body.detail;
    await as(demo.admin);
    const adminShops = await dp.getList('my-shops', LIST);
    expect(adminShops.total).toBe(await countShops(await idOf(demo.admin.email)));
    expect(adminShops.data.map((r) => r.id)).toContain(own.id);
    expect(adminShops.data.every((r) => r.owner_id === own.owner_id)).toBe(true);
    expect((await dp.getList('shops', LIST)).total).toBe(await countShops());
  });

  it('reads several records in one call (getMany), a seller only their own', async () => {
    await as(demo.admin);
    const made = [];
    for (const name of ['Many One', 'Many Two', 'Many Three']) made.push((await dp.create('brands', { data: { name, type: 'popular', product_id: 0 } })).data);
    const urls: string[] = [];
    const real = fetchClient();
    const counting: HttpClient = (url, init) => (urls.push(url), real(url, init));
    const counted = createDataProvider({ apiUrl: s.url, resources: registry, session: getSession, http: counting });
    const ids = made.map((b) => b.id).reverse();
    const { data } = await counted.getMany('brands', { ids });
    expect(data.map((b) => b.name)).toEqual(['Many Three', 'Many Two', 'Many One']);
    expect(urls).toEqual([`${s.url}/brands`]);

    // A seller's screen reads their own shops only, whichever ids it is given.
    const admins = await s.post('/shop', shopBody('Many Admin Shop'), await s.login(demo.admin.email, demo.admin.password));
    await as(demo.seller);
    const own = await s.post('/shop', shopBody('Many Seller Shop'), getSession()!.token);
    const ids2 = [own.body.detail.id, admins.body.detail.id];
    expect((await dp.getMany('my-shops', { ids: ids2 })).data.map((r) => r.name)).toEqual(['Many Seller Shop']);
  });

  it('refuses an id list longer than a page, or holding something other than ids, with a readable message', async () => {
    const token = await s.login(demo.admin.email, demo.admin.password);
    const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
    expect((await s.post('/brands', { page: 1, per_page: MAX_PER_PAGE, filter: { id: ids(MAX_PER_PAGE) } }, token)).http).toBe(200);
    expect((await s.post('/brands', { page: 1, filter: { id: ids(MAX_PER_PAGE + 1) } }, token)).body).toMatchObject({
      status: false, query: `filter.id may name at most ${MAX_PER_PAGE} ids`,
    });
    const bad = await s.post('/brands', { page: 1, filter: { id: [1, 'x'] } }, token);
    expect(bad).toMatchObject({ http: 400, body: { status: false, query: 'Each id of filter.id must be a positive whole number' } });
  });

  it("surfaces the server's message and status on refusal", async () => {
    await as(demo.seller);
    const brands = await dp.getList('brands', LIST);
    const held = Number((await s.db.selectFrom('brands').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    expect(brands.total).toBe(held);
    expect(brands.data).toHaveLength(Math.min(LIST.pagination.perPage, held));
    await expect(dp.create('brands', { data: { name: 'X', type: 'popular' } })).rejects.toMatchObject({
      status: 403,
      message: 'This section is only available to administrators',
    });
    clearSession();
    await expect(dp.getList('shops', LIST)).rejects.toMatchObject({ status: 401, message: 'Please sign in to continue' });
  });
});
