/**
 * One record a sweep cannot change holds up none of the others (server/sweeps.ts): an unpaid order
 * whose hold has ended, or a delivered order's earnings due for release, that the database refuses is
 * rolled back, reported with its id once a run, and tried again the next run, while the records
 * after it are swept; and an entity whose sweep fails as a whole stops no other entity's sweep. The
 * database refuses a record's write through a trigger, as it refuses a row it cannot take.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_PAYOUT_HOLD_DAYS } from '../../contract';
import { loadHooks } from '../../server/hooks';
import { ORDER_DEFAULTS } from '../../server/hooks/orders';
import { scheduleSweeps, sweepEntities } from '../../server/maintenance';
import { registry } from '../../server/registry';
import { SWEEP_PAGE, SweepError, dueOf, pastDue, sweepEach, type Due } from '../../server/sweeps';
import { demo, dialect, newCategory, productBody, shopBody, startServer, type TestServer } from './harness';

let s: TestServer;
let admin: string;
let seller: { id: number; token: string };
let shopId: number;
let category: { id: number; subcategoryId: number };
const time = Date.parse('2026-03-02T10:00:00.000Z');
const HOLD_MS = ORDER_DEFAULTS.holdMinutes * 60_000;
const RELEASE_MS = DEFAULT_PAYOUT_HOLD_DAYS * 24 * 3600_000;
const address = { street_name: '5 Broad Street', city: 'Monrovia', state: 'Montserrado', country: 'Liberia', zip: '1000' };

beforeAll(async () => {
  s = await startServer({ clock: () => time });
  admin = await s.login(demo.admin.email, demo.admin.password);
  seller = await s.userWith([1, 2]);
  category = await newCategory(s, admin, `Sweep goods ${Date.now()}`);
  const shop = await s.post('/shop', { ...shopBody(`Sweep shop ${seller.id}`), category_id: category.id }, seller.token);
  expect(shop.body.status).toBe(true);
  shopId = shop.body.detail.id;
});
afterAll(() => s.close());

let made = 0;
async function product(inStock: number): Promise<number> {
  const res = await s.post('/product', productBody(shopId, category, `Kettle ${++made}`, { in_stock: inStock }), seller.token);
  expect(res.body.status).toBe(true);
  return res.body.detail.id;
}
async function buy(productId: number, quantity: number): Promise<{ id: number; total: number }> {
  const res = await s.post('/order', { shop_id: shopId, items: [{ product_id: productId, quantity }], shipping_address: address }, (await s.userWith([1])).token);
  expect(res.body.status).toBe(true);
  return res.body.detail;
}
/** An order paid in full and delivered: its earnings are due for release once the payout hold is over. */
async function delivered(productId: number): Promise<number> {
  const order = await buy(productId, 1);
  expect((await s.post('/order', { id: order.id, paid_total: order.total }, admin)).body.status).toBe(true);
  expect((await s.post('/order/status', { id: order.id, status: 5 }, admin)).body.status).toBe(true);
  return order.id;
}
const orderRow = (id: number) => s.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const stockOf = async (id: number) => Number((await s.db.selectFrom('products').select('in_stock').where('id', '=', id).executeTakeFirstOrThrow()).in_stock);
const releasedAt = async (orderId: number) =>
  (await s.db.selectFrom('order_earnings').select('released_at').where('order_id', '=', orderId).executeTakeFirstOrThrow()).released_at;

/** Sweeps as every API process does at `at`, answering what was reported. */
async function sweep(at: number): Promise<unknown[]> {
  const reported: unknown[] = [];
  await sweepEntities(s.db, registry.entities, at, undefined, (error) => reported.push(error));
  return reported;
}
/** The record ids of what was reported, and each report's words. */
const reportsOf = (reported: unknown[]) =>
  reported.map((error) => (error instanceof SweepError ? { what: error.what, id: error.recordId, message: error.message } : error));

let triggers = 0;
/**
 * Has the database refuse inserts into `table` of the rows `when` (SQL on `new`) picks, by a trigger;
 * answers how to lift it.
 */
async function refuse(table: string, when: string): Promise<() => Promise<void>> {
  const name = `refuse_${++triggers}`;
  if (dialect === 'sqlite') {
    await sql.raw(`create trigger ${name} before insert on "${table}" when ${when} begin select raise(abort, 'refused by ${name}'); end`).execute(s.db);
    return async () => void (await sql.raw(`drop trigger ${name}`).execute(s.db));
  }
  await sql.raw(`create function ${name}() returns trigger language plpgsql as $$ begin raise exception 'refused by ${name}'; end $$`).execute(s.db);
  await sql.raw(`create trigger ${name} before insert on "${table}" for each row when (${when}) execute function ${name}()`).execute(s.db);
  return async () => {
    await sql.raw(`drop trigger ${name} on "${table}"`).execute(s.db);
    await sql.raw(`drop function ${name}()`).execute(s.db);
  };
}

describe('a record that fails', () => {
  it('leaves the other unpaid orders whose hold has ended to be cancelled, is rolled back, reported once a run and tried again', async () => {
    const id = await product(10);
    // Placed first, so it comes first in the sweep.
    const refused = await buy(id, 2);
    const other = await buy(id, 3);
    const held = (await orderRow(refused.id)).hold_until;
    expect(await stockOf(id)).toBe(5);
    // Its cancellation fails at its timeline's line, after it was claimed and its stock given back.
    const lift = await refuse('orderEvents', `new.order_id = ${refused.id}`);

    const reported = await sweep(time + HOLD_MS);
    expect((await orderRow(other.id)).status).toBe(6);
    const row = await orderRow(refused.id);
    expect([row.status, row.hold_until, row.stock_returned_at]).toEqual([1, held, null]);
    expect(await stockOf(id)).toBe(8);
    expect(reportsOf(reported)).toEqual([{ what: 'order', id: refused.id, message: expect.stringMatching(new RegExp(`^Sweeping order ${refused.id} failed: .*refused by refuse_`)) }]);

    // The next run tries it again, once.
    expect(reportsOf(await sweep(time + HOLD_MS + 60_000)).map((r) => (r as { id: number }).id)).toEqual([refused.id]);
    await lift();
    expect(await sweep(time + HOLD_MS + 120_000)).toEqual([]);
    expect((await orderRow(refused.id)).status).toBe(6);
    expect(await stockOf(id)).toBe(10);
  });

  it("leaves the other delivered orders' earnings to be released, is rolled back, reported and tried again", async () => {
    const id = await product(10);
    const refused = await delivered(id);
    const other = await delivered(id);
    const lift = await refuse('ledger_entries', `new.order_id = ${refused} and new.kind = 'release'`);

    const reported = await sweep(time + RELEASE_MS);
    expect(await releasedAt(other)).not.toBeNull();
    expect(await releasedAt(refused)).toBeNull();
    expect(reportsOf(reported)).toEqual([{ what: 'the earnings of order', id: refused, message: expect.stringMatching(`^Sweeping the earnings of order ${refused} failed: `) }]);

    await lift();
    expect(await sweep(time + RELEASE_MS + 60_000)).toEqual([]);
    expect(await releasedAt(refused)).not.toBeNull();
  });
});

describe('a sweep walking its records', () => {
  it('goes on past a whole page of records that fail, to the records after them', async () => {
    const records: Due[] = Array.from({ length: SWEEP_PAGE + 3 }, (_, i) => ({ id: i + 1, at: '2026-03-02T10:00:00.000Z' }));
    const page = async (after: Due | undefined, limit: number) => records.filter((r) => !after || r.id > after.id).slice(0, limit);
    const reported: unknown[] = [];
    const done: number[] = [];
    const changed = await sweepEach({ db: s.db, report: (error) => reported.push(error) }, 'record', page, async (_trx, id) => {
      if (id <= SWEEP_PAGE) throw new Error('refused');
      done.push(id);
      return true;
    });
    expect(done).toEqual([SWEEP_PAGE + 1, SWEEP_PAGE + 2, SWEEP_PAGE + 3]);
    expect(changed).toBe(3);
    expect(reportsOf(reported).map((r) => (r as { id: number }).id)).toEqual(records.slice(0, SWEEP_PAGE).map((r) => r.id));
  });

  it('reads the page after a record in (time, id) order', async () => {
    const id = await product(10);
    const placed = [await buy(id, 1), await buy(id, 1), await buy(id, 1)].map((o) => o.id);
    await s.db.updateTable('orders').set({ hold_until: '2026-03-02T09:00:00.000Z' }).where('id', '=', placed[2]).execute();
    const after = async (after: Due) =>
      dueOf(await s.db.selectFrom('orders').select(['id', 'hold_until as at']).where('id', 'in', placed).where(pastDue('hold_until', 'id', after))
        .orderBy('hold_until').orderBy('id').execute()).map((due) => due.id);
    const [first, second, earliest] = await Promise.all(placed.map(orderRow));
    expect(await after({ id: Number(earliest.id), at: String(earliest.hold_until) })).toEqual([placed[0], placed[1]]);
    expect(await after({ id: Number(first.id), at: String(first.hold_until) })).toEqual([placed[1]]);
    expect(await after({ id: Number(second.id), at: String(second.hold_until) })).toEqual([]);
  });

  it('stops between two records once the process is stopping', async () => {
    const records: Due[] = [1, 2, 3].map((id) => ({ id, at: '2026-03-02T10:00:00.000Z' }));
    const done: number[] = [];
    const changed = await sweepEach({ db: s.db, report: () => undefined, stopping: () => done.length === 2 }, 'record', async () => records, async (_trx, id) => {
      done.push(id);
      return true;
    });
    expect([changed, done]).toEqual([2, [1, 2]]);
  });
});

describe('an entity whose sweep fails', () => {
  it("stops no other entity's sweep, and is reported naming the entity", async () => {
    const sweeping = [...(await loadHooks(registry.entities))].filter(([, hooks]) => hooks.sweep);
    expect(sweeping.length).toBeGreaterThan(1);
    const [[failing, first], ...rest] = sweeping;
    const broken = vi.spyOn(first, 'sweep').mockRejectedValue(new Error('the table is gone'));
    const others = rest.map(([, hooks]) => vi.spyOn(hooks, 'sweep'));
    try {
      const reported = await sweep(time + 2 * RELEASE_MS);
      expect(reportsOf(reported)).toEqual([{ what: failing, id: null, message: `Sweeping ${failing} failed: the table is gone` }]);
      for (const spy of others) expect(spy).toHaveBeenCalledTimes(1);

      // Without a place to report to, the failures are thrown once every sweep has run.
      const before = others.map((spy) => spy.mock.calls.length);
      await expect(sweepEntities(s.db, registry.entities, time + 2 * RELEASE_MS)).rejects.toThrow(`Sweeping ${failing} failed: the table is gone`);
      expect(others.map((spy) => spy.mock.calls.length)).toEqual(before.map((n) => n + 1));

      // The schedule reports to its error log the same way.
      const logged: unknown[] = [];
      await scheduleSweeps(s.db, registry.entities, 3600_000, (error) => logged.push(error))();
      expect(reportsOf(logged)).toEqual([{ what: failing, id: null, message: `Sweeping ${failing} failed: the table is gone` }]);
    } finally {
      broken.mockRestore();
      for (const spy of others) spy.mockRestore();
    }
  });
});
