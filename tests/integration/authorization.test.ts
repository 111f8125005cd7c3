/**
 * DESIGN D6: whatever the console hides, the server refuses. Generated from the registry: every
 * endpoint of every entity is called by each role that must not pass, and by one that must.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../server/registry';
import { png } from '../../server/png';
import { startServer, demo, ADMIN, newCategory, productBody, shopBody, type TestServer } from './harness';
import { describeMatrix, type Role } from './matrix';

let s: TestServer;
const tokens: Record<string, string | null> = {};
/** The demo accounts' ids as this database holds them, and another seller of the test's own. */
const ids = { admin: 0, seller: 0, other: 0 };
/** Rows of the test's own: a shop with a product for the demo seller (and an order of it), the same for the other seller. */
const own = { sellerShop: 0, sellerProduct: 0, otherShop: 0, otherProduct: 0, order: 0, category: { id: 0, subcategoryId: 0 } };

beforeAll(async () => {
  s = await startServer();
  tokens.anonymous = null;
  tokens.buyer = await s.login(demo.buyer.email, demo.buyer.password);
  tokens.seller = await s.login(demo.seller.email, demo.seller.password);
  tokens.adminWithout = (await s.userWith(ADMIN, [])).token;
  tokens.admin = await s.login(demo.admin.email, demo.admin.password);
  const other = await s.userWith([1, 2]);
  tokens.other = other.token;
  const idOf = async (email: string) => Number((await s.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id);
  Object.assign(ids, { admin: await idOf(demo.admin.email), seller: await idOf(demo.seller.email), other: other.id });
  own.category = await newCategory(s, tokens.admin, 'Authorized goods');
  own.sellerShop = (await s.post('/shop', shopBody('Seller own shop'), tokens.seller)).body.detail.id;
  own.sellerProduct = (await s.post('/product', productBody(own.sellerShop, own.category, 'Seller own product'), tokens.seller)).body.detail.id;
  own.otherShop = (await s.post('/shop', shopBody('Other seller shop'), tokens.other)).body.detail.id;
  own.otherProduct = (await s.post('/product', productBody(own.otherShop, own.category, 'Other seller product'), tokens.other)).body.detail.id;
  const address = { street_name: '5 Broad Street', city: 'Monrovia', state: 'Montserrado', country: 'Liberia', zip: '1000' };
  const order = await s.post('/order', { shop_id: own.sellerShop, items: [{ product_id: own.sellerProduct, quantity: 1 }], shipping_address: address }, tokens.buyer);
  expect(order.body.status).toBe(true);
  own.order = order.body.detail.id;
});
const count = async (table: string, where?: [string, readonly number[]]) => {
  let q = s.db.selectFrom(table);
  if (where) q = q.where(where[0], 'in', where[1]);
  return Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
};
const shopIdsOf = async (owner: number) => (await s.db.selectFrom('shops').select('id').where('owner_id', '=', owner).execute()).map((r) => Number(r.id));
afterAll(() => s.close());

describeMatrix(() => s, registry);

describe('users endpoints', () => {
  const cases: [string, () => Record<string, unknown>][] = [
    ['/users', () => ({ page: 1 })],
    ['/users', () => ({ id: ids.seller })],
    ['/user/edit', () => ({ id: ids.seller, name: 'Hacked', email: demo.seller.email, phone: '', abilities: '[1,2,3]', is_active: 1 })],
    ['/user/status', () => ({ id: ids.seller, is_active: 0 })],
    ['/user/assign-role', () => ({ id: ids.seller, granted_accesses: ['shops'] })],
  ];
  it.each(cases.flatMap(([path, body]) => (['anonymous', 'buyer', 'adminWithout'] as Role[]).map((role) => [path, role, body] as const)))(
    '%s refuses %s',
    async (path, role, body) => {
      const before = await s.db.selectFrom('users').selectAll().where('id', '=', ids.seller).executeTakeFirstOrThrow();
      const res = await s.post(path, body(), tokens[role]);
      expect(res.http).toBe(role === 'anonymous' ? 401 : 403);
      expect(res.body.status).toBe(false);
      expect(await s.db.selectFrom('users').selectAll().where('id', '=', ids.seller).executeTakeFirstOrThrow()).toEqual(before);
    },
  );
  it('lets the admin holding the users access list users', async () => {
    const res = await s.post('/users', { page: 1 }, tokens.admin);
    expect(res.http).toBe(200);
    expect(res.body.HLL.total).toBe(await count('users'));
  });
});

describe('/shopz {owner_id}: the caller\'s own shops, or anyone\'s for the admin holding the shops access', () => {
  it.each([
    ['anonymous', 401],
    ['buyer', 403],
    ['adminWithout', 403],
  ] as const)("refuses %s asking for another user's shops", async (role, http) => {
    const res = await s.post('/shopz', { owner_id: ids.seller }, tokens[role]);
    expect(res.http).toBe(http);
    expect(res.body).toMatchObject({ status: false, HLL: null });
  });
  it("answers the seller their own shops and the admin anyone's, as a plain array", async () => {
    const theirs = (await shopIdsOf(ids.seller)).sort((a, b) => a - b);
    expect(theirs).toContain(own.sellerShop);
    const idsOf = (rows: { id: number }[]) => rows.map((r) => r.id).sort((a, b) => a - b);
    const answered = await s.post('/shopz', { owner_id: ids.seller }, tokens.seller);
    expect(idsOf(answered.body.HLL)).toEqual(theirs);
    expect(answered.body.HLL.every((r: { owner_id: number }) => r.owner_id === ids.seller)).toBe(true);
    expect((await s.post('/shopz', { owner_id: ids.other }, tokens.seller)).http).toBe(403);
    expect(idsOf((await s.post('/shopz', { owner_id: ids.seller }, tokens.admin)).body.HLL)).toEqual(theirs);
    expect(idsOf((await s.post('/shopz', { owner_id: ids.other }, tokens.admin)).body.HLL)).toEqual([own.otherShop]);
  });
});

describe('sellers only ever see and change their own shops, products and orders', () => {
  it('scopes lists and searches to the caller', async () => {
    const [mine, theirs] = await Promise.all([s.post('/shops', { page: 1, per_page: 100 }, tokens.seller), s.post('/shops', { page: 1, per_page: 100 }, tokens.other)]);
    const sellerId = (await s.post('/users', { id: ids.seller }, tokens.seller)).body.detail.id;
    expect(sellerId).toBe(ids.seller);
    const shops = await shopIdsOf(ids.seller);
    expect(mine.body.HLL.total).toBe(shops.length);
    expect(mine.body.HLL.data.map((r: { id: number }) => r.id)).toContain(own.sellerShop);
    expect(mine.body.HLL.data.every((r: { owner_id: number }) => r.owner_id === sellerId)).toBe(true);
    expect(theirs.body.HLL.data.map((r: { id: number }) => r.id)).toEqual([own.otherShop]);
    const held = { '/products': await count('products', ['shop_id', shops]), '/orders': await count('orders', ['shop_id', shops]) };
    for (const [list, keyIndex, made] of [['/products', 7, own.sellerProduct], ['/orders', 4, own.order]] as const) {
      const page = await s.post(list, { page: 1, per_page: 100 }, tokens.seller);
      expect(page.body.HLL.total).toBe(held[list]);
      expect(page.body.HLL.data.map((r: { id: number }) => r.id)).toContain(made);
      expect(page.body.HLL.data.every((r: { shop: { owner_id: number } }) => r.shop.owner_id === sellerId)).toBe(true);
      const found = await s.post('/search-dive', { keyIndex, value: '', targets: ['id'] }, tokens.seller);
      expect(found.body.HLL).toHaveLength(held[list]);
    }
  });

  it("refuses changes to another seller's shop, product and order", async () => {
    const othersShop = { id: own.otherShop };
    const othersProduct = { id: own.otherProduct };
    const edit = await s.post('/shop', { id: othersShop.id, name: 'Mine now' }, tokens.seller);
    expect(edit.http).toBe(403);
    expect(edit.body.query).toBe('You can only change your own records');
    expect((await s.post('/shop/status', { id: othersShop.id, tyype: 'clear' }, tokens.seller)).http).toBe(403);
    expect((await s.post('/product/status', { id: othersProduct.id, type: 'state', state: 'draft' }, tokens.seller)).http).toBe(403);
    const move = await s.post('/product', { id: own.sellerProduct, shop_id: othersShop.id }, tokens.seller);
    expect(move.http).toBe(403);
    expect(move.body.query).toBe('You can only use your own shops');
  });

  it("lets an admin holding products create a product in any seller's shop, and a seller only in their own", async () => {
    const othersShop = { id: own.otherShop };
    // In the shop's own currency (one currency per shop: its product is priced in USD).
    const product = (name: string) => ({
      shop_id: othersShop.id, name, description: 'd', currency: { code: 'USD' }, price: 10, sale_price: 9, in_stock: 3,
      category_id: own.category.id, subcategory_id: own.category.subcategoryId, band: { band_name: 'Acme' },
    });
    const admin = await s.userWith(ADMIN, ['products']);
    const made = await s.post('/product', product('Made by an admin'), admin.token);
    expect(made.body).toMatchObject({ status: true, detail: { shop_id: othersShop.id, name: 'Made by an admin' } });
    const seller = await s.userWith([1, 2]);
    const refused = await s.post('/product', product('Made by a seller'), seller.token);
    expect(refused.http).toBe(403);
    expect(refused.body.query).toBe('You can only use your own shops');
  });

  it('keeps premier for admins: a seller may send it unchanged but not change it', async () => {
    const product = { id: (await s.post('/product', productBody(own.sellerShop, own.category, 'Not premier'), tokens.seller)).body.detail.id };
    const same = await s.post('/product/status', { id: product.id, type: 'state', premier: 'no', product_type: 'new', state: 'draft' }, tokens.seller);
    expect(same.body).toMatchObject({ status: true, detail: { state: 'draft', premier: 'no' } });
    const raise = await s.post('/product/status', { id: product.id, type: 'state', premier: 'yes', product_type: 'new', state: 'active' }, tokens.seller);
    expect(raise.http).toBe(403);
    expect(raise.body.query).toBe('Only an administrator can change premier');
    const byAdmin = await s.post('/product/status', { id: product.id, type: 'state', premier: 'yes', product_type: 'new', state: 'active' }, tokens.admin);
    expect(byAdmin.body.detail).toMatchObject({ premier: 'yes', state: 'active' });
  });

  it('lets a seller move their own orders through the fulfilment states with {state, id}', async () => {
    const res = await s.post('/order/status', { state: 5, id: own.order }, tokens.seller);
    expect(res.body).toMatchObject({ status: true, detail: { status: { id: 5, name: 'Order Delivered' } } });
  });
});

describe('users endpoints: a partial admin never manages a fuller one', () => {
  // The partial admin holds the users access (so passes the screen's guard) but not all of the
  // target's accesses: every call about the target is refused and changes nothing.
  const cases: [string, (id: number) => Record<string, unknown>][] = [
    ['/user/edit', (id) => ({ id, email: 'taken-over@example.com' })],
    ['/user/edit', (id) => ({ id, abilities: '[1]' })],
    ['/user/edit', (id) => ({ id, is_active: 0 })],
    ['/user/status', (id) => ({ id, is_active: 0 })],
    ['/user/assign-role', (id) => ({ id, granted_accesses: [] })],
  ];
  let partial: string;
  const targets: Record<string, number> = {};
  beforeAll(async () => {
    partial = (await s.userWith(ADMIN, ['users', 'orders'])).token;
    targets['the full demo admin'] = ids.admin;
    targets['an admin holding an access it lacks'] = (await s.userWith(ADMIN, ['users', 'shops'])).id;
  });
  it.each(cases.flatMap(([path, body]) => ['the full demo admin', 'an admin holding an access it lacks'].map((who) => [path, who, body] as const)))(
    '%s about %s is refused',
    async (path, who, body) => {
      const id = targets[who];
      const before = await s.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
      const res = await s.post(path, body(id), partial);
      expect(res.http).toBe(403);
      expect(res.body).toMatchObject({ status: false, query: 'You can only manage users whose accesses you hold yourself' });
      expect(await s.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst()).toEqual(before);
    },
  );
});

describe('file endpoints refuse the roles that must not pass', () => {
  /** The demo seller's tag: the product name and their user id. */
  const tag = () => `Matrix${ids.seller}`;
  const form = () => {
    const f = new FormData();
    f.append('tag', tag());
    f.append('file', new Blob([new Uint8Array(png(4, 4, () => [90, 120, 200]))]), 'a.png');
    return f;
  };
  const send = (path: string, token: string | null) =>
    fetch(s.url + path, { method: 'POST', headers: token ? { Authorization: `Bearer ${token}` } : {}, body: form() });
  it.each([
    ['/upload-image', 'anonymous', 401],
    ['/upload-image', 'buyer', 403],
    ['/upload-docx', 'anonymous', 401],
  ] as const)('%s refuses %s', async (path, role, http) => {
    const before = await s.db.selectFrom('uploads').selectAll().execute();
    const res = await send(path, tokens[role]);
    expect(res.status).toBe(http);
    expect((await res.json()).status).toBe(false);
    expect(await s.db.selectFrom('uploads').selectAll().execute()).toEqual(before);
  });
  it("refuses another seller's images to a seller and to an admin without the products access", async () => {
    expect((await send('/upload-image', tokens.seller)).status).toBe(200);
    for (const token of [tokens.other, tokens.adminWithout]) {
      expect((await send('/upload-image', token)).status).toBe(403);
      expect((await s.post('/upload/status', { tyype: 'clear', tag: tag() }, token)).http).toBe(403);
    }
    expect((await send('/upload-image', tokens.admin)).status).toBe(200);
  });
});
