/**
 * Orders, money and checkout over real HTTP (SPEC §2.12, §4.5, §4.9, §7.4, §7.7): scoping, the
 * seller's status-only rule, the status history, checkout priced by the server, the catalogue, the
 * exchanges calls and the geolocation stand-in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, demo, newCategory, productBody, shopBody, startServer, type TestServer } from './harness';

let s: TestServer;
const tokens: Record<'admin' | 'seller' | 'buyer' | 'other' | 'otherBuyer' | 'adminWithout', string> = {} as never;
/** The demo seller and buyer as this database holds them, and another seller and buyer of the test's own. */
let SELLER = 0;
let OTHER = 0;
let BUYER = 0;
/** The products and orders this file made: the tests read these, never the demo's. */
const own = { products: [] as number[], orders: [] as number[], draft: 0, othersOrder: 0 };

const address = { street_name: '5 Broad Street', city: 'Monrovia', state: 'Montserrado', country: 'Liberia', zip: '1000' };

beforeAll(async () => {
  s = await startServer();
  tokens.admin = await s.login(demo.admin.email, demo.admin.password);
  tokens.seller = await s.login(demo.seller.email, demo.seller.password);
  tokens.buyer = await s.login(demo.buyer.email, demo.buyer.password);
  const other = await s.userWith([1, 2]);
  tokens.other = other.token;
  OTHER = other.id;
  const otherBuyer = await s.userWith([1]);
  tokens.otherBuyer = otherBuyer.token;
  tokens.adminWithout = (await s.userWith(ADMIN, [])).token;
  const idOf = async (email: string) => Number((await s.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id);
  SELLER = await idOf(demo.seller.email);
  BUYER = await idOf(demo.buyer.email);
  // Each seller: a shop with two products in stock (one in USD, one in EUR: a shop each) and a draft.
  const category = await newCategory(s, tokens.admin, 'Ordered goods');
  for (const [token, name] of [[tokens.seller, 'Seller'], [tokens.other, 'Other']] as const) {
    for (const currency of ['USD', 'EUR']) {
      const shop = (await s.post('/shop', shopBody(`${name} ${currency} shop`), token)).body.detail.id as number;
      const product = await s.post('/product', productBody(shop, category, `${name} ${currency} lamp`, { currency, price: 30, sale_price: 25, in_stock: 40 }), token);
      expect(product.body.status).toBe(true);
      own.products.push(product.body.detail.id);
    }
  }
  const shopOfFirst = (await s.db.selectFrom('products').select('shop_id').where('id', '=', own.products[0]).executeTakeFirstOrThrow()).shop_id;
  own.draft = (await s.post('/product', productBody(Number(shopOfFirst), category, 'Seller draft lamp', { state: 'draft' }), tokens.seller)).body.detail.id;
  // The demo buyer's orders from both sellers' shops, and one of another buyer's.
  for (const id of own.products) {
    const shop = (await s.db.selectFrom('products').select('shop_id').where('id', '=', id).executeTakeFirstOrThrow()).shop_id;
    const placed = await s.post('/order', { shop_id: shop, items: [{ product_id: id, quantity: 1 }], shipping_address: address }, tokens.buyer);
    expect(placed.body.status).toBe(true);
    own.orders.push(placed.body.detail.id);
  }
  const shopOfOthers = (await s.db.selectFrom('products').select('shop_id').where('id', '=', own.products[2]).executeTakeFirstOrThrow()).shop_id;
  const theirs = await s.post('/order', { shop_id: shopOfOthers, items: [{ product_id: own.products[2], quantity: 1 }], shipping_address: address }, tokens.otherBuyer);
  expect(theirs.body.status).toBe(true);
  own.othersOrder = theirs.body.detail.id;
});
afterAll(() => s.close());

const shopsOf = (owner: number) => s.db.selectFrom('shops').select('id').where('owner_id', '=', owner);
/** The first order of the test's own placed on this owner's shops. */
const orderOf = (owner: number) =>
  s.db.selectFrom('orders').selectAll().where('shop_id', 'in', shopsOf(owner)).where('id', 'in', own.orders).orderBy('id').executeTakeFirstOrThrow();
const eventsOf = (id: unknown) => s.db.selectFrom('orderEvents').selectAll().where('order_id', '=', Number(id)).orderBy('id').execute();
const count = async (q: { select: (f: (eb: any) => any) => any }) => Number((await q.select((eb: any) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

/** An active product of the test's own with stock, in an active shop of this owner. */
async function productOf(owner: number) {
  return s.db
    .selectFrom('products')
    .selectAll()
    .where('id', 'in', own.products)
    .where('state', '=', 'active')
    .where('in_stock', '>', 3)
    .where('shop_id', 'in', shopsOf(owner).where('is_active', '=', 1))
    .orderBy('id')
    .executeTakeFirstOrThrow();
}

describe('orders lists (SPEC §2.12)', () => {
  it("lists every order to the admin, with items, buyer, shop, status name and history, each in its own currency", async () => {
    const res = await s.post('/orders', { page: 1, per_page: 100 }, tokens.admin);
    expect(res.body.status).toBe(true);
    const rows = res.body.HLL.data as Record<string, any>[];
    expect(res.body.HLL.total).toBe(await count(s.db.selectFrom('orders')));
    // Each row as the tables hold it: its currency, buyer, shop and the name of its status.
    const held = new Map((await s.db.selectFrom('orders').select(['id', 'currency', 'customer_id', 'shop_id', 'status']).execute()).map((r) => [Number(r.id), r]));
    const names = new Map((await s.db.selectFrom('orderStatuses').select(['id', 'name']).execute()).map((r) => [Number(r.id), r.name]));
    expect(rows.map((r) => [r.id, r.currency, r.customer_id, r.shop_id, r.status])).toEqual(
      rows.map((r) => {
        const row = held.get(r.id)!;
        return [r.id, row.currency, row.customer_id, row.shop_id, { id: Number(row.status), name: names.get(Number(row.status)) }];
      }),
    );
    // The test's own orders are there, in both of their currencies.
    const mine = rows.filter((r) => own.orders.includes(r.id));
    expect(mine.map((r) => r.id).sort((a, b) => a - b)).toEqual(own.orders);
    expect(new Set(mine.map((r) => r.currency))).toEqual(new Set(['USD', 'EUR']));
    const one = rows[0];
    expect(one.status).toEqual({ id: expect.any(Number), name: expect.stringMatching(/^(New Order|Order )/) });
    expect(one.customer).toEqual({ id: one.customer_id, name: expect.any(String) });
    expect(one.shop).toMatchObject({ id: one.shop_id, name: expect.any(String) });
    expect(one.items[0]).toMatchObject({ product_id: expect.any(Number), name: expect.any(String), quantity: expect.any(Number), price: expect.any(Number) });
    expect(one.timeline[0]).toMatchObject({ from_status: null, to_status: 1, user_name: expect.any(String) });
    expect(one.shipping_address).toMatchObject({ street_name: expect.any(String), city: expect.any(String), zip: expect.any(String) });
  });

  it("lists only the seller's own shops' orders on My Orders, and refuses buyers and the anonymous", async () => {
    const mine = await s.post('/orders', { page: 1, per_page: 100, scope: 'own' }, tokens.seller);
    const ids = new Set((await shopsOf(SELLER).execute()).map((r) => Number(r.id)));
    expect(mine.body.HLL.total).toBe(await count(s.db.selectFrom('orders').where('shop_id', 'in', [...ids])));
    expect(mine.body.HLL.data.map((o: { id: number }) => o.id)).toEqual(expect.arrayContaining(own.orders.slice(0, 2)));
    expect(mine.body.HLL.data.map((o: { id: number }) => o.id)).not.toContain(own.othersOrder);
    expect(mine.body.HLL.data.every((o: { shop_id: number }) => ids.has(o.shop_id))).toBe(true);
    expect((await s.post('/orders', { page: 1 })).http).toBe(401);
  });

  it('lists and searches only their own purchases to a buyer, who changes none of them', async () => {
    const list = await s.post('/orders', { page: 1, per_page: 100 }, tokens.buyer);
    const search = await s.post('/search-dive', { keyIndex: 4, value: '', targets: ['id'] }, tokens.buyer);
    const theirs = await s.db.selectFrom('orders').select('id').where('customer_id', '=', BUYER).execute();
    const byId = (a: number, b: number) => a - b;
    expect(list.body.HLL.data.map((o: { id: number }) => o.id).sort(byId)).toEqual(theirs.map((o) => Number(o.id)).sort(byId));
    expect(list.body.HLL.data.map((o: { id: number }) => o.id)).toEqual(expect.arrayContaining(own.orders));
    expect(list.body.HLL.data.every((o: { customer_id: number }) => o.customer_id === BUYER)).toBe(true);
    expect(search.body.HLL).toHaveLength(theirs.length);
    const other = await s.post('/orders', { page: 1, per_page: 100 }, tokens.otherBuyer);
    expect(other.body.HLL.data.map((o: { id: number }) => o.id)).toEqual([own.othersOrder]);
    const mine = own.orders[0];
    expect((await s.post('/order/status', { status: 6, id: mine }, tokens.buyer)).http).toBe(403);
    expect((await s.post('/order', { id: mine, tracking_number: 'X' }, tokens.buyer)).http).toBe(403);
  });

  it("never shows a buyer another buyer's order, by list, global search, id, tracking number, seller scope or REST", async () => {
    const buyer = BUYER;
    const theirs = await s.db.selectFrom('orders').selectAll().where('id', '=', own.othersOrder).executeTakeFirstOrThrow();
    const mine = await s.db.selectFrom('orders').selectAll().where('id', '=', own.orders[0]).executeTakeFirstOrThrow();
    expect(theirs.tracking_number).toMatch(/^MP-/);
    const search = (value: unknown, targets: string[], extra = {}) =>
      s.post('/search-dive', { keyIndex: 4, value, targets, ...extra }, tokens.buyer);
    expect((await search(theirs.tracking_number, ['tracking_number'])).body.HLL).toEqual([]);
    expect((await search(String(theirs.id), ['id'])).body.HLL.map((o: { id: number }) => o.id)).not.toContain(theirs.id);
    expect((await search(String(theirs.id), ['id'], { scope: 'own' })).body.HLL.every((o: { customer_id: number }) => o.customer_id === buyer)).toBe(true);
    // The other side of the limit: the buyer's own order is found by the same searches.
    expect((await search(String(mine.id), ['id'])).body.HLL.map((o: { id: number }) => o.id)).toContain(mine.id);
    const rest = await fetch(`${s.url}/rest/orders?range=[0,99]`, { headers: { Authorization: `Bearer ${tokens.buyer}` } });
    const rows = (await rest.json()) as { id: number; customer_id: number }[];
    expect(rows.map((o) => o.id)).toContain(mine.id);
    expect(rows.every((o) => o.customer_id === buyer)).toBe(true);
    const one = await fetch(`${s.url}/rest/orders/${theirs.id}`, { headers: { Authorization: `Bearer ${tokens.buyer}` } });
    expect(one.status).toBe(404);
    // Read only: the buyer's own order is not theirs to change, by either dialect.
    expect((await s.post('/order/status', { status: 6, id: mine.id }, tokens.buyer)).http).toBe(403);
    const put = await fetch(`${s.url}/rest/orders/${mine.id}`, {
      method: 'PUT', headers: { Authorization: `Bearer ${tokens.buyer}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ tracking_number: 'X' }),
    });
    expect(put.status).toBe(403);
  });

  it('searches with keyIndex 4 over id, created_at and tracking_number, scoped for sellers', async () => {
    const theirs = await orderOf(OTHER);
    const found = await s.post('/search-dive', { keyIndex: 4, value: theirs.tracking_number, targets: ['id', 'created_at', 'tracking_number'] }, tokens.admin);
    expect(found.body.HLL.map((o: { id: number }) => o.id)).toEqual([theirs.id]);
    const hidden = await s.post('/search-dive', { keyIndex: 4, value: theirs.tracking_number, targets: ['tracking_number'], scope: 'own' }, tokens.seller);
    expect(hidden.body.HLL).toEqual([]);
  });
});

describe('order status (SPEC §4.5)', () => {
  it('moves an order with {status, id} (admin) and {state, id} (My Orders), recording who, from, to and when', async () => {
    const order = await orderOf(SELLER);
    const before = (await eventsOf(order.id)).length;
    const target = order.status === 3 ? 4 : 3;
    const admin = await s.post('/order/status', { status: target, id: order.id }, tokens.admin);
    expect(admin.body).toMatchObject({ status: true, query: 'Order status updated successfully', detail: { status: { id: target } } });
    const seller = await s.post('/order/status', { state: 5, id: order.id }, tokens.seller);
    expect(seller.body.detail.status).toEqual({ id: 5, name: 'Order Delivered' });
    const events = await eventsOf(order.id);
    expect(events.slice(before)).toMatchObject([
      { from_status: order.status, to_status: target, user_name: demo.admin.name },
      { from_status: target, to_status: 5, user_name: demo.seller.name },
    ]);
    expect(events[events.length - 1].created_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    // The answer carries the timeline too.
    expect(seller.body.detail.timeline.at(-1)).toMatchObject({ from_status: target, to_status: 5 });
    // The same status again records nothing.
    await s.post('/order/status', { status: 5, id: order.id }, tokens.admin);
    expect((await eventsOf(order.id)).length).toBe(events.length);
  });

  it("refuses a seller anything but the status, and another seller's orders", async () => {
    const order = await orderOf(SELLER);
    const total = await s.post('/order', { id: order.id, total: 1 }, tokens.seller);
    expect(total.http).toBe(403);
    expect(total.body).toMatchObject({ status: false, query: 'A seller can only change the status of an order' });
    const theirs = await orderOf(OTHER);
    const other = await s.post('/order/status', { state: 2, id: theirs.id }, tokens.seller);
    expect(other.http).toBe(403);
    expect((await s.post('/order/status', { status: 2, id: order.id }, tokens.buyer)).http).toBe(403);
    expect((await s.post('/order/status', { status: 2, id: order.id })).http).toBe(401);
    expect((await s.post('/order/status', { status: 2, id: theirs.id }, tokens.adminWithout)).http).toBe(403);
    expect((await s.db.selectFrom('orders').select('total').where('id', '=', order.id).executeTakeFirstOrThrow()).total).toBe(order.total);
  });

  it('refuses unknown codes and changes to what the buyer bought, with a readable message', async () => {
    const order = await orderOf(OTHER);
    const bad = await s.post('/order/status', { status: 9, id: order.id }, tokens.admin);
    expect(bad.http).toBe(400);
    expect(bad.body.query).toBe('status must be one of: 1, 2, 3, 4, 5, 6');
    const text = await s.post('/order/status', { status: "1; drop table orders", id: order.id }, tokens.admin);
    expect(text.http).toBe(400);
    const items = await s.post('/order', { id: order.id, customer_id: 1, items: [] }, tokens.admin);
    expect(items.http).toBe(403);
    expect(items.body.query).toMatch(/cannot be changed/);
    const tracking = await s.post('/order', { id: order.id, tracking_number: 'DHL-123' }, tokens.admin);
    expect(tracking.body).toMatchObject({ status: true, detail: { tracking_number: 'DHL-123' } });
  });

  it('keeps paid_total_fxws, which the dashboard adds up, the amount of paid_total, whatever is sent', async () => {
    const order = await orderOf(OTHER);
    const fxws = async () => Number((await s.db.selectFrom('orders').select('paid_total_fxws').where('id', '=', order.id).executeTakeFirstOrThrow()).paid_total_fxws);
    expect((await s.post('/order', { id: order.id, paid_total: 12.5 }, tokens.admin)).body.detail).toMatchObject({ paid_total: 12.5, paid_total_fxws: 12.5 });
    expect((await s.post('/order', { id: order.id, paid_total_fxws: 999 }, tokens.admin)).body.status).toBe(true);
    expect(await fxws()).toBe(12.5);
    expect((await s.post('/order', { id: order.id, paid_total: 0, paid_total_fxws: 40 }, tokens.admin)).body.detail).toMatchObject({ paid_total: 0, paid_total_fxws: 0 });
  });

  it('keeps the timeline out of reach of the API', async () => {
    for (const path of ['/orderEvents', '/orderEvent', '/orderEvent/status']) {
      expect((await s.post(path, { page: 1, order_id: 1, to_status: 1 }, tokens.admin)).http).toBe(404);
    }
  });
});

describe('checkout: POST /order (SPEC §4.9)', () => {
  it('places an order priced by the server, as New Order for the caller, unpaid, and takes it off the stock', async () => {
    const product = await productOf(OTHER);
    const price = Number(product.sale_price) > 0 ? Number(product.sale_price) : Number(product.price);
    const res = await s.post('/order', {
      shop_id: product.shop_id, items: [{ product_id: product.id, quantity: 2 }], shipping_address: address,
      // Whatever the client says of these is ignored.
      customer_id: 1, status: 5, total: 1, paid_total: 999, payment_gateway: 'paypal', currency: 'ZZZ',
    }, tokens.buyer);
    expect(res.body).toMatchObject({
      status: true,
      query: 'Order created successfully',
      detail: {
        customer_id: BUYER, status: { id: 1, name: 'New Order' }, amount: Math.round(price * 2 * 100) / 100, paid_total: 0,
        currency: product.currency, number_of_items: 2, payment_gateway: 'Unpaid', shipping_address: address,
        items: [{ product_id: product.id, name: product.name, quantity: 2, price }],
        timeline: [{ from_status: null, to_status: 1, user_name: demo.buyer.name }],
      },
    });
    expect(res.body.detail.tracking_number).toMatch(/^MP-[0-9A-F]{10}$/);
    // The buyer pays the items and the delivery the server worked out (tests/integration/delivery.test.ts).
    expect(res.body.detail.delivery_fee).toBeGreaterThan(0);
    expect(res.body.detail.total).toBe(Math.round((price * 2 + res.body.detail.delivery_fee) * 100) / 100);
    const after = await s.db.selectFrom('products').select('in_stock').where('id', '=', product.id).executeTakeFirstOrThrow();
    expect(after.in_stock).toBe(Number(product.in_stock) - 2);
    // The shop's seller sees it on My Orders.
    const theirs = await s.post('/search-dive', { keyIndex: 4, value: String(res.body.detail.id), targets: ['id'], scope: 'own' }, tokens.other);
    expect(theirs.body.HLL).toHaveLength(1);
  });

  it('links the orders of one checkout over several shops to the first, and only to the buyer’s own', async () => {
    const a = await productOf(OTHER);
    const b = await productOf(SELLER);
    const first = await s.post('/order', { shop_id: a.shop_id, items: [{ product_id: a.id, quantity: 1 }], shipping_address: address }, tokens.buyer);
    const second = await s.post('/order', {
      shop_id: b.shop_id, items: [{ product_id: b.id, quantity: 1 }], shipping_address: address, parent_id: first.body.detail.id,
    }, tokens.buyer);
    expect(second.body.detail.parent_id).toBe(first.body.detail.id);
    const stolen = await s.post('/order', {
      shop_id: b.shop_id, items: [{ product_id: b.id, quantity: 1 }], shipping_address: address, parent_id: first.body.detail.id,
    }, tokens.other);
    expect(stolen.http).toBe(400);
  });

  it('refuses bad baskets with a readable message and leaves nothing behind', async () => {
    const product = await productOf(OTHER);
    const draft = await s.db.selectFrom('products').selectAll().where('id', '=', own.draft).executeTakeFirstOrThrow();
    expect(draft.state).toBe('draft');
    const elsewhere = await productOf(SELLER);
    const count = async () => (await s.db.selectFrom('orders').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n;
    const before = await count();
    const cases: [Record<string, unknown>, number, RegExp][] = [
      [{ shop_id: product.shop_id, shipping_address: address }, 400, /items is required/],
      [{ shop_id: product.shop_id, items: [{ product_id: product.id, quantity: 0 }], shipping_address: address }, 400, /quantity must be/],
      [{ shop_id: product.shop_id, items: [{ product_id: product.id, quantity: 1e6 }], shipping_address: address }, 400, /quantity must be/],
      [{ shop_id: product.shop_id, items: [{ product_id: product.id, quantity: 999 }], shipping_address: address }, 400, /left in stock/],
      [{ shop_id: product.shop_id, items: [{ product_id: elsewhere.id, quantity: 1 }], shipping_address: address }, 400, /not sold by this shop/],
      [{ shop_id: draft.shop_id, items: [{ product_id: draft.id, quantity: 1 }], shipping_address: address }, 400, /not for sale|not taking orders/],
      [{ shop_id: product.shop_id, items: [{ product_id: product.id, quantity: 1 }], shipping_address: 'x' }, 400, /shipping address must be/],
      [{ shop_id: product.shop_id, items: 'all of it', shipping_address: address }, 400, /items must list/],
      [{ items: [{ product_id: product.id, quantity: 1 }] }, 400, /shop id is required/],
      [{ shop_id: 999999, items: [{ product_id: product.id, quantity: 1 }], shipping_address: address }, 400, /does not match any shop/],
    ];
    for (const [body, http, query] of cases) {
      const res = await s.post('/order', body, tokens.buyer);
      expect(res.http, JSON.stringify(body)).toBe(http);
      expect(res.body.query).toMatch(query);
    }
    const fromOwnShop = await s.post('/order', { shop_id: product.shop_id, items: [{ product_id: product.id, quantity: 1 }], shipping_address: address }, tokens.other);
    expect(fromOwnShop.http).toBe(403);
    expect(fromOwnShop.body.query).toBe('You cannot order from your own shop');
    const anonymous = await s.post('/order', { shop_id: product.shop_id, items: [{ product_id: product.id, quantity: 1 }], shipping_address: address });
    expect(anonymous.http).toBe(401);
    expect(await count()).toBe(before);
    const stock = await s.db.selectFrom('products').select('in_stock').where('id', '=', product.id).executeTakeFirstOrThrow();
    expect(stock.in_stock).toBe(product.in_stock);
  });
});

describe('the catalogue (an extension)', () => {
  it('lists active products of active shops to any signed-in user, searchable by name; not to the anonymous', async () => {
    const res = await s.post('/catalogue', { page: 1, per_page: 100 }, tokens.buyer);
    const rows = res.body.HLL.data as Record<string, any>[];
    expect(rows.map((p) => p.id)).toEqual(expect.arrayContaining(own.products));
    const inactive = new Set((await s.db.selectFrom('shops').select('id').where('is_active', '=', 0).execute()).map((r) => Number(r.id)));
    expect(rows.every((p) => !inactive.has(p.shop_id))).toBe(true);
    expect(rows[0]).toMatchObject({ currency: { code: expect.any(String) }, shop: { name: expect.any(String) } });
    expect(rows[0]).not.toHaveProperty('bank_name');
    const search = await s.post('/catalogue', { q: rows[0].name }, tokens.buyer);
    expect(search.body.HLL.data.map((p: { name: string }) => p.name)).toContain(rows[0].name);
    expect(rows.every((p) => p.own === false)).toBe(true);
    expect(rows[0].shop).not.toHaveProperty('owner_id');
    // A seller's own products are marked, for the console to offer no 'Add to cart' on them.
    const mine = new Set((await shopsOf(SELLER).execute()).map((r) => Number(r.id)));
    const seen = (await s.post('/catalogue', { page: 1, per_page: 100 }, tokens.seller)).body.HLL.data as Record<string, any>[];
    expect(seen.some((p) => p.own)).toBe(true);
    expect(seen.every((p) => p.own === mine.has(p.shop_id))).toBe(true);
    expect((await s.post('/catalogue', { page: 1 })).http).toBe(401);
    expect((await s.post('/catalogue', { q: { $ne: 1 } }, tokens.buyer)).http).toBe(400);
  });
});

describe('exchange rates (SPEC §7.7) and the visitor location (SPEC §3.22)', () => {
  it('reads /exchangess with no payload as a plain array, and deletes with {tyype: clear, id} for admins only', async () => {
    const res = await fetch(`${s.url}/exchangess`, { method: 'POST' });
    const body = await res.json();
    const held = await s.db.selectFrom('exchanges').select('code').execute();
    expect(body.HLL.map((r: { code: string }) => r.code).sort()).toEqual(held.map((r) => r.code).sort());
    const made = await s.post('/exchanges', { code: 'GHS', country: 'Ghana', currency: 'Cedi', currency_symbol: '₵', value_per_dollar: 15.5 }, tokens.admin);
    expect(made.body).toMatchObject({ status: true, detail: { code: 'GHS', value_per_dollar: 15.5 } });
    for (const token of [undefined, tokens.buyer, tokens.seller, tokens.adminWithout]) {
      const refused = await s.post('/exchanges/status', { tyype: 'clear', id: made.body.detail.id }, token);
      expect([401, 403]).toContain(refused.http);
    }
    const gone = await s.post('/exchanges/status', { tyype: 'clear', id: made.body.detail.id }, tokens.admin);
    expect(gone.body).toMatchObject({ status: true, query: 'Exchange rate deleted successfully' });
    const zero = await s.post('/exchanges', { code: 'ZZZ', country: 'Nowhere', currency: 'Zero', currency_symbol: 'Z', value_per_dollar: 0 }, tokens.admin);
    expect(zero.http).toBe(400);
  });

  it('answers the default location, Liberia with USD, from the offline geolocation stand-in', async () => {
    const res = await s.get('/geo/offline/detect');
    expect(res.http).toBe(200);
    expect(res.body).toMatchObject({ success: true, currency: { code: ['USD', 'LRD'] }, location: { country: { name: 'Liberia', alpha_2: 'LR' } } });
    expect((await s.get('/geo/bad%20key/detect')).http).toBe(400);
  });
});
