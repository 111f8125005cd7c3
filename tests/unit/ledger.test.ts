/**
 * The ledger's rules, alone (issue 28; mutation-tested, issue 30): an entry's checks, posting once
 * with its maintained totals, balances and their pages, what a paid order earns (rates frozen or
 * taken at payment, the delivery fee the seller's), the hold and its release, refunds in proportion,
 * payouts and their settlement, monthly fees. On a real SQLite in memory; orders are the rows the
 * order hooks hand to followOrder.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { migrate, openDatabase, type DB, type Database, type Row } from '../../server/db';
import { ApiError } from '../../server/errors';
import { balanceOf, balancePage, checkEntry, post, postAll, shopBalances, type EntryInput } from '../../server/ledger/core';
import {
  CANCELLED_REASON, commissionRates, deliveryFeeOf, earningFor, followOrder, isPaid, refund, release, releaseDue,
} from '../../server/ledger/earnings';
import { chargeMonthlyFees, chargeShopFee, createPayout, monthOf, restartFeePass, settlePayout } from '../../server/ledger/payouts';
import { commissionReport, ledgerPage, monthRange, statementCsv } from '../../server/ledger/reading';
import { SELLER_ACCOUNTS } from '../../contract';

/** A new SQLite database in memory, migrated. */
async function migrated(): Promise<Database> {
  const opened = openDatabase({});
  await migrate(opened);
  return opened;
}

let database: Database;
let db: DB;
beforeAll(async () => {
  database = await migrated();
  db = database.db;
});
afterAll(() => database.close());

const DAY = 24 * 3600_000;
const T = Date.parse('2026-03-10T12:00:00.000Z');
const at = (ms = T) => new Date(ms).toISOString();

let serial = 0;
async function category(over: Row = {}): Promise<number> {
  serial++;
  const made = await db.insertInto('categories').values({ name: `Cat ${serial}`, commission_currency: 'USD', commission_flat_rate: 10, commission_monthly: 0, is_active: 1, ...over })
    .returning('id').executeTakeFirstOrThrow();
  return Number(made.id);
}
async function shop(over: Row = {}): Promise<number> {
  serial++;
  const made = await db.insertInto('shops').values({ name: `Shop ${serial}`, is_active: 1, account_number: '12345678', account_name: 'Me', bank_name: 'Bank', ...over })
    .returning('id').executeTakeFirstOrThrow();
  return Number(made.id);
}
async function product(categoryId: number, shopId: number): Promise<number> {
  serial++;
  const made = await db.insertInto('products').values({ name: `Thing ${serial}`, price: 10, currency: 'USD', shop_id: shopId, category_id: categoryId })
    .returning('id').executeTakeFirstOrThrow();
  return Number(made.id);
}
let orderSerial = 100_000;
/** An order row as the order hooks hand it over: lines {product_id, quantity, price, commission_rate?}. */
const order = (shopId: number, items: Row[], over: Row = {}): Row => {
  const goods = items.reduce((sum, it) => sum + Number(it.price) * Number(it.quantity), 0);
  const total = goods + Number(over.delivery_fee ?? 0);
  return { id: ++orderSerial, shop_id: shopId, currency: 'USD', status: 1, total, paid_total: total, items: JSON.stringify(items), ...over };
};
const postingsOf = (orderId: number) =>
  db.selectFrom('ledger_postings').select(['account', 'amount', 'kind', 'shop_id']).where('order_id', '=', orderId).orderBy('id').execute()
    .then((rows) => rows.map((r) => [r.kind, r.account, Number(r.amount)]));
const kept = (account: string, shopId: number, currency = 'USD') => balanceOf(db, account as never, shopId, currency);
const marketplace = (account: string, currency = 'USD') => balanceOf(db, account as never, 0, currency);
const follow = (row: Row, before?: Row, when = T, holdDays?: number) =>
  db.transaction().execute((trx) => followOrder(trx, row, before, when, holdDays === undefined ? {} : { holdDays }, 7));

async function failure(work: () => Promise<unknown>) {
  try {
    await work();
  } catch (error) {
    if (error instanceof ApiError) return { status: error.statusCode, message: error.message };
    return { message: (error as Error).message };
  }
  return 'passed';
}

const entry = (postings: EntryInput['postings'], over: Partial<EntryInput> = {}): EntryInput => ({
  key: `test:${++serial}`, kind: 'sale', currency: 'USD', shopId: 1, at: at(), postings, ...over,
});

describe('an entry', () => {
  it('keeps its lines that move money: whole minor units, one currency, a shop for a shop account, summing to zero', () => {
    const lines = checkEntry(entry([{ account: 'pending', shopId: 1, amount: 5 }, { account: 'commission', shopId: null, amount: -5 }, { account: 'paid', shopId: 1, amount: 0 }]));
    expect(lines).toEqual([{ account: 'pending', shopId: 1, amount: 5 }, { account: 'commission', shopId: null, amount: -5 }]);
    expect(checkEntry(entry([{ account: 'pending', shopId: 1, amount: 0 }]))).toEqual([]);
    expect(() => checkEntry(entry([], { currency: '' }))).toThrow(/has no currency$/);
    expect(() => checkEntry(entry([{ account: 'pending', shopId: 1, amount: 1.5 }, { account: 'commission', shopId: null, amount: -1.5 }]))).toThrow('1.5 is not a whole number of minor units');
    expect(() => checkEntry(entry([{ account: 'pending', shopId: 1, amount: 2 ** 53 }, { account: 'commission', shopId: null, amount: -(2 ** 53) }]))).toThrow(/not a whole number/);
    for (const holder of [null, 0, -1]) {
      for (const account of ['pending', 'available', 'paid'] as const) {
        expect(() => checkEntry(entry([{ account, shopId: holder, amount: 1 }, { account: 'commission', shopId: 1, amount: -1 }]))).toThrow(`${account} needs a shop`);
      }
    }
    for (const account of ['buyer_payments', 'commission', 'refunds'] as const) {
      expect(checkEntry(entry([{ account, shopId: null, amount: 1 }, { account: 'pending', shopId: 2, amount: -1 }]))).toHaveLength(2);
    }
    expect(() => checkEntry(entry([{ account: 'pending', shopId: 1, amount: 3 }, { account: 'commission', shopId: null, amount: -2 }], { key: 'odd' }))).toThrow('Entry odd does not balance (1)');
    expect(() => checkEntry(entry([{ account: 'pending', shopId: 1, amount: 3 }]))).toThrow(/does not balance \(3\)/);
  });

  it('posts once per event key, with its postings and the totals it moves; nothing when nothing moves', async () => {
    const s = await shop();
    const key = `once:${s}`;
    const e = entry([
      { account: 'buyer_payments', shopId: s, amount: -1000 }, { account: 'pending', shopId: s, amount: 900 }, { account: 'commission', shopId: s, amount: 100 },
    ], { key, shopId: s, orderId: 55, memo: 'm', by: 3 });
    const id = await post(db, e);
    expect(id).toEqual(expect.any(Number));
    expect(await post(db, e)).toBeNull();
    const made = await db.selectFrom('ledger_entries').selectAll().where('event_key', '=', key).execute();
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ id, kind: 'sale', shop_id: s, order_id: 55, currency: 'USD', memo: 'm', created_by: 3, created_at: at() });
    const postings = await db.selectFrom('ledger_postings').selectAll().where('entry_id', '=', id).orderBy('id').execute();
    expect(postings.map((p) => [p.account, p.shop_id, p.order_id, p.currency, Number(p.amount), p.kind, p.created_at])).toEqual([
      ['buyer_payments', s, 55, 'USD', -1000, 'sale', at()], ['pending', s, 55, 'USD', 900, 'sale', at()], ['commission', s, 55, 'USD', 100, 'sale', at()],
    ]);
    expect(await kept('pending', s)).toBe(900);
    // The marketplace's accounts are kept under shop 0, never under the shop.
    expect(await kept('commission', s)).toBe(0);
    expect(await kept('buyer_payments', s)).toBe(0);
    const before = await marketplace('commission');
    await post(db, entry([{ account: 'pending', shopId: s, amount: 50 }, { account: 'commission', shopId: s, amount: -50 }], { shopId: s }));
    expect(await kept('pending', s)).toBe(950);
    expect(await marketplace('commission')).toBe(before - 50);
    // An entry of no amounts posts nothing.
    const empty = `empty:${s}`;
    expect(await post(db, entry([{ account: 'pending', shopId: s, amount: 0 }], { key: empty }))).toBeNull();
    expect(await db.selectFrom('ledger_entries').select('id').where('event_key', '=', empty).execute()).toEqual([]);
    // Entries without an order or a memo store nulls.
    const bare = await post(db, entry([{ account: 'pending', shopId: s, amount: 1 }, { account: 'available', shopId: s, amount: -1 }]));
    expect(await db.selectFrom('ledger_entries').select(['order_id', 'memo', 'created_by']).where('id', '=', bare).executeTakeFirst()).toEqual({ order_id: null, memo: null, created_by: null });
    expect(await db.selectFrom('ledger_postings').select('order_id').where('entry_id', '=', bare).execute()).toEqual([{ order_id: null }, { order_id: null }]);
  });

  it("adds lines of one account and holder before touching its total; a total that does not move is not written", async () => {
    const s = await shop();
    await post(db, entry([
      { account: 'pending', shopId: s, amount: 30 }, { account: 'pending', shopId: s, amount: 20 }, { account: 'available', shopId: s, amount: -50 },
    ], { shopId: s }));
    expect(await kept('pending', s)).toBe(50);
    expect(await kept('available', s)).toBe(-50);
    await post(db, entry([
      { account: 'paid', shopId: s, amount: 7 }, { account: 'paid', shopId: s, amount: -7 },
    ], { shopId: s }));
    expect(await db.selectFrom('ledger_balances').select('account').where('shop_id', '=', s).where('account', '=', 'paid').execute()).toEqual([]);
  });
});

describe('entries posted together', () => {
  it('post in one call as each would alone: ids in order, once per event key, the totals of all of them, currencies apart', async () => {
    const [a, b] = [await shop(), await shop()];
    const earlier = entry([{ account: 'pending', shopId: a, amount: 7 }, { account: 'commission', shopId: a, amount: -7 }], { shopId: a });
    expect(await post(db, earlier)).toEqual(expect.any(Number));
    const commission = { USD: await marketplace('commission'), EUR: await marketplace('commission', 'EUR') };
    const fee = (shopId: number, amount: number, over: Partial<EntryInput> = {}) =>
      entry([{ account: 'available', shopId, amount: -amount }, { account: 'commission', shopId, amount }], { shopId, kind: 'monthly_fee', ...over });
    const first = fee(a, 100);
    const batch = [
      first,
      fee(b, 250),
      earlier, // posted before: nothing
      fee(a, 30, { currency: 'EUR' }),
      { ...first, postings: [{ account: 'available' as const, shopId: a, amount: -999 }, { account: 'commission' as const, shopId: a, amount: 999 }] }, // its key again: nothing
      fee(b, 0), // nothing moves
    ];
    const ids = await postAll(db, batch);
    expect(ids.map((id) => (id === null ? null : 'id'))).toEqual(['id', 'id', null, 'id', null, null]);
    expect(ids[1]!).toBeGreaterThan(ids[0]!);
    expect(ids[3]!).toBeGreaterThan(ids[1]!);
    const entries = await db.selectFrom('ledger_entries').select(['id', 'event_key', 'shop_id', 'currency']).where('id', 'in', ids.filter((id) => id !== null)).orderBy('id').execute();
    expect(entries.map((e) => [e.event_key, e.shop_id, e.currency])).toEqual([[batch[0].key, a, 'USD'], [batch[1].key, b, 'USD'], [batch[3].key, a, 'EUR']]);
    const postings = await db.selectFrom('ledger_postings').select(['entry_id', 'account', 'amount']).where('entry_id', 'in', ids.filter((id) => id !== null)).orderBy('id').execute();
    expect(postings.map((p) => [p.entry_id, p.account, Number(p.amount)])).toEqual([
      [ids[0], 'available', -100], [ids[0], 'commission', 100], [ids[1], 'available', -250], [ids[1], 'commission', 250], [ids[3], 'available', -30], [ids[3], 'commission', 30],
    ]);
    expect(await kept('available', a)).toBe(-100);
    expect(await kept('available', a, 'EUR')).toBe(-30);
    expect(await kept('available', b)).toBe(-250);
    expect(await marketplace('commission')).toBe(commission.USD + 350);
    expect(await marketplace('commission', 'EUR')).toBe(commission.EUR + 30);
    expect(await postAll(db, [])).toEqual([]);
    expect(await postAll(db, [first, fee(b, 0)])).toEqual([null, null]);
  });

  it('one entry that does not balance posts none of them', async () => {
    const s = await shop();
    const good = entry([{ account: 'pending', shopId: s, amount: 5 }, { account: 'commission', shopId: s, amount: -5 }], { shopId: s });
    const bad = entry([{ account: 'pending', shopId: s, amount: 5 }], { shopId: s });
    await expect(postAll(db, [good, bad])).rejects.toThrow(/does not balance/);
    expect(await db.selectFrom('ledger_entries').select('id').where('event_key', '=', good.key).execute()).toEqual([]);
    expect(await kept('pending', s)).toBe(0);
  });
});

describe('balances', () => {
  it('a shop per currency, from the totals: available below zero is a debt; the marketplace is no shop', async () => {
    const s = await shop({ name: 'Balanced' });
    expect(await shopBalances(db, [])).toEqual([]);
    expect(await shopBalances(db, [s])).toEqual([]);
    await post(db, entry([{ account: 'pending', shopId: s, amount: 100 }, { account: 'available', shopId: s, amount: 40 }, { account: 'commission', shopId: s, amount: -140 }], { shopId: s }));
    await post(db, entry([{ account: 'paid', shopId: s, amount: 60 }, { account: 'available', shopId: s, amount: -90 }, { account: 'refunds', shopId: s, amount: 30 }], { shopId: s, currency: 'EUR' }));
    expect(await shopBalances(db, [s])).toEqual([
      { shop_id: s, shop_name: 'Balanced', currency: 'EUR', pending: 0, available: 0, paid: 60, debt: 90 },
      { shop_id: s, shop_name: 'Balanced', currency: 'USD', pending: 100, available: 40, paid: 0, debt: 0 },
    ]);
    expect(await balanceOf(db, 'available', s, 'EUR')).toBe(-90);
    expect(await balanceOf(db, 'available', s, 'GBP')).toBe(0);
    expect(await balanceOf(db, 'available', s, 'USD', true)).toBe(40);
    // A balance of a shop that was deleted has no name.
    await db.deleteFrom('shops').where('id', '=', s).execute();
    expect((await shopBalances(db, [s]))[0].shop_name).toBeUndefined();
  });

  it('come a page at a time, newest shop first; a seller without shops has none', async () => {
    const shops = [await shop(), await shop(), await shop()];
    for (const s of shops) await post(db, entry([{ account: 'pending', shopId: s, amount: s }, { account: 'commission', shopId: s, amount: -s }], { shopId: s }));
    const first = await balancePage(db, { page: 1, perPage: 2, shopIds: shops });
    expect(first).toMatchObject({ total: 3, from: 1, to: 2, current_page: 1, last_page: 2, per_page: 2 });
    expect(first.data.map((b) => [b.shop_id, b.pending])).toEqual([[shops[2], shops[2]], [shops[1], shops[1]]]);
    expect((await balancePage(db, { page: 2, perPage: 2, shopIds: shops })).data.map((b) => b.shop_id)).toEqual([shops[0]]);
    expect(await balancePage(db, { page: 1, perPage: 5, shopIds: [] })).toEqual({ data: [], total: 0, from: null, to: null, current_page: 1, last_page: 1, per_page: 5 });
    const all = await balancePage(db, { page: 1, perPage: 100 });
    expect(all.data.map((b) => b.shop_id)).toEqual(expect.arrayContaining(shops));
    expect(all.data.every((b) => b.shop_id > 0)).toBe(true);
  });
});

describe('what a paid order earns', () => {
  it('paid: reads the delivery fee, the rate frozen on each line, and a missing or broken rate', async () => {
    expect(deliveryFeeOf({ delivery_fee: '2.50' })).toBe(250);
    expect(deliveryFeeOf({})).toBe(0);
    expect(deliveryFeeOf({ delivery_fee: -3 })).toBe(0);
    expect(isPaid({ total: 10, paid_total: 10 })).toBe(true);
    expect(isPaid({ total: 10, paid_total: 12 })).toBe(true);
    expect(isPaid({ total: 10, paid_total: 9.99 })).toBe(false);
    expect(isPaid({ total: 0, paid_total: 0 })).toBe(false);
    const rated = await category({ commission_flat_rate: 12.5 });
    const huge = await category({ commission_flat_rate: 250 });
    const none = await category({ commission_flat_rate: -4 });
    const rates = await commissionRates(db, [rated, huge, none, rated, 0, -1, 1.5, 99999]);
    expect([...rates.entries()].sort()).toEqual([[huge, 100], [none, 0], [rated, 12.5]].sort());
    expect(await commissionRates(db, [0, -2])).toEqual(new Map());
  });

  it("posts the buyer's payment, the seller's share pending and the commission, once; the fee is the seller's", async () => {
    const s = await shop();
    const o = order(s, [{ product_id: 1, quantity: 2, price: 40, commission_rate: 10 }, { product_id: 2, quantity: 1, price: 60, commission_rate: 12.5 }], { delivery_fee: 5 });
    await follow({ ...o, paid_total: 0 });
    expect(await earningFor(db, Number(o.id))).toBeUndefined();
    await follow(o, undefined, T);
    await follow(o, undefined, T + 1);
    // 80.00 at 10% and 60.00 at 12.5%: 8.00 + 7.50; the 5.00 fee is the seller's whole.
    expect(await postingsOf(Number(o.id))).toEqual([['sale', 'buyer_payments', -14500], ['sale', 'pending', 12950], ['sale', 'commission', 1550]]);
    const earned = await earningFor(db, Number(o.id));
    expect(earned).toMatchObject({ shop_id: s, currency: 'USD', gross: 14500, commission: 1550, seller: 12950, delivery_fee: 500, refunded: 0, released_at: null, closed_at: null });
    expect(earned!.lines.map((l) => [l.product_id, l.quantity, l.amount, l.rate, l.commission, l.net, l.refunded_quantity])).toEqual([
      [1, 2, 8000, 10, 800, 7200, 0], [2, 1, 6000, 12.5, 750, 5250, 0],
    ]);
    const entryRow = await db.selectFrom('ledger_entries').select(['event_key', 'created_by', 'created_at']).where('order_id', '=', Number(o.id)).executeTakeFirstOrThrow();
    expect(entryRow).toEqual({ event_key: `sale:${o.id}`, created_by: 7, created_at: at(T) });
  });

  it("lines placed before rates were frozen take their category's rate at payment; a rate is never more than the line", async () => {
    const s = await shop();
    const c = await category({ commission_flat_rate: 20 });
    const p = await product(c, s);
    const o = order(s, [{ product_id: p, quantity: 3, price: 9.99, commission_rate: null }, { product_id: 999999, quantity: 1, price: 5 }, { product_id: 3, quantity: 1, price: 10, commission_rate: 300 }], { currency: '' });
    await follow(o);
    const earned = (await earningFor(db, Number(o.id)))!;
    expect(earned.currency).toBe('USD');
    // 29.97 at 20% is 5.994, rounded to 5.99; an unknown product earns no commission; a rate over 100 takes the line.
    expect(earned.lines.map((l) => [l.rate, l.commission])).toEqual([[20, 599], [0, 0], [100, 1000]]);
    expect(earned.commission).toBe(1599);
    expect(earned.lines[0].quantity).toBe(3);
  });

  it('an order of broken lines earns what it was paid, all of it the seller’s', async () => {
    const s = await shop();
    const o = { id: ++orderSerial, shop_id: s, currency: 'EUR', status: 1, total: 12, paid_total: 12, items: 'not json' };
    await follow(o);
    expect(await postingsOf(Number(o.id))).toEqual([['sale', 'buyer_payments', -1200], ['sale', 'pending', 1200]]);
    expect((await earningFor(db, Number(o.id)))!.lines).toEqual([]);
    const notAList = { id: ++orderSerial, shop_id: s, currency: 'EUR', status: 1, total: 2, paid_total: 2, items: 5 };
    await follow(notAList);
    expect((await earningFor(db, Number(notAList.id)))!.lines).toEqual([]);
    const listed = { id: ++orderSerial, shop_id: s, currency: 'EUR', status: 1, total: 3, paid_total: 3, items: [{ product_id: 1, quantity: -2, price: 1, commission_rate: 50 }, 'x'] };
    await follow(listed);
    expect((await earningFor(db, Number(listed.id)))!.lines.map((l) => [l.quantity, l.amount, l.commission])).toEqual([[0, 0, 0]]);
  });
});

describe('holding and release', () => {
  it('delivered: pending for the hold period, then available once', async () => {
    const s = await shop();
    const o = order(s, [{ product_id: 1, quantity: 1, price: 50, commission_rate: 10 }]);
    await follow(o);
    await follow({ ...o, status: 5 }, o, T + DAY, 14);
    const held = (await earningFor(db, Number(o.id)))!;
    expect(held).toMatchObject({ delivered_at: at(T + DAY), release_at: at(T + 15 * DAY), released_at: null });
    expect(await releaseDue(db, T + 15 * DAY - 1)).toBe(0);
    expect(await release(db, Number(o.id), T + 15 * DAY - 1)).toBe(false);
    expect(await kept('available', s)).toBe(0);
    // It answers how many it released: each earning of this file's shops due by then, this one among them.
    const releasedAt = () => db.selectFrom('order_earnings').select('order_id').where('released_at', '=', at(T + 15 * DAY)).execute();
    const before = (await releasedAt()).length;
    const released = await releaseDue(db, T + 15 * DAY);
    expect(released).toBe((await releasedAt()).length - before);
    expect((await releasedAt()).map((r) => Number(r.order_id))).toContain(Number(o.id));
    expect(await kept('pending', s)).toBe(0);
    expect(await kept('available', s)).toBe(4500);
    expect(await release(db, Number(o.id), T + 16 * DAY)).toBe(false);
    // Released, then moved back from delivered: nothing changes any more.
    await follow({ ...o, status: 4 }, { ...o, status: 5 }, T + 17 * DAY, 14);
    expect(await earningFor(db, Number(o.id))).toMatchObject({ delivered_at: at(T + DAY), release_at: at(T + 15 * DAY), released_at: at(T + 15 * DAY) });
    expect((await postingsOf(Number(o.id))).filter(([kind]) => kind === 'release')).toEqual([['release', 'pending', -4500], ['release', 'available', 4500]]);
    // Delivered again later changes nothing.
    await follow({ ...o, status: 5 }, { ...o, status: 4 }, T + 20 * DAY, 0);
    expect((await earningFor(db, Number(o.id)))!.delivered_at).toBe(at(T + DAY));
  });

  it('what a refund took from pending is not released again', async () => {
    const s = await shop();
    const o = order(s, [{ product_id: 1, quantity: 2, price: 10, commission_rate: 10 }]);
    await follow(o);
    await refund(db, { orderId: Number(o.id), lines: [{ product_id: 1, quantity: 1 }], reason: 'r', by: 1, at: at() });
    await follow({ ...o, status: 5 }, o, T, 0);
    expect(await shopBalances(db, [s])).toMatchObject([{ pending: 0, available: 900 }]);
  });

  it('the default hold is 14 days; a hold of 0 releases at delivery', async () => {
    const s = await shop();
    const o = order(s, [{ product_id: 1, quantity: 1, price: 10, commission_rate: 0 }]);
    await follow(o);
    await follow({ ...o, status: 5 }, o, T);
    expect((await earningFor(db, Number(o.id)))!.release_at).toBe(at(T + 14 * DAY));
    const now = order(s, [{ product_id: 1, quantity: 1, price: 10, commission_rate: 0 }]);
    await follow(now);
    await follow({ ...now, status: 5 }, now, T, 0);
    expect((await earningFor(db, Number(now.id)))!.released_at).toBe(at(T));
    expect(await kept('available', s)).toBe(1000);
  });

  it('moved back from delivered, the hold stops; any other move keeps it', async () => {
    const s = await shop();
    const o = order(s, [{ product_id: 1, quantity: 1, price: 10, commission_rate: 0 }]);
    await follow(o);
    await follow({ ...o, status: 5 }, o, T, 3);
    await follow({ ...o, status: 5, note: 'x' }, { ...o, status: 5 }, T + 1, 3);
    expect((await earningFor(db, Number(o.id)))!.release_at).toBe(at(T + 3 * DAY));
    await follow({ ...o, status: 4 }, { ...o, status: 3 }, T + 2, 3);
    expect((await earningFor(db, Number(o.id)))!.release_at).toBe(at(T + 3 * DAY));
    await follow({ ...o, status: 4 }, undefined, T + 2, 3);
    expect((await earningFor(db, Number(o.id)))!.release_at).toBe(at(T + 3 * DAY));
    await follow({ ...o, status: 4 }, { ...o, status: 5 }, T + 2, 3);
    expect(await earningFor(db, Number(o.id))).toMatchObject({ delivered_at: null, release_at: null });
    await releaseDue(db, T + 30 * DAY);
    expect(await earningFor(db, Number(o.id))).toMatchObject({ released_at: null });
  });

  it('cancelled: what is left is refunded and never becomes available; an unpaid cancelled order earns nothing', async () => {
    const s = await shop();
    const o = order(s, [{ product_id: 1, quantity: 2, price: 10, commission_rate: 10 }]);
    await follow(o);
    await follow({ ...o, status: 5 }, o, T, 2);
    await refund(db, { orderId: Number(o.id), lines: [{ product_id: 1, quantity: 1 }], reason: 'one', by: 1, at: at() });
    await follow({ ...o, status: 6 }, { ...o, status: 5 }, T + DAY, 2);
    const closed = (await earningFor(db, Number(o.id)))!;
    expect(closed).toMatchObject({ closed_at: at(T + DAY), release_at: null, refunded: 2000 });
    const reasons = await db.selectFrom('refunds').select(['reason', 'amount']).where('order_id', '=', Number(o.id)).orderBy('id').execute();
    expect(reasons.map((r) => [r.reason, Number(r.amount)])).toEqual([['one', 1000], [CANCELLED_REASON, 1000]]);
    await releaseDue(db, T + 30 * DAY);
    expect((await earningFor(db, Number(o.id)))!.released_at).toBeNull();
    expect(await kept('pending', s)).toBe(0);
    expect(await kept('available', s)).toBe(0);
    await follow({ ...o, status: 5 }, { ...o, status: 6 }, T + 2 * DAY, 0);
    expect(await kept('available', s)).toBe(0);

    const whole = order(s, [{ product_id: 1, quantity: 1, price: 10, commission_rate: 10 }]);
    await follow(whole);
    await refund(db, { orderId: Number(whole.id), reason: 'all', by: 1, at: at() });
    await follow({ ...whole, status: 6 }, whole, T + DAY);
    expect(await db.selectFrom('refunds').select('id').where('order_id', '=', Number(whole.id)).execute()).toHaveLength(1);
    expect((await earningFor(db, Number(whole.id)))!.closed_at).toBe(at(T + DAY));

    const unpaid = order(s, [{ product_id: 1, quantity: 1, price: 10 }], { status: 6 });
    await follow(unpaid);
    expect(await earningFor(db, Number(unpaid.id))).toBeUndefined();
  });
});

describe('refunds', () => {
  it('a line in proportion, from pending; never more than is left; the rest, fee included, at last', async () => {
    const s = await shop();
    const o = order(s, [{ product_id: 1, quantity: 3, price: 10, commission_rate: 10 }, { product_id: 2, quantity: 1, price: 7, commission_rate: 0 }], { delivery_fee: 2 });
    await follow(o);
    const id = Number(o.id);
    const one = await refund(db, { orderId: id, lines: [{ product_id: 1, quantity: 1 }], reason: 'r1', by: 4, at: at() });
    // 30.00 at 10%: one unit is 10.00, of which 1.00 commission.
    expect(one).toMatchObject({ amount: 1000, currency: 'USD', shopId: s, lines: [{ product_id: 1, quantity: 1, amount: 1000, commission: 100 }] });
    expect((await postingsOf(id)).filter(([kind]) => kind === 'refund')).toEqual([['refund', 'refunds', 1000], ['refund', 'commission', -100], ['refund', 'pending', -900]]);
    const row = await db.selectFrom('refunds').selectAll().where('id', '=', one.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ order_id: id, shop_id: s, currency: 'USD', amount: 1000, commission: 100, seller: 900, reason: 'r1', created_by: 4, created_at: at() });
    expect(row.entry_id).toEqual(expect.any(Number));
    expect(await failure(() => refund(db, { orderId: id, lines: [{ product_id: 1, quantity: 3 }], reason: 'x', by: 1, at: at() })))
      .toEqual({ status: 400, message: `Only 2 of product 1 can still be refunded on order ${id}` });
    expect(await failure(() => refund(db, { orderId: id, lines: [{ product_id: 9, quantity: 1 }], reason: 'x', by: 1, at: at() })))
      .toEqual({ status: 400, message: `Order ${id} has no line of product 9` });
    const two = await refund(db, { orderId: id, lines: [{ product_id: 1, quantity: 2 }], reason: 'r2', by: 1, at: at() });
    expect(two.amount).toBe(2000);
    expect(await earningFor(db, id)).toMatchObject({ refunded: 3000, refunded_commission: 300, refunded_seller: 2700, fee_refunded: 0 });
    const rest = await refund(db, { orderId: id, reason: 'rest', by: 1, at: at() });
    // The second line and the delivery fee.
    expect(rest).toMatchObject({ amount: 900, lines: [{ product_id: 2, quantity: 1, amount: 0, commission: 0 }] });
    expect(await earningFor(db, id)).toMatchObject({ refunded: 3900, refunded_commission: 300, refunded_seller: 3600, fee_refunded: 1 });
    expect((await earningFor(db, id))!.lines.map((l) => l.refunded_quantity)).toEqual([3, 1]);
    expect(await failure(() => refund(db, { orderId: id, reason: 'again', by: 1, at: at() }))).toEqual({ status: 409, message: `Order ${id} is already refunded in full` });
    expect(await kept('pending', s)).toBe(0);
  });

  it('units carry their exact share: three refunds of one unit give back the whole line and its commission', async () => {
    const s = await shop();
    const o = order(s, [{ product_id: 1, quantity: 3, price: 0.1, commission_rate: 50 }]);
    await follow(o);
    const id = Number(o.id);
    const amounts: number[] = [];
    for (let k = 0; k < 3; k++) amounts.push((await refund(db, { orderId: id, lines: [{ product_id: 1, quantity: 1 }], reason: 'u', by: 1, at: at() })).amount);
    expect(amounts).toEqual([10, 10, 10]);
    const rows = await db.selectFrom('refunds').select(['commission']).where('order_id', '=', id).orderBy('id').execute();
    // A commission of 15 over three units: 5, 5, 5.
    expect(rows.map((r) => Number(r.commission))).toEqual([5, 5, 5]);
    const odd = order(s, [{ product_id: 1, quantity: 3, price: 0.01, commission_rate: 100 }]);
    await follow(odd);
    const shares: number[] = [];
    for (let k = 0; k < 3; k++) shares.push((await refund(db, { orderId: Number(odd.id), lines: [{ product_id: 1, quantity: 1 }], reason: 'u', by: 1, at: at() })).amount);
    expect(shares).toEqual([1, 1, 1]);
  });

  it('after release, from available, and below zero as a debt', async () => {
    const s = await shop();
    const o = order(s, [{ product_id: 1, quantity: 1, price: 20, commission_rate: 25 }]);
    await follow(o);
    await follow({ ...o, status: 5 }, o, T, 0);
    await post(db, entry([{ account: 'available', shopId: s, amount: -1500 }, { account: 'paid', shopId: s, amount: 1500 }], { shopId: s }));
    await refund(db, { orderId: Number(o.id), reason: 'back', by: 1, at: at() });
    expect((await postingsOf(Number(o.id))).filter(([kind]) => kind === 'refund')).toEqual([['refund', 'refunds', 2000], ['refund', 'commission', -500], ['refund', 'available', -1500]]);
    expect(await shopBalances(db, [s])).toMatchObject([{ pending: 0, available: 0, paid: 1500, debt: 1500 }]);
  });

  it('an order that does not exist, one not paid, and a refund of nothing are refused', async () => {
    expect(await failure(() => refund(db, { orderId: 987654, reason: 'x', by: 1, at: at() }))).toEqual({ status: 404, message: 'Order 987654 does not exist' });
    const s = await shop();
    const made = await db.insertInto('orders').values({ shop_id: s, total: 10, paid_total: 0, status: 1 }).returning('id').executeTakeFirstOrThrow();
    expect(await failure(() => refund(db, { orderId: Number(made.id), reason: 'x', by: 1, at: at() })))
      .toEqual({ status: 400, message: `Order ${made.id} is not paid: there is nothing to refund` });
    const free = order(s, [{ product_id: 1, quantity: 2, price: 0, commission_rate: 0 }, { product_id: 2, quantity: 1, price: 1, commission_rate: 0 }]);
    await follow(free);
    expect(await failure(() => refund(db, { orderId: Number(free.id), lines: [{ product_id: 1, quantity: 1 }], reason: 'x', by: 1, at: at() })))
      .toEqual({ status: 400, message: 'Nothing to refund: choose at least one unit of a line' });
  });

  it('never more than was paid, when the lines add up to more than what is left', async () => {
    const s = await shop();
    const o = order(s, [{ product_id: 1, quantity: 1, price: 10, commission_rate: 10 }]);
    // Paid 10.00 for an order whose lines say 10.00: a partial refund first, then lines worth more than is left.
    await follow(o);
    await db.updateTable('order_earnings').set({ refunded: 500 }).where('order_id', '=', Number(o.id)).execute();
    expect(await failure(() => refund(db, { orderId: Number(o.id), lines: [{ product_id: 1, quantity: 1 }], reason: 'x', by: 1, at: at() })))
      .toEqual({ status: 400, message: `A refund cannot be more than was paid: at most 500 minor units are left on order ${o.id}` });
    await db.updateTable('order_earnings').set({ refunded: 0, refunded_commission: 80 }).where('order_id', '=', Number(o.id)).execute();
    // What is left of the commission caps the commission given back.
    const done = await refund(db, { orderId: Number(o.id), lines: [{ product_id: 1, quantity: 1 }], reason: 'x', by: 1, at: at() });
    expect(Number((await db.selectFrom('refunds').select('commission').where('id', '=', done.id).executeTakeFirstOrThrow()).commission)).toBe(20);
  });
});

describe('payouts', () => {
  it('pay the whole available balance to the bank account, or PayPal, as they were; settle once', async () => {
    const s = await shop({ name: 'Payee', account_number: '999', account_name: 'Pat', bank_name: 'B', bank_country: 'UK', swift_code: 'SW', sort_code: '01' });
    await post(db, entry([{ account: 'available', shopId: s, amount: 5000 }, { account: 'buyer_payments', shopId: s, amount: -5000 }], { shopId: s }));
    const made = await createPayout(db, { shopId: s, currency: ' usd ', by: 2, at: at() });
    expect(made).toEqual({ id: expect.any(Number), amount: 5000, currency: 'USD', method: 'bank' });
    const row = await db.selectFrom('payouts').selectAll().where('id', '=', made.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ shop_id: s, currency: 'USD', amount: 5000, state: 'pending', method: 'bank', reference: null, created_by: 2, created_at: at(), updated_at: at() });
    expect(JSON.parse(String(row.destination))).toEqual({ account_name: 'Pat', account_number: '999', bank_name: 'B', bank_country: 'UK', swift_code: 'SW', sort_code: '01' });
    expect(await shopBalances(db, [s])).toMatchObject([{ available: 0, paid: 5000 }]);
    expect(await db.selectFrom('ledger_entries').select(['kind', 'shop_id', 'currency']).where('event_key', '=', `payout:${made.id}`).execute()).toEqual([{ kind: 'payout', shop_id: s, currency: 'USD' }]);
    expect(await failure(() => createPayout(db, { shopId: s, currency: 'USD', by: 2, at: at() }))).toEqual({ status: 400, message: 'Payee has nothing available to pay out in USD' });

    const settled = await settlePayout(db, { id: made.id, state: 'paid', reference: 'T-1', by: 3, at: at(T + 1) });
    expect(settled).toMatchObject({ state: 'paid', reference: 'T-1', settled_by: 3, settled_at: at(T + 1), updated_at: at(T + 1) });
    expect(await shopBalances(db, [s])).toMatchObject([{ available: 0, paid: 5000 }]);
    expect(await failure(() => settlePayout(db, { id: made.id, state: 'failed', reference: null, by: 3, at: at() }))).toEqual({ status: 409, message: `Payout ${made.id} is already paid` });
    expect(await failure(() => settlePayout(db, { id: 987654, state: 'paid', reference: null, by: 3, at: at() }))).toEqual({ status: 404, message: 'Payout 987654 does not exist' });

    const paypal = await shop({ name: 'Pal', account_number: '', paypal_email: 'pal@example.com', name_of_seller: 'Pal Seller' });
    await post(db, entry([{ account: 'available', shopId: paypal, amount: 300 }, { account: 'buyer_payments', shopId: paypal, amount: -300 }], { shopId: paypal, currency: 'EUR' }));
    const pal = await createPayout(db, { shopId: paypal, currency: 'EUR', by: null, at: at() });
    expect(pal.method).toBe('paypal');
    // Each payout posts under its own event.
    expect(await shopBalances(db, [paypal])).toMatchObject([{ currency: 'EUR', available: 0, paid: 300 }]);
    expect(JSON.parse(String((await db.selectFrom('payouts').select('destination').where('id', '=', pal.id).executeTakeFirstOrThrow()).destination))).toEqual({ paypal_email: 'pal@example.com', name_of_seller: 'Pal Seller' });
  });

  it('failed: the money goes back to available, with the reference as the memo', async () => {
    const s = await shop();
    await post(db, entry([{ account: 'available', shopId: s, amount: 700 }, { account: 'buyer_payments', shopId: s, amount: -700 }], { shopId: s }));
    const made = await createPayout(db, { shopId: s, currency: 'USD', by: 1, at: at() });
    await settlePayout(db, { id: made.id, state: 'failed', reference: 'Closed', by: 1, at: at() });
    expect(await shopBalances(db, [s])).toMatchObject([{ available: 700, paid: 0 }]);
    const back = await db.selectFrom('ledger_entries').select(['kind', 'memo', 'event_key']).where('event_key', '=', `payout_failed:${made.id}`).executeTakeFirstOrThrow();
    expect(back).toEqual({ kind: 'payout_failed', memo: 'Closed', event_key: `payout_failed:${made.id}` });
  });

  it('refused: an unknown shop, a debt, nothing available, nowhere to pay', async () => {
    expect(await failure(() => createPayout(db, { shopId: 987654, currency: 'USD', by: 1, at: at() }))).toEqual({ status: 404, message: 'Shop 987654 does not exist' });
    const s = await shop({ name: 'Owing' });
    await post(db, entry([{ account: 'available', shopId: s, amount: -1234 }, { account: 'commission', shopId: s, amount: 1234 }], { shopId: s }));
    expect(await failure(() => createPayout(db, { shopId: s, currency: 'USD', by: 1, at: at() }))).toEqual({ status: 400, message: 'Owing owes 12.34 USD: there is nothing to pay out' });
    const nowhere = await shop({ name: 'Nowhere', account_number: '', paypal_email: '' });
    await post(db, entry([{ account: 'available', shopId: nowhere, amount: 1 }, { account: 'commission', shopId: nowhere, amount: -1 }], { shopId: nowhere }));
    expect(await failure(() => createPayout(db, { shopId: nowhere, currency: 'USD', by: 1, at: at() }))).toEqual({ status: 400, message: 'Nowhere has no bank account or PayPal address to be paid to' });
  });
});

describe('monthly fees', () => {
  it("charges each active shop of a category with a fee once a month, in the category's currency, from available", async () => {
    expect(monthOf(Date.parse('2026-04-30T23:59:59.999Z'))).toBe('2026-04');
    expect(monthOf('2026-05-01T00:00:00.000Z')).toBe('2026-05');
    const feeCat = await category({ commission_monthly: 12.5, commission_currency: 'eur' });
    const noCurrency = await category({ commission_monthly: 1, commission_currency: '' });
    const free = await category({ commission_monthly: 0 });
    const charged = await shop({ category_id: feeCat });
    const sleeping = await shop({ category_id: feeCat, is_active: 0 });
    const dollars = await shop({ category_id: noCurrency });
    const none = await shop({ category_id: free });
    const april = Date.parse('2026-04-01T00:00:30Z');
    // It answers how many fees it charged: one entry each, these two shops' among them.
    const feesOf = async (month: string) => Number((await db.selectFrom('ledger_entries').select((eb) => eb.fn.countAll().as('n')).where('kind', '=', 'monthly_fee').where('memo', '=', `Monthly fee ${month}`).executeTakeFirstOrThrow()).n);
    const april0 = await feesOf('2026-04');
    const inApril = await chargeMonthlyFees(db, april);
    expect(inApril).toBe((await feesOf('2026-04')) - april0);
    expect(await chargeMonthlyFees(db, Date.parse('2026-04-30T23:00:00Z'))).toBe(0);
    const fees = (shopId: number) => db.selectFrom('ledger_entries').select(['event_key', 'currency', 'memo', 'created_at']).where('shop_id', '=', shopId).where('kind', '=', 'monthly_fee').orderBy('id').execute();
    expect(await fees(charged)).toEqual([{ event_key: `fee:${charged}:2026-04`, currency: 'EUR', memo: 'Monthly fee 2026-04', created_at: at(april) }]);
    expect(await fees(dollars)).toMatchObject([{ currency: 'USD' }]);
    expect(await fees(sleeping)).toEqual([]);
    expect(await fees(none)).toEqual([]);
    expect(await shopBalances(db, [charged])).toMatchObject([{ currency: 'EUR', available: 0, debt: 1250 }]);
    const feePostings = await db.selectFrom('ledger_postings').select(['account', 'amount']).where('shop_id', '=', charged).where('kind', '=', 'monthly_fee').orderBy('id').execute();
    expect(feePostings.map((p) => [p.account, Number(p.amount)])).toEqual([['available', -1250], ['commission', 1250]]);
    const may0 = await feesOf('2026-05');
    expect(await chargeMonthlyFees(db, Date.parse('2026-05-01T00:00:00Z'))).toBe((await feesOf('2026-05')) - may0);
    expect(await feesOf('2026-05')).toBe(await feesOf('2026-04'));
    expect((await fees(charged)).map((f) => f.event_key)).toEqual([`fee:${charged}:2026-04`, `fee:${charged}:2026-05`]);
    expect(await balanceOf(db, 'available', charged, 'EUR')).toBe(-2500);
  });
});

describe("the month's fee pass", () => {
  // A database of its own: the pass walks every shop, so only this test's shops are there.
  let own: Database;
  let fdb: DB;
  beforeAll(async () => {
    own = await migrated();
    fdb = own.db;
  });
  afterAll(() => own.close());
  const feeCategory = async (fee: number) =>
    Number((await fdb.insertInto('categories').values({ name: `Fees ${fee} ${++serial}`, commission_currency: 'EUR', commission_flat_rate: 0, commission_monthly: fee, is_active: 1 })
      .returning('id').executeTakeFirstOrThrow()).id);
  const newShop = async (categoryId: number, active = 1) =>
    Number((await fdb.insertInto('shops').values({ name: `Pass ${++serial}`, is_active: active, category_id: categoryId }).returning('id').executeTakeFirstOrThrow()).id);
  const chargedIn = async (month: string) =>
    (await fdb.selectFrom('ledger_entries').select('shop_id').where('memo', '=', `Monthly fee ${month}`).orderBy('shop_id').execute()).map((e) => Number(e.shop_id));
  const pass = (month: string) => fdb.selectFrom('fee_passes').select(['through_id', 'until_id', 'done_at']).where('month', '=', month).executeTakeFirst();
  const oneBatch = { batch: 2, budgetMs: 0 };
  let fee: number;
  let free: number;
  let shops: number[];
  let sleeping: number;

  it('walks the shops a batch per run from where the last run stopped, each due shop charged once', async () => {
    fee = await feeCategory(10);
    free = await feeCategory(0);
    shops = [await newShop(fee), await newShop(fee)];
    sleeping = await newShop(fee, 0);
    await newShop(free);
    shops.push(await newShop(fee), await newShop(fee));
    const june = Date.parse('2026-06-01T00:01:00Z');
    expect(await chargeMonthlyFees(fdb, june, oneBatch)).toBe(2);
    expect(await chargedIn('2026-06')).toEqual(shops.slice(0, 2));
    expect(await pass('2026-06')).toMatchObject({ through_id: shops[1], done_at: null });
    // The shop switched off and the free one are walked past: the next batch is the next two due.
    expect(await chargeMonthlyFees(fdb, june + 60_000, oneBatch)).toBe(2);
    expect(await chargedIn('2026-06')).toEqual(shops);
    expect(await chargeMonthlyFees(fdb, june + 120_000, oneBatch)).toBe(0);
    expect(await pass('2026-06')).toMatchObject({ through_id: shops[3], until_id: shops[3], done_at: new Date(june + 120_000).toISOString() });
    expect(await chargeMonthlyFees(fdb, june + 180_000, oneBatch)).toBe(0);
    expect(await chargedIn('2026-06')).toEqual(shops);
    expect(await shopBalances(fdb, [shops[0]])).toMatchObject([{ currency: 'EUR', available: 0, debt: 1000 }]);
  });

  it('a run goes on batch after batch until the pass is done, when its time allows', async () => {
    expect(await chargeMonthlyFees(fdb, Date.parse('2026-07-01T00:01:00Z'), { batch: 1 })).toBe(4);
    expect(await chargedIn('2026-07')).toEqual(shops);
    expect((await pass('2026-07'))?.done_at).not.toBeNull();
  });

  it("a batch is one transaction: one that fails charges none of its shops and the pass stays where it was", async () => {
    const august = Date.parse('2026-08-01T00:01:00Z');
    await sql`create temp trigger lost_disk before insert on ledger_entries when new.event_key = ${sql.lit(`fee:${shops[1]}:2026-08`)}
      begin select raise(abort, 'the disk is gone'); end`.execute(fdb);
    await expect(chargeMonthlyFees(fdb, august, oneBatch)).rejects.toThrow('the disk is gone');
    expect(await chargedIn('2026-08')).toEqual([]);
    expect(await pass('2026-08')).toMatchObject({ through_id: 0, done_at: null });
    await sql`drop trigger lost_disk`.execute(fdb);
    expect(await chargeMonthlyFees(fdb, august + 60_000, {})).toBe(4);
    expect(await chargedIn('2026-08')).toEqual(shops);
  });

  it("finishes an earlier month's pass first; shops made after a pass began are their saves' to charge", async () => {
    const september = Date.parse('2026-09-01T00:01:00Z');
    expect(await chargeMonthlyFees(fdb, september, { batch: 1, budgetMs: 0 })).toBe(1);
    const late = await newShop(fee);
    const october = Date.parse('2026-10-01T00:01:00Z');
    expect(await chargeMonthlyFees(fdb, october, {})).toBe(3 + 5);
    expect(await chargedIn('2026-09')).toEqual(shops);
    expect(await chargedIn('2026-10')).toEqual([...shops, late]);
    // The late shop's September, as its save would have charged it then (and only once).
    expect(await chargeShopFee(fdb, late, september + DAY)).toBe(true);
    expect(await chargeShopFee(fdb, late, september + 2 * DAY)).toBe(false);
    expect(await chargedIn('2026-09')).toEqual([...shops, late]);
    expect(await chargeShopFee(fdb, sleeping, october)).toBe(false);
    expect(await chargeShopFee(fdb, await newShop(free), october)).toBe(false);
  });

  it('starting the month again charges the shops that became due behind the pass, and nobody twice', async () => {
    const november = Date.parse('2026-11-01T00:01:00Z');
    const cheap = await feeCategory(0);
    const behind = await newShop(cheap);
    expect(await chargeMonthlyFees(fdb, november, {})).toBe(5);
    await fdb.updateTable('categories').set({ commission_monthly: 2.5 }).where('id', '=', cheap).execute();
    expect(await chargeMonthlyFees(fdb, november + 60_000, {})).toBe(0);
    await restartFeePass(fdb, november + 120_000);
    expect(await pass('2026-11')).toMatchObject({ through_id: 0, done_at: null });
    expect(await chargeMonthlyFees(fdb, november + 180_000, {})).toBe(1);
    expect((await chargedIn('2026-11')).filter((id) => id === behind)).toEqual([behind]);
    expect(await balanceOf(fdb, 'available', behind, 'EUR')).toBe(-250);
  });

  it('two runs at once charge each shop once: the one that finds the pass done meanwhile stops', async () => {
    const january = Date.parse('2027-01-01T00:01:00Z');
    const due = await chargedIn('2026-11');
    const runs = await Promise.all([chargeMonthlyFees(fdb, january, {}), chargeMonthlyFees(fdb, january + 1, {})]);
    expect(runs.sort((a, b) => a - b)).toEqual([0, due.length]);
    expect(await chargedIn('2027-01')).toEqual(due);
  });

  it('a fee too large to be counted in minor units is not charged and holds nobody up', async () => {
    const december = Date.parse('2026-12-01T00:01:00Z');
    const huge = await newShop(await feeCategory(1e17));
    expect(await chargeMonthlyFees(fdb, december, { batch: 1 })).toBe(6);
    expect(await chargedIn('2026-12')).not.toContain(huge);
    expect((await pass('2026-12'))?.done_at).not.toBeNull();
  });
});

describe('reading the ledger', () => {
  it("postings newest first, a page at a time, narrowed to shops, an order and accounts", async () => {
    const s = await shop();
    const o = order(s, [{ product_id: 1, quantity: 1, price: 10, commission_rate: 10 }]);
    await follow(o);
    await refund(db, { orderId: Number(o.id), reason: 'r', by: 1, at: at(T + 1) });
    const all = await ledgerPage(db, { page: 1, perPage: 100, shopIds: [s] });
    expect(all.total).toBe(6);
    expect(all.data.map((p) => [p.kind, p.account, p.amount])).toEqual([
      ['refund', 'pending', -900], ['refund', 'commission', -100], ['refund', 'refunds', 1000],
      ['sale', 'commission', 100], ['sale', 'pending', 900], ['sale', 'buyer_payments', -1000],
    ]);
    expect(all.data[0]).toEqual({ id: expect.any(Number), entry_id: expect.any(Number), account: 'pending', shop_id: s, order_id: Number(o.id), currency: 'USD', amount: -900, kind: 'refund', created_at: at(T + 1) });
    const mine = await ledgerPage(db, { page: 1, perPage: 100, shopIds: [s], accounts: SELLER_ACCOUNTS });
    expect(mine.data.map((p) => p.account)).toEqual(['pending', 'commission', 'commission', 'pending']);
    const second = await ledgerPage(db, { page: 2, perPage: 4, shopIds: [s] });
    expect(second).toMatchObject({ total: 6, from: 5, to: 6, last_page: 2 });
    expect(second.data.map((p) => p.id)).toEqual(all.data.slice(4).map((p) => p.id));
    expect((await ledgerPage(db, { page: 1, perPage: 10, shopIds: [] })).total).toBe(0);
    expect((await ledgerPage(db, { page: 1, perPage: 10, orderId: Number(o.id) })).total).toBe(6);
    expect((await ledgerPage(db, { page: 1, perPage: 10, shopIds: [s], orderId: 1 })).total).toBe(0);
    const loose = ++orderSerial;
    await post(db, entry([{ account: 'commission', shopId: null, amount: 3 }, { account: 'refunds', shopId: null, amount: -3 }], { shopId: null, orderId: loose }));
    expect((await ledgerPage(db, { page: 1, perPage: 10, orderId: loose })).data.map((p) => p.shop_id)).toEqual([null, null]);
    const fee = await post(db, entry([{ account: 'available', shopId: s, amount: -5 }, { account: 'commission', shopId: s, amount: 5 }], { shopId: s, kind: 'monthly_fee' }));
    expect((await ledgerPage(db, { page: 1, perPage: 1, shopIds: [s] })).data[0]).toMatchObject({ entry_id: fee, order_id: null });
  });

  it("a month runs from its first instant to the next month's", () => {
    expect(monthRange('2026-12')).toEqual({ start: '2026-12-01T00:00:00.000Z', end: '2027-01-01T00:00:00.000Z' });
    expect(monthRange('2026-02')).toEqual({ start: '2026-02-01T00:00:00.000Z', end: '2026-03-01T00:00:00.000Z' });
  });

  it("a shop's statement: opening balance, each sale, commission, refund, fee and payout of the month, closing balance, per currency", async () => {
    const s = await shop();
    const before = order(s, [{ product_id: 1, quantity: 1, price: 5, commission_rate: 0 }]);
    await follow(before, undefined, Date.parse('2026-05-31T23:59:59.999Z'));
    const o = order(s, [{ product_id: 1, quantity: 2, price: 10, commission_rate: 10 }]);
    await follow(o, undefined, Date.parse('2026-06-02T10:00:00Z'));
    await follow({ ...o, status: 5 }, o, Date.parse('2026-06-03T10:00:00Z'), 0);
    await refund(db, { orderId: Number(o.id), lines: [{ product_id: 1, quantity: 1 }], reason: 'Broken', by: 1, at: '2026-06-04T10:00:00.000Z' });
    await post(db, entry([{ account: 'available', shopId: s, amount: -300 }, { account: 'commission', shopId: s, amount: 300 }], { shopId: s, kind: 'monthly_fee', memo: 'Monthly fee 2026-06', at: '2026-06-05T00:00:00.000Z' }));
    const payout = await createPayout(db, { shopId: s, currency: 'USD', by: 1, at: '2026-06-06T00:00:00.000Z' });
    await settlePayout(db, { id: payout.id, state: 'failed', reference: 'Closed', by: 1, at: '2026-06-07T00:00:00.000Z' });
    await post(db, entry([{ account: 'pending', shopId: s, amount: 100 }, { account: 'buyer_payments', shopId: s, amount: -100 }], { shopId: s, currency: 'EUR', at: '2026-06-30T23:59:59.999Z' }));
    await post(db, entry([{ account: 'pending', shopId: s, amount: 1 }, { account: 'buyer_payments', shopId: s, amount: -1 }], { shopId: s, at: '2026-07-01T00:00:00.000Z' }));
    const csv = await statementCsv(db, s, '2026-06');
    expect(csv.endsWith('\r\n')).toBe(true);
    const rows = csv.trim().split('\r\n').map((line) => line.split(','));
    expect(rows[0]).toEqual(['date', 'type', 'order_id', 'entry_id', 'description', 'currency', 'amount', 'balance']);
    expect(rows.slice(1).map((r) => [r[0], r[1], r[2], r[4], r[5], r[6], r[7]])).toEqual([
      ['2026-06-01', 'opening balance', '', '', 'EUR', '', '0.00'],
      ['2026-06-30', 'sale', '', '', 'EUR', '1.00', '1.00'],
      ['2026-06-30', 'closing balance', '', '', 'EUR', '', '1.00'],
      ['2026-06-01', 'opening balance', '', '', 'USD', '', '5.00'],
      ['2026-06-02', 'sale', String(o.id), '', 'USD', '20.00', '25.00'],
      ['2026-06-02', 'commission', String(o.id), '', 'USD', '-2.00', '23.00'],
      ['2026-06-04', 'refund', String(o.id), 'Broken', 'USD', '-10.00', '13.00'],
      ['2026-06-04', 'commission', String(o.id), 'Broken', 'USD', '1.00', '14.00'],
      ['2026-06-05', 'fee', '', 'Monthly fee 2026-06', 'USD', '-3.00', '11.00'],
      ['2026-06-06', 'payout', '', '', 'USD', '-6.00', '5.00'],
      ['2026-06-07', 'payout returned', '', 'Closed', 'USD', '6.00', '11.00'],
      ['2026-06-30', 'closing balance', '', '', 'USD', '', '11.00'],
    ]);
    expect(rows[5][3]).toMatch(/^\d+$/);
    // The opening and closing lines name no entry.
    expect(rows.filter((r) => r[1].endsWith(' balance')).map((r) => r[3])).toEqual(['', '', '', '']);
    expect(await statementCsv(db, s, '2026-01')).toBe(`${['date,type,order_id,entry_id,description,currency,amount,balance'].join('')}\r\n`);
  });

  it('commissions per month and shop, net of refunds, between two days', async () => {
    const name = `Report ${Date.now()}`;
    const c = await category({ name });
    const s = await shop({ category_id: c, name: 'Reported' });
    const march = order(s, [{ product_id: 1, quantity: 1, price: 100, commission_rate: 10 }]);
    await follow(march, undefined, Date.parse('2026-03-31T23:00:00Z'));
    const april = order(s, [{ product_id: 1, quantity: 1, price: 50, commission_rate: 10 }]);
    await follow(april, undefined, Date.parse('2026-04-01T01:00:00Z'));
    await refund(db, { orderId: Number(april.id), reason: 'r', by: 1, at: '2026-04-02T00:00:00.000Z' });
    await post(db, entry([{ account: 'available', shopId: s, amount: -7 }, { account: 'commission', shopId: s, amount: 7 }], { shopId: s, kind: 'monthly_fee', at: '2026-04-30T23:59:59.999Z' }));
    const report = await commissionReport(db, '2026-03-01T00:00:00.000Z', '2026-04-30T23:59:59.999Z');
    expect(report.filter((r) => r.shop_id === s)).toEqual([
      { month: '2026-03', category_id: c, category_name: name, shop_id: s, shop_name: 'Reported', currency: 'USD', amount: 1000 },
      { month: '2026-04', category_id: c, category_name: name, shop_id: s, shop_name: 'Reported', currency: 'USD', amount: 0 },
    ]);
    const orphan = await shop({ name: 'Orphan' });
    await post(db, entry([{ account: 'available', shopId: orphan, amount: -9 }, { account: 'commission', shopId: orphan, amount: 9 }], { shopId: orphan, at: '2026-04-15T00:00:00.000Z' }));
    expect((await commissionReport(db, '2026-04-15T00:00:00.000Z', '2026-04-16T00:00:00.000Z')).filter((r) => r.shop_id === orphan))
      .toEqual([{ month: '2026-04', category_id: null, category_name: null, shop_id: orphan, shop_name: 'Orphan', currency: 'USD', amount: 9 }]);
    expect((await commissionReport(db, '2026-04-15T00:00:00.001Z', '2026-04-16T00:00:00.000Z')).filter((r) => r.shop_id === orphan)).toEqual([]);
  });
});
