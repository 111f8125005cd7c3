/**
 * Delivery fees at checkout (docs/decisions.md, "Delivery fees"): each shop's part of a cart is charged
 * the chosen shipping class's amount plus the destination country's per-mile price times the miles
 * from the shop (a custom distance first, else the straight line between the directory's
 * coordinates), in the order's currency. The quote before paying and the placed order agree; a
 * client-sent fee is ignored; changing a setting changes the next quote. While a class is on offer a
 * cart needs a delivery address (no fee can be skipped by leaving it out); only with none on offer is
 * an order placed without delivery.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convert, type Rate } from '../../contract';
import { KM_PER_MILE } from '../../server/hooks/orders/delivery';
import { ADDRESS_REQUIRED, NO_DELIVERY } from '../../server/hooks/orders';
import { demo, startServer, type TestServer } from './harness';

let s: TestServer;
let admin: string;
let buyer: string;
let accraShop: number;
let lagosShop: number;
let cedi: number;
let pound: number;
let express: { id: number; amount: number; means: string; duration: string };
let mileId: number;
const ghana = `Ghana`;
const destination = { street_name: '1 Prempeh Street', city: 'Kumasi', state: 'Ashanti', country: ghana, zip: '00233' };
const CUSTOM_KM = 250;

async function shopIn(city: string, state: string, country: string) {
  const seller = await s.userWith([1, 2]);
  const shop = await s.post('/shop', {
    name: `Delivery shop ${seller.id}`, description: 'd', category_id: 1, address: { street_name: '2 Road', zip: 'z', city, state, country },
    bank: { bank_name: 'b', bank_country: 'c', account_name: 'n', account_number: '1' },
  }, seller.token);
  expect(shop.body.status).toBe(true);
  return { shop: Number(shop.body.detail.id), token: seller.token };
}

async function productOf(shop: { shop: number; token: string }, currency: string, price: number) {
  const sub = await s.db.selectFrom('subcategories').select(['id', 'category_id']).orderBy('id').executeTakeFirstOrThrow();
  const res = await s.post('/product', {
    shop_id: shop.shop, name: `Parcel ${shop.shop}`, description: 'A parcel', currency, price: price + 1, sale_price: price, in_stock: 50,
    category_id: sub.category_id, subcategory_id: sub.id, band_name: 'Acme',
  }, shop.token);
  expect(res.body.query).toBe('Product created successfully');
  return Number(res.body.detail.id);
}

const rates = async () => (await s.db.selectFrom('exchanges').select(['code', 'value_per_dollar']).execute()) as Rate[];
const perMileOf = async () => Number((await s.db.selectFrom('miles').select('value_per_mile').where('id', '=', mileId).executeTakeFirstOrThrow()).value_per_mile);
const cents = (x: number) => Math.round(x * 100) / 100;
const cart = () => [
  { shop_id: accraShop, items: [{ product_id: cedi, quantity: 2 }] },
  { shop_id: lagosShop, items: [{ product_id: pound, quantity: 1 }] },
];
const quote = (body: Record<string, unknown>, token: string | null = buyer) => s.post('/order/quote', body, token);

beforeAll(async () => {
  s = await startServer();
  admin = await s.login(demo.admin.email, demo.admin.password);
  buyer = await s.login(demo.buyer.email, demo.buyer.password);
  const accra = await shopIn('Accra', 'Greater Accra', ghana);
  const lagos = await shopIn('Lagos', 'Lagos', 'Nigeria');
  accraShop = accra.shop;
  lagosShop = lagos.shop;
  cedi = await productOf(accra, 'USD', 30);
  pound = await productOf(lagos, 'GBP', 12);
  // The settings this test reads: its own per-mile price, custom distance and shipping class.
  const mile = await s.post('/mile', { country: ghana, currency: 'USD', value_per_mile: 0.4 }, admin);
  expect(mile.body.status).toBe(true);
  mileId = Number(mile.body.detail.id);
  const distance = await s.post('/distance', { location_A: `${ghana},Ashanti,Kumasi`, location_B: `${ghana},Greater Accra,Accra`, distance_km: CUSTOM_KM }, admin);
  expect(distance.body.status).toBe(true);
  const stamp = new Date().toISOString();
  const row = await s.db.insertInto('shippings').values({
    means: 'Air', duration: 'Next day', amount: 61.5, currency: 'USD', note: 'test', is_active: 1, created_at: stamp, updated_at: stamp,
  }).returning('id').executeTakeFirstOrThrow();
  express = { id: Number(row.id), amount: 61.5, means: 'Air', duration: 'Next day' };
});
afterAll(() => s.close());

describe('a cart from two shops', () => {
  it('is quoted one delivery fee per shop, from the shipping settings, each in its order’s currency', async () => {
    const res = await quote({ shipping_id: express.id, shipping_address: destination, orders: cart() });
    expect(res.body.status).toBe(true);
    const [accra, lagos] = res.body.HLL.quotes;
    const perMile = await perMileOf();
    // Accra → Kumasi: the custom distance, not the straight line.
    const customMiles = Math.round((CUSTOM_KM / KM_PER_MILE) * 10) / 10;
    expect(accra).toMatchObject({
      shop_id: accraShop, currency: 'USD', amount: 60, delivery_fee: cents(express.amount + perMile * customMiles),
      logistics: `Air, Next day, ${customMiles} miles`,
    });
    expect(accra.total).toBe(cents(60 + accra.delivery_fee));
    // Lagos → Kumasi: no custom distance, so the straight line (about 345 miles), charged in pounds.
    const miles = Number(/, ([\d.]+) miles$/.exec(lagos.logistics)![1]);
    expect(miles).toBeGreaterThan(330);
    expect(miles).toBeLessThan(360);
    const usd = cents(express.amount + perMile * miles);
    expect(lagos).toMatchObject({ shop_id: lagosShop, currency: 'GBP', amount: 12, delivery_fee: convert(usd, 'USD', 'GBP', await rates()) });
    expect(lagos.total).toBe(cents(12 + lagos.delivery_fee));
    expect(res.body.HLL.classes.map((c: { id: number }) => c.id)).toContain(express.id);
  });

  it('places two orders that keep the quoted fees, whatever fee the client sends', async () => {
    const { body } = await quote({ shipping_id: express.id, shipping_address: destination, orders: cart() });
    const placed: { id: number; [key: string]: unknown }[] = [];
    for (const [k, part] of cart().entries()) {
      const res = await s.post('/order', {
        ...part, shipping_address: destination, shipping_id: express.id, delivery_fee: 0, logistics: 'Free', total: 1,
        ...(k ? { parent_id: placed[0].id } : {}),
      }, buyer);
      expect(res.body.status).toBe(true);
      placed.push(res.body.detail);
    }
    for (const [k, order] of placed.entries()) {
      const q = body.HLL.quotes[k];
      expect(order).toMatchObject({ currency: q.currency, amount: q.amount, delivery_fee: q.delivery_fee, total: q.total, logistics: q.logistics });
      const row = await s.db.selectFrom('orders').select(['delivery_fee', 'total', 'logistics']).where('id', '=', order.id).executeTakeFirstOrThrow();
      expect({ ...row, delivery_fee: Number(row.delivery_fee), total: Number(row.total) }).toEqual({ delivery_fee: q.delivery_fee, total: q.total, logistics: q.logistics });
    }
    expect(placed[0].delivery_fee).toBeGreaterThan(0);
  });

  it('changing the per-mile price changes the next quote', async () => {
    const before = (await quote({ shipping_id: express.id, shipping_address: destination, orders: cart() })).body.HLL.quotes[0];
    const old = await perMileOf();
    const saved = await s.post('/mile', { id: mileId, value_per_mile: old + 1 }, admin);
    expect(saved.body.status).toBe(true);
    const after = (await quote({ shipping_id: express.id, shipping_address: destination, orders: cart() })).body.HLL.quotes[0];
    const miles = Number(/, ([\d.]+) miles$/.exec(after.logistics)![1]);
    expect(after.delivery_fee).toBe(cents(before.delivery_fee + miles));
    await s.post('/mile', { id: mileId, value_per_mile: old }, admin);
  });
});

describe('the shipping class', () => {
  it('is the one chosen, else the cheapest on offer; an unknown or inactive one is refused', async () => {
    const classes = await s.db.selectFrom('shippings').select(['id', 'amount', 'means']).where('is_active', '=', 1).orderBy('amount').orderBy('id').execute();
    const cheapest = classes[0];
    const chosen = (await quote({ shipping_address: destination, orders: cart().slice(0, 1) })).body.HLL;
    expect(chosen.shipping_id).toBe(Number(cheapest.id));
    expect(chosen.quotes[0].logistics.startsWith(`${String(cheapest.means)},`)).toBe(true);
    const stamp = new Date().toISOString();
    const off = await s.db.insertInto('shippings').values({
      means: 'Boat', duration: 'Slow', amount: 1, currency: 'USD', is_active: 0, created_at: stamp, updated_at: stamp,
    }).returning('id').executeTakeFirstOrThrow();
    for (const id of [Number(off.id), 999999]) {
      const res = await quote({ shipping_id: id, shipping_address: destination, orders: cart() });
      expect(res.http).toBe(400);
      expect(res.body).toEqual(expect.objectContaining({ status: false, query: `shipping id ${id} does not match any shipping class on offer` }));
      const order = await s.post('/order', { ...cart()[0], shipping_address: destination, shipping_id: id }, buyer);
      expect(order.http).toBe(400);
    }
  });
});

describe('where delivery cannot be priced', () => {
  it('refuses a country without a per-mile price, before paying and at checkout', async () => {
    const elsewhere = { ...destination, city: 'Nairobi', state: 'Nairobi', country: 'Kenya' };
    const message = 'Delivery to Kenya is not available yet: no per-mile price is set for it';
    const res = await quote({ shipping_id: express.id, shipping_address: elsewhere, orders: cart() });
    expect(res.http).toBe(400);
    expect(res.body.query).toBe(message);
    const order = await s.post('/order', { ...cart()[0], shipping_address: elsewhere, shipping_id: express.id }, buyer);
    expect(order.body).toMatchObject({ status: false, query: message });
  });

  it('refuses a country the directory does not know, even with a per-mile price', async () => {
    await s.post('/mile', { country: 'Atlantis', currency: 'USD', value_per_mile: 1 }, admin);
    const res = await quote({ shipping_id: express.id, shipping_address: { ...destination, city: '', state: '', country: 'Atlantis' }, orders: cart() });
    expect(res.http).toBe(400);
    expect(res.body.query).toBe("Atlantis is not in the location directory: check the delivery address's country");
  });
});

describe('a cart without a delivery address', () => {
  const stockOf = async (id: number) => Number((await s.db.selectFrom('products').select('in_stock').where('id', '=', id).executeTakeFirstOrThrow()).in_stock);
  const orderCount = async () => Number((await s.db.selectFrom('orders').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  it('is refused while a shipping class is on offer, before paying and at checkout, and nothing is placed', async () => {
    const [part] = cart();
    const before = { orders: await orderCount(), stock: await stockOf(cedi) };
    for (const body of [{ orders: [part] }, { orders: [part], shipping_address: null }, { shipping_id: express.id, orders: [part] }]) {
      const res = await quote(body);
      expect(res.http, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ status: false, query: ADDRESS_REQUIRED });
    }
    for (const body of [{ ...part }, { ...part, shipping_address: null }, { ...part, shipping_id: express.id }]) {
      const res = await s.post('/order', body, buyer);
      expect(res.http, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ status: false, query: ADDRESS_REQUIRED });
    }
    // Nothing placed, no stock taken: leaving the address out skips neither the fee nor the rule that
    // a country without a per-mile price is not delivered to.
    expect(await orderCount()).toBe(before.orders);
    expect(await stockOf(cedi)).toBe(before.stock);
    // With the address, the same cart is priced with its delivery fee.
    const placed = await s.post('/order', { ...part, shipping_address: destination }, buyer);
    expect(placed.body.status).toBe(true);
    expect(placed.body.detail.delivery_fee).toBeGreaterThan(0);
    expect(placed.body.detail.logistics).not.toBe(NO_DELIVERY);
    expect(placed.body.detail.total).toBe(cents(placed.body.detail.amount + placed.body.detail.delivery_fee));
  });

  it('is placed without delivery (no fee, left to the seller) only when no class is on offer', async () => {
    const on = (await s.db.selectFrom('shippings').select('id').where('is_active', '=', 1).execute()).map((r) => Number(r.id));
    expect(on.length).toBeGreaterThan(0);
    await s.db.updateTable('shippings').set({ is_active: 0 }).execute();
    try {
      const [part] = cart();
      const quoted = await quote({ orders: [part] });
      expect(quoted.body.status).toBe(true);
      expect(quoted.body.HLL).toMatchObject({ classes: [], shipping_id: null });
      expect(quoted.body.HLL.quotes[0]).toMatchObject({ shop_id: accraShop, amount: 60, delivery_fee: 0, total: 60, logistics: NO_DELIVERY });
      const placed = await s.post('/order', { ...part }, buyer);
      expect(placed.body).toMatchObject({
        status: true, detail: { amount: 60, delivery_fee: 0, total: 60, logistics: NO_DELIVERY, shipping_address: null },
      });
      // An address changes nothing then: delivery is the seller's to arrange.
      const addressed = await s.post('/order', { ...part, shipping_address: destination }, buyer);
      expect(addressed.body).toMatchObject({ status: true, detail: { delivery_fee: 0, total: 60, logistics: NO_DELIVERY } });
    } finally {
      await s.db.updateTable('shippings').set({ is_active: 1 }).where('id', 'in', on).execute();
    }
  });
});

describe('the quote call', () => {
  it('lists the classes on offer without a cart; needs a country with one', async () => {
    const empty = await quote({});
    expect(empty.body.status).toBe(true);
    expect(empty.body.HLL.quotes).toEqual([]);
    const noCountry = await quote({ shipping_address: { ...destination, country: '' }, orders: cart() });
    expect(noCountry.body).toMatchObject({ status: false, query: 'shipping address needs a country' });
  });

  it('takes at most 20 shops', async () => {
    const part = cart()[0];
    expect((await quote({ shipping_address: destination, orders: Array(20).fill(part) })).body.status).toBe(true);
    const over = await quote({ shipping_address: destination, orders: Array(21).fill(part) });
    expect(over.http).toBe(400);
    expect(over.body.query).toBe('orders must list at most 20 parts of a cart, each {shop_id, items}');
  });

  it('is for signed-in users only, whatever the body', async () => {
    expect((await quote({ shipping_address: destination, orders: cart() }, null)).http).toBe(401);
    expect((await quote('not json' as never, null)).http).toBe(401);
  });
});
