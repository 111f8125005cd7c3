/**
 * Stock held by unpaid orders (docs/decisions.md, "Stock held by unpaid orders"), over real HTTP: checkout takes
 * the stock atomically, a buyer holds at most the cap of a product in unpaid orders, an unpaid New
 * Order's hold ends after the hold time (the sweep cancels it, gives the stock back and says why),
 * and cancelling gives the stock back exactly once. Time is the server's injected clock, moved by
 * the tests; nothing waits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo, startServer, type TestServer } from './harness';
import { HOLD_EXPIRED, MAX_STOCK, ORDER_DEFAULTS } from '../../server/hooks/orders';
import { readConfig } from '../../server/config';
import { sweepEntities } from '../../server/maintenance';
import { registry } from '../../server/registry';

let s: TestServer;
const time = Date.parse('2026-03-02T10:00:00.000Z');
let seller: { id: number; token: string };
let admin: string;
let shopId: number;
const HOLD_MS = ORDER_DEFAULTS.holdMinutes * 60_000;
const CAP = ORDER_DEFAULTS.maxPerBuyer;
const address = { street_name: '5 Broad Street', city: 'Monrovia', state: 'Montserrado', country: 'Liberia', zip: '1000' };

beforeAll(async () => {
  s = await startServer({ clock: () => time });
  admin = await s.login(demo.admin.email, demo.admin.password);
  seller = await s.userWith([1, 2]);
  const shop = await s.post('/shop', {
    name: `Stock shop ${seller.id}`, description: 'd', category_id: 1, address: { street_name: 's', zip: 'z', country: 'Nigeria' },
    bank: { bank_name: 'b', bank_country: 'c', account_name: 'n', account_number: '1' },
  }, seller.token);
  expect(shop.body.status).toBe(true);
  shopId = shop.body.detail.id;
});
afterAll(() => s.close());

let made = 0;
/** A fresh active product of the test shop with this much stock. */
async function product(inStock: number): Promise<number> {
  const sub = await s.db.selectFrom('subcategories').select(['id', 'category_id']).orderBy('id').executeTakeFirstOrThrow();
  const res = await s.post('/product', {
    shop_id: shopId, name: `Lamp ${++made}`, description: 'A lamp', currency: 'USD', price: 20, sale_price: 15, in_stock: inStock,
    category_id: sub.category_id, subcategory_id: sub.id, band_name: 'Acme',
  }, seller.token);
  expect(res.body.query).toBe('Product created successfully');
  return res.body.detail.id;
}

const stockOf = async (id: number) =>
  Number((await s.db.selectFrom('products').select('in_stock').where('id', '=', id).executeTakeFirstOrThrow()).in_stock);
const orderRow = (id: number) => s.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const buy = (token: string, productId: number, quantity: number) =>
  s.post('/order', { shop_id: shopId, items: [{ product_id: productId, quantity }], shipping_address: address }, token);
const buyer = async () => (await s.userWith([1])).token;
const sweep = (at: number) => sweepEntities(s.db, registry.entities, at);

describe('checkout takes the stock atomically', () => {
  it('sells the last item to exactly one of several buyers checking out at once', async () => {
    const id = await product(1);
    const buyers = await Promise.all([buyer(), buyer(), buyer(), buyer()]);
    const answers = await Promise.all(buyers.map((token) => buy(token, id, 1)));
    const placed = answers.filter((a) => a.body.status === true);
    expect(placed).toHaveLength(1);
    for (const refused of answers.filter((a) => a.body.status !== true)) {
      expect(refused.http).toBe(400);
      expect(refused.body.query).toMatch(/^Only 0 of Lamp \d+ left in stock$/);
    }
    expect(await stockOf(id)).toBe(0);
    const orders = await s.db.selectFrom('orders').select('id').where('shop_id', '=', shopId).where('items', 'like', `%"product_id":${id},%`).execute();
    expect(orders).toHaveLength(1);
  });
});

describe('a cap per buyer and product', () => {
  it('lets a buyer hold the cap in unpaid orders, not one more, and counts their other unpaid orders', async () => {
    const id = await product(CAP * 3);
    const token = await buyer();
    const over = await buy(token, id, CAP + 1);
    expect(over.http).toBe(400);
    expect(over.body.query).toBe(`You can hold at most ${CAP} of Lamp ${made} in unpaid orders`);
    expect(await stockOf(id)).toBe(CAP * 3);
    const first = await buy(token, id, CAP - 1);
    expect(first.body.status).toBe(true);
    const second = await buy(token, id, 2);
    expect(second.http).toBe(400);
    expect(second.body.query).toBe(`You can hold at most ${CAP} of Lamp ${made} in unpaid orders (your unpaid orders already hold ${CAP - 1})`);
    expect((await buy(token, id, 1)).body.status).toBe(true);
    expect(await stockOf(id)).toBe(CAP * 2);
    // Another buyer has a cap of their own.
    expect((await buy(await buyer(), id, CAP)).body.status).toBe(true);
  });

  it('frees the cap when an order is cancelled or paid', async () => {
    const id = await product(CAP * 3);
    const token = await buyer();
    const a = await buy(token, id, CAP);
    expect(a.body.status).toBe(true);
    expect((await buy(token, id, 1)).http).toBe(400);
    await s.post('/order/status', { state: 6, id: a.body.detail.id }, seller.token);
    const b = await buy(token, id, CAP);
    expect(b.body.status).toBe(true);
    expect((await s.post('/order', { id: b.body.detail.id, paid_total: 1 }, admin)).body.status).toBe(true);
    expect((await buy(token, id, CAP)).body.status).toBe(true);
  });
});

describe('an unpaid order holds its stock for a limited time', () => {
  it('holds it until the hold ends, then the sweep cancels the order, gives the stock back and says why', async () => {
    const id = await product(5);
    const placed = await buy(await buyer(), id, 3);
    const order = placed.body.detail;
    expect(order.hold_until).toBe(new Date(time + HOLD_MS).toISOString());
    expect(await stockOf(id)).toBe(2);

    await sweep(time + HOLD_MS - 1);
    expect((await orderRow(order.id)).status).toBe(1);
    expect(await stockOf(id)).toBe(2);

    // Several processes sweep at once: one releases the order.
    await Promise.all([sweep(time + HOLD_MS), sweep(time + HOLD_MS), sweep(time + HOLD_MS + 1)]);
    expect(await stockOf(id)).toBe(5);
    const row = (await s.post('/search-dive', { keyIndex: 4, value: String(order.id), targets: ['id'] }, admin)).body.HLL[0];
    expect(row).toMatchObject({ status: { id: 6, name: 'Order Cancelled' }, hold_until: null });
    expect(row.timeline.at(-1)).toMatchObject({ from_status: 1, to_status: 6, user_id: null, reason: HOLD_EXPIRED });

    // A later sweep, or a cancellation on top, gives nothing back again.
    await sweep(time + 2 * HOLD_MS);
    await s.post('/order/status', { status: 6, id: order.id }, admin);
    expect(await stockOf(id)).toBe(5);
  });

  it('ends the hold once the seller confirms the order or a payment is recorded', async () => {
    const id = await product(5);
    const confirmed = (await buy(await buyer(), id, 1)).body.detail;
    const paid = (await buy(await buyer(), id, 1)).body.detail;
    const moved = await s.post('/order/status', { state: 2, id: confirmed.id }, seller.token);
    expect(moved.body.detail.hold_until).toBeNull();
    expect((await s.post('/order', { id: paid.id, paid_total: 15 }, admin)).body.detail.hold_until).toBeNull();
    await sweep(time + 2 * HOLD_MS);
    expect((await orderRow(confirmed.id)).status).toBe(2);
    expect((await orderRow(paid.id)).status).toBe(1);
    expect(await stockOf(id)).toBe(3);
    // Back at New Order and still unpaid, the order holds its stock again for the hold time.
    const back = await s.post('/order/status', { state: 1, id: confirmed.id }, seller.token);
    expect(back.body.detail.hold_until).toBe(new Date(time + HOLD_MS).toISOString());
  });

  it('reads the hold time and the cap from the settings', async () => {
    const other = await startServer({ clock: () => time, config: { orderHoldMinutes: 5, orderMaxPerBuyer: 2 } });
    try {
      const p = await other.db.selectFrom('products').selectAll().where('state', '=', 'active').where('in_stock', '>', 3)
        .where('shop_id', 'in', other.db.selectFrom('shops').select('id').where('is_active', '=', 1))
        .orderBy('id').executeTakeFirstOrThrow();
      const token = (await other.userWith([1])).token;
      const order = (q: number) => other.post('/order', { shop_id: p.shop_id, items: [{ product_id: p.id, quantity: q }], shipping_address: address }, token);
      expect((await order(3)).body.query).toBe(`You can hold at most 2 of ${String(p.name)} in unpaid orders`);
      expect((await order(2)).body.detail.hold_until).toBe(new Date(time + 5 * 60_000).toISOString());
    } finally {
      await other.close();
    }
  });
});

describe('cancelling gives the stock back exactly once', () => {
  it('returns it on cancelling, once even when two people cancel at the same time, and takes it again on reopening', async () => {
    const id = await product(4);
    const order = (await buy(await buyer(), id, 3)).body.detail;
    expect(await stockOf(id)).toBe(1);
    const both = await Promise.all([
      s.post('/order/status', { status: 6, id: order.id }, admin),
      s.post('/order/status', { state: 6, id: order.id }, seller.token),
    ]);
    for (const answer of both) expect(answer.body.status).toBe(true);
    expect(await stockOf(id)).toBe(4);
    await s.post('/order/status', { status: 6, id: order.id }, admin);
    expect(await stockOf(id)).toBe(4);

    // Reopened, it takes the stock again; cancelled again, gives it back again.
    expect((await s.post('/order/status', { state: 2, id: order.id }, seller.token)).body.status).toBe(true);
    expect(await stockOf(id)).toBe(1);
    await s.post('/order/status', { state: 6, id: order.id }, seller.token);
    expect(await stockOf(id)).toBe(4);

    // Reopening is refused when the stock has gone meanwhile.
    expect((await buy(await buyer(), id, 2)).body.status).toBe(true);
    const reopen = await s.post('/order/status', { state: 2, id: order.id }, seller.token);
    expect(reopen.http).toBe(400);
    expect(reopen.body.query).toBe(`Only 2 of Lamp ${made} left in stock`);
    expect((await orderRow(order.id)).status).toBe(6);
    expect(await stockOf(id)).toBe(2);
  });
});

describe('giving the stock back', () => {
  it('gives it back up to the most a stock holds, so a cancellation and the sweep go on when the seller has topped the stock up', async () => {
    const id = await product(MAX_STOCK);
    const topUp = async (to: number) => expect((await s.post('/product', { id, in_stock: to }, seller.token)).body.status).toBe(true);
    // Given back to exactly the most.
    const first = (await buy(await buyer(), id, 2)).body.detail;
    expect(await stockOf(id)).toBe(MAX_STOCK - 2);
    expect((await s.post('/order/status', { status: 6, id: first.id }, admin)).body.status).toBe(true);
    expect(await stockOf(id)).toBe(MAX_STOCK);

    // Topped up meanwhile: one more would pass the most, which is where it stops.
    const second = (await buy(await buyer(), id, 2)).body.detail;
    await topUp(MAX_STOCK - 1);
    const cancelled = await s.post('/order/status', { status: 6, id: second.id }, admin);
    expect(cancelled.http).toBe(200);
    expect(await stockOf(id)).toBe(MAX_STOCK);

    // Left to the sweep, beside another order whose hold ends: both are released.
    const third = (await buy(await buyer(), id, 2)).body.detail;
    await topUp(MAX_STOCK);
    const other = await product(5);
    const beside = (await buy(await buyer(), other, 1)).body.detail;
    await sweep(time + HOLD_MS);
    expect([(await orderRow(third.id)).status, (await orderRow(beside.id)).status]).toEqual([6, 6]);
    expect([await stockOf(id), await stockOf(other)]).toEqual([MAX_STOCK, 5]);
  });
});

describe('changes of one order at the same time', () => {
  it('take the stock of a cancelled order once when several reopen it at once, each change reading what the one before wrote', async () => {
    const id = await product(10);
    const order = (await buy(await buyer(), id, 3)).body.detail;
    await s.post('/order/status', { status: 6, id: order.id }, admin);
    expect(await stockOf(id)).toBe(10);
    const answers = await Promise.all([
      s.post('/order/status', { status: 2, id: order.id }, admin),
      s.post('/order/status', { state: 3, id: order.id }, seller.token),
      s.post('/order/status', { status: 4, id: order.id }, admin),
    ]);
    for (const answer of answers) expect(answer.body.status).toBe(true);
    expect(await stockOf(id)).toBe(7);
    const row = await orderRow(order.id);
    expect(row.stock_returned_at).toBeNull();
    // The timeline goes on from each status to the next: no change read a status another had already left.
    const events = await s.db.selectFrom('orderEvents').select(['from_status', 'to_status']).where('order_id', '=', order.id).orderBy('id').execute();
    const moves = events.slice(2);
    expect(moves).toHaveLength(3);
    expect(moves[0].from_status).toBe(6);
    for (let i = 1; i < moves.length; i++) expect(moves[i].from_status).toBe(moves[i - 1].to_status);
    expect(row.status).toBe(moves[2].to_status);
  });

  it('leave the stock as the last status says when a cancellation and a delivery race', async () => {
    const id = await product(10);
    const order = (await buy(await buyer(), id, 1)).body.detail;
    const answers = await Promise.all([
      s.post('/order/status', { status: 6, id: order.id }, admin),
      s.post('/order/status', { state: 5, id: order.id }, seller.token),
    ]);
    for (const answer of answers) expect(answer.body.status).toBe(true);
    const row = await orderRow(order.id);
    if (Number(row.status) === 6) {
      expect(row.stock_returned_at).not.toBeNull();
      expect(await stockOf(id)).toBe(10);
    } else {
      expect(row.stock_returned_at).toBeNull();
      expect(await stockOf(id)).toBe(9);
    }
  });
});

describe('the settings (ORDER_HOLD_MINUTES, ORDER_MAX_PER_BUYER)', () => {
  it('takes whole numbers in range and leaves anything else to the defaults', () => {
    const hold = (text?: string) => readConfig(text === undefined ? {} : { ORDER_HOLD_MINUTES: text }).orderHoldMinutes;
    const cap = (text?: string) => readConfig(text === undefined ? {} : { ORDER_MAX_PER_BUYER: text }).orderMaxPerBuyer;
    expect([hold(), hold('1'), hold('15'), hold(String(60 * 24 * 30)), hold(String(60 * 24 * 30 + 1)), hold('0'), hold('2.5'), hold('soon'), hold('')])
      .toEqual([undefined, 1, 15, 60 * 24 * 30, undefined, undefined, undefined, undefined, undefined]);
    expect([cap(), cap('1'), cap('1000'), cap('1001'), cap('0'), cap('-3')]).toEqual([undefined, 1, 1000, undefined, undefined, undefined]);
  });
});
