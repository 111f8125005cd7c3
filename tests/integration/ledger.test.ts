/**
 * The marketplace's money over real HTTP (issue 28): an order paid at a 10% category rate posts 10%
 * commission; delivered with PAYOUT_HOLD_DAYS=0 its earnings become available; refunding one line
 * lowers the seller's balance and the commission in proportion; a payout moves the rest to paid and
 * the month's statement lists every step and closes at zero. Who may read and move money.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEDGER_CALLS, PAYOUTS_TOKEN, SELLER_ACCOUNTS, minorText, type Balance, type Paginated, type Posting } from '../../contract';
import { MAX_ORDER_MINOR } from '../../server/hooks/orders';
import { hooks } from '../../server/hooks/payouts';
import { ADMIN, demo, shopBody, startServer, type TestServer } from './harness';

let s: TestServer;
let admin: string;
let buyer: string;
let seller: { id: number; token: string; email: string };
let otherSeller: { id: number; token: string };
let partial: string;
let category: number;
let shop: number;
let products: number[];
const SELLER = [1, 2];
const clockAt = Date.parse('2026-03-10T12:00:00Z');
/** The server's time: March 10th, but for the monthly fee's tests, which move it on. */
let now = clockAt;

const address = { street_name: '5 Broad Street', city: 'Monrovia', state: 'Montserrado', country: 'Liberia', zip: '1000' };

beforeAll(async () => {
  s = await startServer({ config: { payoutHoldDays: 0 }, clock: () => now });
  admin = await s.login(demo.admin.email, demo.admin.password);
  buyer = await s.login(demo.buyer.email, demo.buyer.password);
  seller = await s.userWith(SELLER);
  otherSeller = await s.userWith(SELLER);
  partial = (await s.userWith(ADMIN, ['orders', 'shops'])).token;
  const made = await s.db
    .insertInto('categories')
    .values({ name: `Ledger ${Date.now()}`, commission_currency: 'USD', commission_flat_rate: 10, commission_monthly: 0, is_active: 1 })
    .returning('id')
    .executeTakeFirstOrThrow();
  category = Number(made.id);
  // The story below prices goods only: no shipping class on offer, so no delivery fee (its own test is last).
  await shipping(0);
  const created = await s.post('/shop', { ...shopBody('Ledger Shop'), category_id: category }, seller.token);
  expect(created.body.status).toBe(true);
  shop = Number(created.body.detail.id);
  products = [];
  for (const [name, price] of [['Lamp', 40], ['Rug', 60]] as const) {
    const p = await s.db
      .insertInto('products')
      .values({ name, price, sale_price: 0, currency: 'USD', in_stock: 50, state: 'active', shop_id: shop, category_id: category, subcategory_id: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    products.push(Number(p.id));
  }
});
afterAll(() => s.close());

/** Turns every shipping class on or off. */
const shipping = (on: 0 | 1) => s.db.updateTable('shippings').set({ is_active: on }).execute();

const balanceOf = async (token: string, shopId = shop) => {
  const res = await s.post<unknown, Balance[]>('/balances', { shop_id: shopId }, token);
  expect(res.body.status).toBe(true);
  return res.body.HLL!.find((b) => b.currency === 'USD');
};
/** The refusal of moving a paid order out of 'Order Cancelled', its payment refunded. */
const staysCancelled = (orderId: number) => `Order ${orderId} was cancelled after it was paid and its payment refunded: it stays cancelled; place a new order`;
const postingsOf = async (orderId: number) =>
  (await s.post<unknown, { data: Posting[] }>('/ledger', { page: 1, per_page: 100, order_id: orderId }, admin)).body.HLL!.data;

async function placeAndPay(lines: { product_id: number; quantity: number }[], beforePaying?: () => Promise<unknown>) {
  const placed = await s.post('/order', { shop_id: shop, items: lines, shipping_address: address }, buyer);
  expect(placed.body.status).toBe(true);
  const order = placed.body.detail;
  await beforePaying?.();
  const paid = await s.post('/order', { id: order.id, paid_total: order.total, payment_gateway: 'Bank transfer' }, admin);
  expect(paid.body.status).toBe(true);
  return order as { id: number; total: number; items: { commission_rate: number }[] };
}

describe('the money of one order, from payment to statement', () => {
  it('posts 10% commission, releases on delivery, refunds a line in proportion, pays out the rest, and the statement closes at zero', async () => {
    // 2 lamps (80.00) and 1 rug (60.00): 140.00, 14.00 of it the marketplace's.
    // The rate is the one of the sale: raised to 50% between the checkout and the payment, it does not apply.
    const rate = (percent: number) => s.db.updateTable('categories').set({ commission_flat_rate: percent }).where('id', '=', category).execute();
    const order = await placeAndPay([{ product_id: products[0], quantity: 2 }, { product_id: products[1], quantity: 1 }], () => rate(50));
    expect(order.items.map((i) => i.commission_rate)).toEqual([10, 10]);
    const sale = await postingsOf(order.id);
    expect(sale.map((p) => [p.account, p.amount]).sort()).toEqual([['buyer_payments', -14000], ['commission', 1400], ['pending', 12600]]);
    expect(await balanceOf(seller.token)).toMatchObject({ shop_id: shop, pending: 12600, available: 0, paid: 0, debt: 0 });

    // Paying twice posts once.
    await s.post('/order', { id: order.id, paid_total: order.total }, admin);
    expect(await postingsOf(order.id)).toHaveLength(3);
    await rate(10);

    expect((await s.post('/order/status', { id: order.id, status: 5 }, admin)).body.status).toBe(true);
    expect(await balanceOf(seller.token)).toMatchObject({ pending: 0, available: 12600 });

    // One lamp back: 40.00, of which 4.00 commission and 36.00 the seller's.
    const refunded = await s.post('/refund', { order_id: order.id, lines: [{ product_id: products[0], quantity: 1 }], reason: 'Broken in transit' }, admin);
    expect(refunded.body).toMatchObject({ status: true, detail: { id: expect.any(Number), amount: 4000 } });
    expect(await balanceOf(seller.token)).toMatchObject({ available: 9000 });
    // The buyer is told, through the outbox, in the refund's transaction.
    expect((await s.mails(demo.buyer.email)).at(-1)).toMatchObject({ subject: expect.stringMatching(/^A refund on your order /), body: expect.stringContaining('refunded USD 40.00') });
    const commission = (await postingsOf(order.id)).filter((p) => p.account === 'commission').map((p) => p.amount);
    expect(commission.sort((a, b) => a - b)).toEqual([-400, 1400]);

    const payout = await s.post('/payout', { shop_id: shop, currency: 'USD' }, admin);
    expect(payout.body).toMatchObject({ status: true, detail: { id: expect.any(Number), amount: 9000 } });
    expect(await balanceOf(seller.token)).toMatchObject({ pending: 0, available: 0, paid: 9000, debt: 0 });
    expect((await s.mails(seller.email)).at(-1)).toMatchObject({ subject: 'A payout of USD 90.00 to Ledger Shop' });
    const settled = await s.post('/payout/status', { id: payout.body.detail.id, state: 'paid', reference: 'TRX-1' }, admin);
    expect(settled.body).toMatchObject({ status: true, detail: { state: 'paid', reference: 'TRX-1' } });
    expect((await s.post('/payout/status', { id: payout.body.detail.id, state: 'failed' }, admin)).http).toBe(409);
    const listed = await s.send('GET', '/rest/payouts', undefined, admin);
    expect(listed.body.find((p: { id: number }) => p.id === payout.body.detail.id)).toMatchObject({ state: 'paid', amount: 9000, method: 'bank' });

    const csv = await fetch(`${s.url}/statement?shop_id=${shop}&month=2026-03`, { headers: { Authorization: `Bearer ${seller.token}` } });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const rows = (await csv.text()).trim().split('\r\n').map((line) => line.split(','));
    expect(rows.map((r) => [r[1], r[6], r[7]])).toEqual([
      ['type', 'amount', 'balance'],
      ['opening balance', '', '0.00'],
      ['sale', '140.00', '140.00'],
      ['commission', '-14.00', '126.00'],
      ['refund', '-40.00', '86.00'],
      ['commission', '4.00', '90.00'],
      ['payout', '-90.00', '0.00'],
      ['closing balance', '', '0.00'],
    ]);
  });

  it('a failed payout returns the money to available; a second payout of nothing is refused', async () => {
    const order = await placeAndPay([{ product_id: products[1], quantity: 1 }]);
    await s.post('/order/status', { id: order.id, status: 5 }, admin);
    const before = (await balanceOf(admin))!;
    const payout = await s.post('/payout', { shop_id: shop, currency: 'USD' }, admin);
    expect(payout.body.detail.amount).toBe(before.available);
    const again = await s.post('/payout', { shop_id: shop, currency: 'USD' }, admin);
    expect(again.http).toBe(400);
    expect(again.body).toMatchObject({ status: false, query: expect.stringContaining('nothing available to pay out') });
    // The bank-transfer batch lists the chosen payouts still pending, with the shop's details as they were.
    const batch = (ids: unknown) =>
      fetch(`${s.url}/payouts/batch`, { method: 'POST', headers: { Authorization: `Bearer ${admin}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ ids }) });
    const csv = await batch([payout.body.detail.id]);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const [header, line, ...rest] = (await csv.text()).trim().split('\r\n').map((l) => l.split(','));
    expect(rest).toEqual([]);
    expect(Object.fromEntries(header.map((h, k) => [h, line[k]]))).toMatchObject({
      payout_id: String(payout.body.detail.id), shop_name: 'Ledger Shop', method: 'bank', account_number: '1', currency: 'USD', amount: (before.available / 100).toFixed(2),
    });
    await s.post('/payout/status', { id: payout.body.detail.id, state: 'failed', reference: 'Account closed' }, admin);
    expect(await (await batch([payout.body.detail.id])).json()).toMatchObject({ status: false, query: 'None of these payouts is waiting to be paid' });
    expect(await balanceOf(admin)).toMatchObject({ available: before.available, paid: before.paid });
  });

  it('pays out a balance past 2^31 minor units whole (a 30,000,000.00 sale), on both databases', async () => {
    const made = await s.db
      .insertInto('products')
      .values({ name: 'Estate', price: 30_000_000, sale_price: 0, currency: 'USD', in_stock: 1, state: 'active', shop_id: shop, category_id: category, subcategory_id: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const order = await placeAndPay([{ product_id: Number(made.id), quantity: 1 }]);
    await s.post('/order/status', { id: order.id, status: 5 }, admin);
    const before = (await balanceOf(admin))!;
    expect(before.available).toBeGreaterThan(2 ** 31);
    const payout = await s.post('/payout', { shop_id: shop, currency: 'USD' }, admin);
    expect(payout.http).toBe(200);
    expect(payout.body.detail.amount).toBe(before.available);
    const listed = await s.post<unknown, { data: { id: number; amount: number }[] }>('/payouts', { page: 1 }, admin);
    expect(listed.body.HLL!.data.find((p) => Number(p.id) === Number(payout.body.detail.id))?.amount).toBe(before.available);
    await s.post('/payout/status', { id: payout.body.detail.id, state: 'paid', reference: 'Big one' }, admin);
    expect(await balanceOf(admin)).toMatchObject({ available: 0, paid: before.paid + before.available });
  });

  it('takes and pays an order of the most an order may total, and refuses one a cent over it (a sale it could never post), in the quote too', async () => {
    const most = MAX_ORDER_MINOR / 100;
    const productAt = async (price: number) => Number((await s.db
      .insertInto('products')
      .values({ name: `Tower ${price}`, price, sale_price: 0, currency: 'USD', in_stock: 5, state: 'active', shop_id: shop, category_id: category, subcategory_id: 1 })
      .returning('id')
      .executeTakeFirstOrThrow()).id);
    const order = await placeAndPay([{ product_id: await productAt(most), quantity: 1 }]);
    expect(order.total).toBe(most);
    expect((await postingsOf(order.id)).find((p) => p.account === 'buyer_payments')?.amount).toBe(-MAX_ORDER_MINOR);

    const over = await productAt(most + 0.01);
    const refusal = `An order can total at most ${minorText(MAX_ORDER_MINOR)} USD`;
    const placed = await s.post('/order', { shop_id: shop, items: [{ product_id: over, quantity: 1 }], shipping_address: address }, buyer);
    expect(placed).toMatchObject({ http: 400, body: { status: false, query: refusal } });
    const quoted = await s.post('/order/quote', { shipping_address: address, orders: [{ shop_id: shop, items: [{ product_id: over, quantity: 1 }] }] }, buyer);
    expect(quoted).toMatchObject({ http: 400, body: { query: refusal } });
    const fits = await s.post('/order/quote', { shipping_address: address, orders: [{ shop_id: shop, items: [{ product_id: await productAt(most / 2), quantity: 2 }] }] }, buyer);
    expect(fits.body.HLL.quotes[0].total).toBe(most);
  });

  it('earnings of an undelivered order stay pending; cancelling a paid order refunds it, they never become available, and it stays cancelled', async () => {
    const before = (await balanceOf(admin))!;
    const order = await placeAndPay([{ product_id: products[0], quantity: 1 }]);
    expect(await balanceOf(admin)).toMatchObject({ pending: before.pending + 3600, available: before.available });
    await s.post('/order/status', { id: order.id, status: 6 }, admin);
    expect(await balanceOf(admin)).toMatchObject({ pending: before.pending, available: before.available });
    const delivered = await s.post('/order/status', { id: order.id, status: 5 }, admin);
    expect(delivered).toMatchObject({ http: 400, body: { status: false, query: staysCancelled(order.id) } });
    expect(await balanceOf(admin)).toMatchObject({ pending: before.pending, available: before.available });
    const refund = await s.post('/refund', { order_id: order.id, reason: 'again' }, admin);
    expect(refund.http).toBe(409);
  });

  it('never refunds more than was paid, nor an unpaid order; refunds of a released order may leave a debt the next payout nets', async () => {
    const order = await placeAndPay([{ product_id: products[0], quantity: 1 }]);
    const tooMany = await s.post('/refund', { order_id: order.id, lines: [{ product_id: products[0], quantity: 2 }], reason: 'x' }, admin);
    expect(tooMany.body).toMatchObject({ status: false, query: `Only 1 of product ${products[0]} can still be refunded on order ${order.id}` });
    const exact = await s.post('/refund', { order_id: order.id, lines: [{ product_id: products[0], quantity: 1 }], reason: 'x' }, admin);
    expect(exact.body.status).toBe(true);
    const unpaid = (await s.post('/order', { shop_id: shop, items: [{ product_id: products[0], quantity: 1 }], shipping_address: address }, buyer)).body.detail;
    expect((await s.post('/refund', { order_id: unpaid.id, reason: 'x' }, admin)).body.query).toBe(`Order ${unpaid.id} is not paid: there is nothing to refund`);

    // Delivered (released at once), paid out, then refunded: the shop owes what it was paid.
    const later = await placeAndPay([{ product_id: products[1], quantity: 1 }]);
    await s.post('/order/status', { id: later.id, status: 5 }, admin);
    await s.post('/payout', { shop_id: shop, currency: 'USD' }, admin);
    await s.post('/refund', { order_id: later.id, reason: 'Returned' }, admin);
    expect(await balanceOf(admin)).toMatchObject({ available: 0, debt: 5400 });
    const nothing = await s.post('/payout', { shop_id: shop, currency: 'USD' }, admin);
    expect(nothing.body).toMatchObject({ status: false, query: 'Ledger Shop owes 54.00 USD: there is nothing to pay out' });
  });
});

describe('a recorded payment', () => {
  let own: number;
  let item: number;
  beforeAll(async () => {
    const made = await s.post('/shop', { ...shopBody('Payment Shop'), category_id: category }, (await s.userWith(SELLER)).token);
    expect(made.body.status).toBe(true);
    own = Number(made.body.detail.id);
    item = Number((await s.db
      .insertInto('products')
      .values({ name: 'Vase', price: 25, sale_price: 0, currency: 'USD', in_stock: 50, state: 'active', shop_id: own, category_id: category, subcategory_id: 1 })
      .returning('id')
      .executeTakeFirstOrThrow()).id);
  });
  const place = async (): Promise<{ id: number; total: number }> => {
    const placed = await s.post('/order', { shop_id: own, items: [{ product_id: item, quantity: 1 }], shipping_address: address }, buyer);
    expect(placed.body.status).toBe(true);
    return placed.body.detail;
  };
  const pay = (id: number, paid: number | null) => s.post('/order', { id, paid_total: paid }, admin);
  const row = (id: number) => s.db.selectFrom('orders').select(['status', 'paid_total', 'paid_total_fxws', 'hold_until']).where('id', '=', id).executeTakeFirstOrThrow();
  const pending = async () => (await balanceOf(admin, own))?.pending ?? 0;
  const undone = (id: number, paid: number) => `A recorded payment is undone by a refund: the paid total of order ${id} cannot go below ${paid.toFixed(2)} USD`;

  it('is not lowered by a save once the sale is posted, on the contract call and the REST face; saved as it is or raised, it is taken; a refund undoes it', async () => {
    const order = await place();
    expect((await pay(order.id, order.total)).body.status).toBe(true);
    const sold = await pending();
    expect(sold).toBe(2250);
    for (const lower of [0, order.total - 0.01, null]) {
      const refused = await pay(order.id, lower);
      expect(refused.http).toBe(400);
      expect(refused.body).toMatchObject({ status: false, query: undone(order.id, order.total) });
    }
    const rest = await s.send('PUT', `/rest/orders/${order.id}`, { paid_total: 0 }, admin);
    expect(rest.http).toBe(400);
    expect(rest.body.query).toBe(undone(order.id, order.total));
    // Nothing moved: still paid, no hold for the sweep to end, the sale still the seller's.
    expect(await row(order.id)).toMatchObject({ status: 1, paid_total: order.total, paid_total_fxws: order.total, hold_until: null });
    expect(await pending()).toBe(sold);

    expect((await pay(order.id, order.total)).body.status).toBe(true);
    expect((await pay(order.id, order.total + 5)).body.status).toBe(true);
    expect((await pay(order.id, order.total)).body.query).toBe(undone(order.id, order.total + 5));
    expect(await row(order.id)).toMatchObject({ paid_total: order.total + 5, paid_total_fxws: order.total + 5 });

    // The refund is how a payment is undone: it posts the reversal, and the record stays as it was paid.
    expect((await s.post('/refund', { order_id: order.id, reason: 'Paid by mistake' }, admin)).body.status).toBe(true);
    expect(await pending()).toBe(sold - 2250);
    expect((await pay(order.id, 0)).http).toBe(400);
  });

  it('of an order not yet paid in full is set freely, lowered too; once the rest is recorded, it is not lowered any more', async () => {
    const order = await place();
    const sold = await pending();
    for (const paid of [10, 3, 0, 10]) {
      expect((await pay(order.id, paid)).body.status).toBe(true);
      expect(await row(order.id)).toMatchObject({ paid_total: paid, paid_total_fxws: paid });
    }
    expect(await pending()).toBe(sold);
    expect((await pay(order.id, order.total)).body.status).toBe(true);
    expect(await pending()).toBe(sold + 2250);
    expect((await pay(order.id, 10)).body.query).toBe(undone(order.id, order.total));
  });
});

describe('a cancelled order', () => {
  let own: number;
  let owner: string;
  let item: number;
  beforeAll(async () => {
    owner = (await s.userWith(SELLER)).token;
    const made = await s.post('/shop', { ...shopBody('Cancel Shop'), category_id: category }, owner);
    expect(made.body.status).toBe(true);
    own = Number(made.body.detail.id);
    item = Number((await s.db
      .insertInto('products')
      .values({ name: 'Kettle', price: 25, sale_price: 0, currency: 'USD', in_stock: 50, state: 'active', shop_id: own, category_id: category, subcategory_id: 1 })
      .returning('id')
      .executeTakeFirstOrThrow()).id);
  });
  const place = async (): Promise<{ id: number; total: number }> => {
    const placed = await s.post('/order', { shop_id: own, items: [{ product_id: item, quantity: 1 }], shipping_address: address }, buyer);
    expect(placed.body.status).toBe(true);
    return placed.body.detail;
  };
  const pay = async (id: number, paid: number) => expect((await s.post('/order', { id, paid_total: paid }, admin)).body.status).toBe(true);
  const cancel = async (id: number) => expect((await s.post('/order/status', { id, status: 6 }, admin)).body.status).toBe(true);
  const stock = async () => Number((await s.db.selectFrom('products').select('in_stock').where('id', '=', item).executeTakeFirstOrThrow()).in_stock);
  const row = (id: number) => s.db.selectFrom('orders').select(['status', 'paid_total', 'stock_returned_at']).where('id', '=', id).executeTakeFirstOrThrow();
  const events = async (id: number) => (await s.db.selectFrom('orderEvents').select('id').where('order_id', '=', id).execute()).length;
  /** Every call that moves an order to another status: the status call and the save, an admin's and the seller's, and the REST face. */
  const moves = (id: number): [string, () => Promise<{ http: number; body: { status?: boolean; query?: string } }>][] => [
    ["an admin's status call", () => s.post('/order/status', { id, status: 2 }, admin)],
    ["the seller's status call (My Orders' state)", () => s.post('/order/status', { id, state: 3 }, owner)],
    ["an admin's save", () => s.post('/order', { id, status: 5 }, admin)],
    ["the seller's save", () => s.post('/order', { id, status: 1 }, owner)],
    ['the REST face', () => s.send('PUT', `/rest/orders/${id}`, { status: 4 }, admin)],
  ];

  it('once paid and cancelled (its payment refunded), stays cancelled whichever call moves it; saved as cancelled, it is taken', async () => {
    const refundedFirst = await place();
    await pay(refundedFirst.id, refundedFirst.total);
    expect((await s.post('/refund', { order_id: refundedFirst.id, reason: 'Changed their mind' }, admin)).body.status).toBe(true);
    for (const order of [await place(), refundedFirst]) {
      if (order !== refundedFirst) await pay(order.id, order.total);
      await cancel(order.id);
      const stocked = await stock();
      const told = await events(order.id);
      const pending = (await balanceOf(admin, own))?.pending;
      for (const [call, move] of moves(order.id)) {
        const refused = await move();
        expect(refused.http, call).toBe(400);
        expect(refused.body, call).toMatchObject({ status: false, query: staysCancelled(order.id) });
      }
      // Nothing moved: still cancelled with its stock on sale, no line in its timeline, the money where the refund put it.
      expect(await row(order.id)).toMatchObject({ status: 6, paid_total: order.total, stock_returned_at: expect.any(String) });
      expect(await stock()).toBe(stocked);
      expect(await events(order.id)).toBe(told);
      expect((await balanceOf(admin, own))?.pending).toBe(pending);
      expect((await s.post('/order/status', { id: order.id, status: 6 }, owner)).body.status).toBe(true);
      expect((await s.post('/order', { id: order.id, status: 6 }, admin)).body.status).toBe(true);
    }
  });

  it('not paid in full when cancelled, is reopened by every call, taking its stock again', async () => {
    for (const paid of [0, 10]) {
      const order = await place();
      if (paid) await pay(order.id, paid);
      for (const [call, move] of moves(order.id)) {
        await cancel(order.id);
        const stocked = await stock();
        const reopened = await move();
        expect(reopened.http, call).toBe(200);
        expect(Number((await row(order.id)).status), call).not.toBe(6);
        expect(await stock(), call).toBe(stocked - 1);
      }
      expect((await row(order.id)).paid_total).toBe(paid);
    }
  });
});

describe('currency codes and cents', () => {
  it("books a product priced in 'usd' in USD with the shop's other dollars, and charges a price of more than two decimals to the cent", async () => {
    const owner = await s.userWith(SELLER);
    const made = await s.post('/shop', { ...shopBody('Cent Shop'), category_id: category }, owner.token);
    expect(made.body.status).toBe(true);
    const centShop = Number(made.body.detail.id);
    const product = async (name: string, price: number, currency: string) =>
      Number((await s.db
        .insertInto('products')
        .values({ name, price, sale_price: 0, currency, in_stock: 50, state: 'active', shop_id: centShop, category_id: category, subcategory_id: 1 })
        .returning('id')
        .executeTakeFirstOrThrow()).id);
    const candle = await product('Candle', 0.125, 'usd');
    const match = await product('Match box', 2, 'USD');
    const payAndDeliver = async (productId: number, quantity: number) => {
      const placed = await s.post('/order', { shop_id: centShop, items: [{ product_id: productId, quantity }], shipping_address: address }, buyer);
      expect(placed.body.status).toBe(true);
      const order = placed.body.detail as { id: number; total: number; currency: string };
      expect((await s.post('/order', { id: order.id, paid_total: order.total }, admin)).body.status).toBe(true);
      expect((await s.post('/order/status', { id: order.id, status: 5 }, admin)).body.status).toBe(true);
      return order;
    };
    // Ten candles at 0.125 are charged 0.13 each: 1.30, as the ledger counts it (not 1.25).
    const candles = await payAndDeliver(candle, 10);
    expect(candles).toMatchObject({ currency: 'USD', total: 1.3 });
    expect((await postingsOf(candles.id)).find((p) => p.account === 'buyer_payments')?.amount).toBe(-130);
    await payAndDeliver(match, 1);
    // One balance: 117 (130 less 10%) and 180 (200 less 10%), both in USD.
    const balances = async () => (await s.post<unknown, Balance[]>('/balances', { shop_id: centShop }, admin)).body.HLL!;
    expect(await balances()).toEqual([expect.objectContaining({ currency: 'USD', pending: 0, available: 297, paid: 0, debt: 0 })]);
    // Every candle can be refunded, for what it was charged.
    const refunded = await s.post('/refund', { order_id: candles.id, lines: [{ product_id: candle, quantity: 10 }], reason: 'Melted' }, admin);
    expect(refunded.body).toMatchObject({ status: true, detail: { amount: 130 } });
    // A payout asked for in 'usd' pays the USD balance.
    const payout = await s.post('/payout', { shop_id: centShop, currency: 'usd' }, admin);
    expect(payout.body).toMatchObject({ status: true, query: 'Payout of 1.80 USD created', detail: { amount: 180 } });
    expect(await balances()).toEqual([expect.objectContaining({ currency: 'USD', available: 0, paid: 180, debt: 0 })]);
  });
});

describe('the audit log', () => {
  const logOf = (entity: string, id: number) =>
    s.db.selectFrom('auditLogs').selectAll().where('entity', '=', entity).where('record_id', '=', id).orderBy('id').execute()
      .then((rows) => rows.map((r) => ({ action: r.action, user_id: r.user_id, before: r.before == null ? null : JSON.parse(String(r.before)), after: r.after == null ? null : JSON.parse(String(r.after)) })));

  it('records who refunded and paid out what, how much, in which currency, for which shop and order; and who settled a payout', async () => {
    const order = await placeAndPay([{ product_id: products[0], quantity: 2 }, { product_id: products[1], quantity: 1 }]);
    await s.post('/order/status', { id: order.id, status: 5 }, admin);
    const adminId = Number((await s.db.selectFrom('users').select('id').where('email', '=', demo.admin.email).executeTakeFirstOrThrow()).id);
    const refunded = await s.post('/refund', { order_id: order.id, lines: [{ product_id: products[0], quantity: 1 }], reason: 'Scratched' }, admin);
    expect(await logOf('refunds', refunded.body.detail.id)).toEqual([{
      action: 'refund', user_id: adminId, before: null,
      after: { order_id: order.id, shop_id: shop, amount: 4000, currency: 'USD', reason: 'Scratched', lines: [{ product_id: products[0], quantity: 1 }] },
    }]);
    const available = (await balanceOf(admin))!.available;
    const payout = await s.post('/payout', { shop_id: shop, currency: 'usd' }, admin);
    const amount = payout.body.detail.amount;
    // What the shop had available, all of it.
    expect(available).toBeGreaterThan(0);
    expect(amount).toBe(available);
    await s.post('/payout/status', { id: payout.body.detail.id, state: 'failed', reference: 'Account closed' }, admin);
    expect(await logOf('payouts', payout.body.detail.id)).toEqual([
      { action: 'payout', user_id: adminId, before: null, after: { shop_id: shop, amount, currency: 'USD', method: 'bank' } },
      { action: 'status', user_id: adminId, before: { state: 'pending', reference: null }, after: { state: 'failed', reference: 'Account closed' } },
    ]);
  });

  it('writes nothing for a refused payout, refund or settlement', async () => {
    const count = async () => Number((await s.db.selectFrom('auditLogs').select((eb) => eb.fn.countAll<number>().as('n')).where('entity', 'in', ['payouts', 'refunds']).executeTakeFirstOrThrow()).n);
    const before = await count();
    const unpaid = (await s.post('/order', { shop_id: shop, items: [{ product_id: products[0], quantity: 1 }], shipping_address: address }, buyer)).body.detail;
    expect((await s.post('/refund', { order_id: unpaid.id, reason: 'x' }, admin)).http).toBe(400);
    expect((await s.post('/payout', { shop_id: shop, currency: 'JPY' }, admin)).http).toBe(400);
    expect((await s.post('/payout/status', { id: 999999, state: 'paid' }, admin)).http).toBe(404);
    expect((await s.post('/payout', { shop_id: shop, currency: 'USD' }, partial)).http).toBe(403);
    expect(await count()).toBe(before);
  });
});

describe('the monthly fee', () => {
  const feeCategory = async (fee: number, currency: string) =>
    Number((await s.db.insertInto('categories').values({ name: `Fee ${fee} ${Date.now()}`, commission_currency: currency, commission_flat_rate: 0, commission_monthly: fee, is_active: 1 })
      .returning('id').executeTakeFirstOrThrow()).id);
  const feesOf = (shopId: number) =>
    s.db.selectFrom('ledger_entries').select(['event_key', 'currency']).where('shop_id', '=', shopId).where('kind', '=', 'monthly_fee').orderBy('id').execute();
  const sweep = (when: string) => hooks.sweep!({ db: s.db, at: Date.parse(when), report: (error) => { throw error; } });
  /** Moves the server's time on; sessions opened before have ended by then, so the admin and the shop's owner sign in again. */
  const moveTo = async (when: string, owner: { email: string }) => {
    now = Date.parse(when);
    admin = await s.login(demo.admin.email, demo.admin.password);
    return s.login(owner.email, 'password123');
  };
  afterAll(async () => {
    now = clockAt;
    admin = await s.login(demo.admin.email, demo.admin.password);
  });

  it("charges each active shop of a category with a fee once a month, in the category's currency, as a debt when nothing is available; a shop pays the month it joins or is switched on in, with that save", async () => {
    const category = await feeCategory(12.5, 'EUR');
    const owner = await s.userWith(SELLER);
    const feeShop = Number((await s.post('/shop', { ...shopBody('Fee Shop'), category_id: category }, owner.token)).body.detail.id);
    expect(await feesOf(feeShop)).toEqual([{ event_key: `fee:${feeShop}:2026-03`, currency: 'EUR' }]);
    expect((await s.post('/shop/status', { id: feeShop, is_active: 0 }, admin)).body.status).toBe(true);
    await sweep('2026-04-01T00:00:30Z');
    expect(await feesOf(feeShop)).toHaveLength(1);
    const token = await moveTo('2026-04-20T09:00:00Z', owner);
    expect((await s.post('/shop/status', { id: feeShop, is_active: 1 }, admin)).body.status).toBe(true);
    expect((await feesOf(feeShop)).map((f) => f.event_key)).toEqual([`fee:${feeShop}:2026-03`, `fee:${feeShop}:2026-04`]);
    // Saved again the same month, switched off and on again: the month is paid once.
    expect((await s.post('/shop', { ...shopBody('Fee Shop'), id: feeShop, category_id: category }, token)).body.status).toBe(true);
    expect((await s.post('/shop/status', { id: feeShop, is_active: 0 }, admin)).body.status).toBe(true);
    expect((await s.post('/shop/status', { id: feeShop, is_active: 1 }, admin)).body.status).toBe(true);
    await sweep('2026-04-30T23:59:00Z');
    expect(await feesOf(feeShop)).toHaveLength(2);
    await sweep('2026-05-01T00:00:30Z');
    expect((await feesOf(feeShop)).map((f) => f.event_key)).toEqual(['2026-03', '2026-04', '2026-05'].map((month) => `fee:${feeShop}:${month}`));
    const balance = (await s.post<unknown, Paginated<Balance>>('/balances', {}, token)).body.HLL!.data;
    expect(balance).toEqual([{ shop_id: feeShop, shop_name: 'Fee Shop', currency: 'EUR', pending: 0, available: 0, paid: 0, debt: 3750 }]);
  });

  it("a category's fee rising from nothing has its shops pay the month; a shop moved into a category with a fee pays with the move", async () => {
    const seller = await s.userWith(SELLER);
    const owner = { ...seller, token: await moveTo('2026-06-02T10:00:00Z', seller) };
    const category = await feeCategory(0, 'USD');
    const shopId = Number((await s.post('/shop', { ...shopBody('Free Shop'), category_id: category }, owner.token)).body.detail.id);
    const other = await feeCategory(0, 'USD');
    const mover = Number((await s.post('/shop', { ...shopBody('Moving Shop'), category_id: other }, owner.token)).body.detail.id);
    await sweep('2026-06-02T10:01:00Z');
    expect(await feesOf(shopId)).toEqual([]);
    const save = (fee: number) =>
      s.post('/category', { id: category, name: `Was free ${category}`, commission_currency: 'USD', commission_flat_rate: 0, commission_monthly: fee }, admin);
    expect((await save(3)).body.status).toBe(true);
    await sweep('2026-06-02T10:02:00Z');
    expect(await feesOf(shopId)).toEqual([{ event_key: `fee:${shopId}:2026-06`, currency: 'USD' }]);
    // A fee that changes but was already above nothing leaves the month's pass done.
    expect((await save(4)).body.status).toBe(true);
    expect((await s.db.selectFrom('fee_passes').select('done_at').where('month', '=', '2026-06').executeTakeFirstOrThrow()).done_at).not.toBeNull();
    expect(await feesOf(mover)).toEqual([]);
    expect((await s.post('/shop', { ...shopBody('Moving Shop'), id: mover, category_id: category }, owner.token)).body.status).toBe(true);
    expect(await feesOf(mover)).toEqual([{ event_key: `fee:${mover}:2026-06`, currency: 'USD' }]);
    expect((await s.post('/shop', { ...shopBody('Moving Shop'), id: mover, category_id: await feeCategory(9, 'GBP') }, owner.token)).body.status).toBe(true);
    expect(await feesOf(mover)).toEqual([{ event_key: `fee:${mover}:2026-06`, currency: 'USD' }]);
  });
});

describe('who may read and move the money', () => {
  it('a seller reads only their own balances, ledger and statements', async () => {
    expect((await s.post('/balances', {}, seller.token)).body.HLL.data.map((b: Balance) => b.shop_id)).toEqual([shop]);
    expect((await s.post('/balances', {}, otherSeller.token)).body.HLL).toMatchObject({ data: [], total: 0 });
    expect((await s.post('/balances', { shop_id: shop }, otherSeller.token)).http).toBe(403);
    expect((await s.post('/ledger', { page: 1 }, otherSeller.token)).body.HLL.total).toBe(0);
    expect((await s.post('/ledger', { page: 1, shop_id: shop }, otherSeller.token)).http).toBe(403);
    const mine = (await s.post('/ledger', { page: 1, per_page: 100 }, seller.token)).body.HLL.data as Posting[];
    expect(mine.length).toBeGreaterThan(0);
    expect(new Set(mine.map((p) => p.shop_id))).toEqual(new Set([shop]));
    // Their own money and the commission taken on it; the marketplace's accounts (buyers' payments, refunds) are not theirs.
    expect(new Set(mine.map((p) => p.account))).toEqual(new Set(SELLER_ACCOUNTS));
    const everything = (await s.post('/ledger', { page: 1, per_page: 100, shop_id: shop }, admin)).body.HLL.data as Posting[];
    expect(everything.map((p) => p.account)).toEqual(expect.arrayContaining(['buyer_payments', 'refunds']));
    expect(everything.filter((p) => SELLER_ACCOUNTS.includes(p.account)).map((p) => p.id)).toEqual(mine.map((p) => p.id));
    const [firstOrder] = mine.filter((p) => p.order_id !== null).map((p) => p.order_id!);
    const ofOrder = (await s.post('/ledger', { page: 1, per_page: 100, order_id: firstOrder }, seller.token)).body.HLL.data as Posting[];
    expect(ofOrder.length).toBeGreaterThan(0);
    expect(ofOrder.filter((p) => !SELLER_ACCOUNTS.includes(p.account))).toEqual([]);
    expect((await s.post('/ledger', { page: 1, order_id: firstOrder }, otherSeller.token)).body.HLL.total).toBe(0);
    const statement = await fetch(`${s.url}/statement?shop_id=${shop}&month=2026-03`, { headers: { Authorization: `Bearer ${otherSeller.token}` } });
    expect(statement.status).toBe(403);
  });

  it("an admin reads every shop's balances page by page, at most 100 a page; one shop's as its rows", async () => {
    const all = await s.post<unknown, Paginated<Balance>>('/balances', { page: 1, per_page: 100 }, admin);
    expect(all.http).toBe(200);
    const { total, data } = all.body.HLL!;
    expect(data.length).toBe(Math.min(total, 100));
    expect(total).toBeGreaterThanOrEqual(2);
    // Pages follow one order: the second row alone is the second row of two.
    const two = (await s.post<unknown, Paginated<Balance>>('/balances', { page: 1, per_page: 2 }, admin)).body.HLL!;
    const second = (await s.post<unknown, Paginated<Balance>>('/balances', { page: 2, per_page: 1 }, admin)).body.HLL!;
    expect(two).toMatchObject({ total, per_page: 2, current_page: 1, from: 1, to: 2, last_page: Math.ceil(total / 2) });
    expect(second).toMatchObject({ total, from: 2, to: 2, last_page: total, data: [two.data[1]] });
    // Without per_page, the API's usual page size; past the last page, no rows.
    expect((await s.post<unknown, Paginated<Balance>>('/balances', {}, admin)).body.HLL!.per_page).toBe(15);
    expect((await s.post<unknown, Paginated<Balance>>('/balances', { page: total + 1, per_page: 1 }, admin)).body.HLL).toMatchObject({ data: [], from: null, to: null });
    for (const bad of [{ per_page: 101 }, { per_page: 0 }, { page: 0 }, { page: 'x' }]) {
      expect((await s.post('/balances', bad, admin)).body, JSON.stringify(bad)).toMatchObject({ status: false, query: expect.stringMatching(/^(page|per_page) must be a whole number from 1/) });
    }
    // {shop_id} answers that shop's rows, one per currency, as before.
    const one = await s.post<unknown, Balance[]>('/balances', { shop_id: shop }, admin);
    expect(one.body.HLL!.map((b) => [b.shop_id, b.currency])).toEqual([[shop, 'USD']]);
  });

  it('refuses every ledger call to anonymous callers, buyers and admins without the access, before reading the body', async () => {
    for (const call of LEDGER_CALLS) {
      const path = call.path;
      const ask = (token: string | null) =>
        call.method === 'GET'
          ? fetch(`${s.url}${path}?shop_id=${shop}&month=bad`, { headers: token ? { Authorization: `Bearer ${token}` } : {} }).then((r) => r.status)
          : s.post(path, { malformed: [[[]]] , id: 'x' }, token).then((r) => r.http);
      expect(await ask(null), `${path} anonymous`).toBe(401);
      expect(await ask(buyer), `${path} buyer`).toBe(403);
      // An admin without the call's access: 'payouts' (the partial admin holds orders and shops).
      const needs = call.access ?? (call.roles.includes('seller') ? PAYOUTS_TOKEN : undefined);
      if (needs === PAYOUTS_TOKEN) expect(await ask(partial), `${path} partial admin`).toBe(403);
      if (call.roles.every((r) => r === 'admin')) expect(await ask(seller.token), `${path} seller`).toBe(403);
    }
    // The REST face of payouts: the same access.
    expect((await s.send('GET', '/rest/payouts', undefined, null)).http).toBe(401);
    for (const token of [buyer, seller.token, partial]) expect((await s.send('GET', '/rest/payouts', undefined, token)).http).toBe(403);
    expect((await s.send('PUT', '/rest/payouts/1', { state: 'paid' }, partial)).http).toBe(403);
    const noOrders = (await s.userWith(ADMIN, [PAYOUTS_TOKEN])).token;
    expect((await s.post('/refund', { order_id: 'x' }, noOrders)).http).toBe(403);
  });

  it('bad input is answered in the envelope', async () => {
    expect((await s.post('/payout', { shop_id: shop }, admin)).body).toMatchObject({ status: false, query: 'currency is required' });
    expect((await s.post('/payout/status', { id: 1, state: 'lost' }, admin)).body).toMatchObject({ status: false, query: "state must be 'paid' or 'failed'" });
    expect((await s.post('/refund', { order_id: 1, lines: 'all', reason: 'x' }, admin)).body).toMatchObject({ status: false });
    const month = await fetch(`${s.url}/statement?shop_id=${shop}&month=2026-13`, { headers: { Authorization: `Bearer ${admin}` } });
    expect(month.status).toBe(400);
    expect(await month.json()).toMatchObject({ status: false, query: 'month must be YYYY-MM' });
    const unknown = await fetch(`${s.url}/statement?shop_id=999999&month=2026-03`, { headers: { Authorization: `Bearer ${admin}` } });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ status: false, query: 'Shop 999999 does not exist' });
  });
});

describe('the delivery fee', () => {
  it("is the seller's: posted to their pending balance whole, with no commission on it", async () => {
    await shipping(1);
    try {
      const order = await placeAndPay([{ product_id: products[0], quantity: 1 }]);
      const fee = Math.round(Number((await s.db.selectFrom('orders').select('delivery_fee').where('id', '=', order.id).executeTakeFirstOrThrow()).delivery_fee) * 100);
      expect(fee).toBeGreaterThan(0);
      // One lamp, 40.00: 4.00 commission; the seller is owed 36.00 and the whole fee.
      const sale = await postingsOf(order.id);
      expect(sale.map((p) => [p.account, p.amount]).sort()).toEqual([['buyer_payments', -(4000 + fee)], ['commission', 400], ['pending', 3600 + fee]]);
    } finally {
      await shipping(0);
    }
  });
});
