/**
 * The dashboard's top five shops from the kept totals (server/topShops.ts): the threshold algorithm
 * against a full sort of every shop, its stopping rule on both sides (a shop not read yet that would
 * still rank, ties by id, the read budget), and the table the triggers keep on a real SQLite.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase, type Database, type DB } from '../../server/db';
import { keptTopShops, SHOP_DAY_TOTALS, thresholdTop, type ThresholdSource } from '../../server/topShops';
import type { Rate } from '../../contract';

/** Entries per list: shop id and amount in the list's currency. */
type Lists = { currency: string; entries: [number, number][] }[];
const FACTORS: Record<string, number> = { USD: 1, EUR: 1.25, NGN: 0.001, ZZZ: 0 };

/** Each shop's amounts added up within each currency (of the shops `only` keeps). */
function totalsOf(lists: Lists, only: (id: number) => boolean = () => true) {
  const totals = new Map<number, Map<string, number>>();
  for (const l of lists) {
    for (const [id, amount] of l.entries) {
      if (!only(id)) continue;
      const mine = totals.get(id) ?? new Map<string, number>();
      mine.set(l.currency, (mine.get(l.currency) ?? 0) + amount);
      totals.set(id, mine);
    }
  }
  return totals;
}

function memorySource(lists: Lists) {
  const reads: number[] = [];
  /** The ids of each call for totals. */
  const totalled: number[][] = [];
  const ranked = lists.map((l, i) => ({
    key: String(i),
    factor: FACTORS[l.currency],
    sorted: l.entries.filter(([, a]) => a > 0).sort((a, b) => b[1] - a[1] || a[0] - b[0]),
  }));
  const source: ThresholdSource<(typeof ranked)[number]> = {
    lists: ranked,
    factor: (c) => FACTORS[c],
    async read(list, after, limit) {
      const from = after ? list.sorted.findIndex(([id, a]) => a === after.amount && id === after.id) + 1 : 0;
      const out = list.sorted.slice(from, from + limit).map(([id, amount]) => ({ id, amount }));
      reads.push(out.length);
      return out;
    },
    async totals(ids) {
      totalled.push([...ids]);
      return totalsOf(lists, (id) => ids.includes(id));
    },
  };
  return { source, reads, totalled };
}

/**
 * Every shop's dollars, fully sorted (the ranking the dashboard promises): a shop's amounts are added
 * within each currency, and each currency's total is then worth its factor. Converting each entry
 * before adding would split ties by rounding (NGN 40 + 10 + 10 against NGN 20 + 40).
 */
function bruteForce(lists: Lists, k: number) {
  const dollars = [...totalsOf(lists)].map(([id, mine]) => [id, [...mine].reduce((sum, [currency, amount]) => sum + amount * FACTORS[currency], 0)] as [number, number]);
  return dollars.sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, k);
}

/** A list holds a shop once (a shop's total for that day and currency). */
const listArb = fc.record({
  currency: fc.constantFrom('USD', 'EUR', 'NGN', 'ZZZ'),
  entries: fc.uniqueArray(fc.tuple(fc.integer({ min: 1, max: 40 }), fc.constantFrom(0, 5, 10, 10, 20, 40, 80, 160, 1000)), { selector: ([id]) => id, maxLength: 30 }),
});

describe('thresholdTop', () => {
  it('ranks as a full sort of every shop whenever it answers, and answers whenever five shops have dollars and the budget allows', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(listArb, { maxLength: 8 }), async (lists) => {
        const { source } = memorySource(lists);
        const got = await thresholdTop(source, 5, { budget: 100_000 });
        const want = bruteForce(lists, 5);
        if (want.length === 5 && want[4][1] > 0) {
          expect(got?.map((s) => s.id)).toEqual(want.map(([id]) => id));
          for (const [i, shop] of got!.entries()) expect(shop.dollars).toBeCloseTo(want[i][1], 9);
        } else expect(got).toBeUndefined();
      }),
      { numRuns: 400 },
    );
  });

  it('ranks a tie within one currency by id, however the amounts were split across days', async () => {
    // Shop 28 has NGN 40 + 10 + 10, shop 24 NGN 20 + 40: both NGN 60, so 24 comes first; 2 and 3 have 40.
    const lists = [
      { currency: 'NGN', entries: [[28, 40]] as [number, number][] },
      { currency: 'NGN', entries: [[28, 10], [24, 20]] as [number, number][] },
      { currency: 'NGN', entries: [[28, 10], [1, 10], [24, 40], [2, 40], [3, 40]] as [number, number][] },
    ];
    expect((await thresholdTop(memorySource(lists).source, 5, { budget: 100_000 }))?.map((s) => s.id)).toEqual([24, 28, 2, 3, 1]);
    expect(bruteForce(lists, 5).map(([id]) => id)).toEqual([24, 28, 2, 3, 1]);
  });

  it('stops after the first entries when a shop not read yet cannot rank: ties go to the smaller id', async () => {
    const entries = Array.from({ length: 1000 }, (_, i) => [i + 1, 10] as [number, number]);
    const { source, reads } = memorySource([{ currency: 'USD', entries }]);
    const got = await thresholdTop(source, 5, { budget: 4096 });
    expect(got?.map((s) => s.id)).toEqual([1, 2, 3, 4, 5]);
    expect(reads.reduce((a, b) => a + b, 0)).toBe(8);
    // A budget of those eight entries is enough; one less is not.
    expect((await thresholdTop(memorySource([{ currency: 'USD', entries }]).source, 5, { budget: 8 }))?.map((s) => s.id)).toEqual([1, 2, 3, 4, 5]);
    expect(await thresholdTop(memorySource([{ currency: 'USD', entries }]).source, 5, { budget: 7 })).toBeUndefined();
  });

  it('reads on while a shop not read yet could still rank: its amounts in two lists add up past the fifth', async () => {
    // Shops 1-5 lead each list alone; shop 99 is sixth in both, but 60 + 60 beats 100 + 0.
    const a: [number, number][] = [[1, 100], [2, 100], [3, 100], [4, 100], [5, 100], [6, 61], [7, 61], [8, 61], [99, 60]];
    const b: [number, number][] = [[11, 100], [12, 100], [13, 100], [14, 100], [15, 100], [16, 61], [17, 61], [18, 61], [99, 60]];
    const lists = [{ currency: 'USD', entries: a }, { currency: 'USD', entries: b }];
    // The fifth shop's 100 is more than half of the 122 a shop not met could reach: it reads on.
    const got = await thresholdTop(memorySource(lists).source, 5, { budget: 4096, hopeless: 0.5 });
    expect(got?.map((s) => s.id)).toEqual([99, 1, 2, 3, 4]);
  });

  it('gives up when the fifth shop has less than the hopeless share of what a shop not met could reach', async () => {
    // Shops of like size, each selling in one currency: every list read adds to what a shop not met could reach.
    const lists = [
      { currency: 'USD', entries: Array.from({ length: 20 }, (_, i) => [i + 1, 100 - i] as [number, number]) },
      { currency: 'EUR', entries: Array.from({ length: 20 }, (_, i) => [i + 21, 100 - i] as [number, number]) },
    ];
    // After the first eight of each, the fifth (EUR 96) has 120 dollars, a shop not met up to 93 + 1.25 × 93 = 209.25: 57%.
    expect(await thresholdTop(memorySource(lists).source, 5, { budget: 4096, hopeless: 0.5 })).toBeDefined();
    expect(await thresholdTop(memorySource(lists).source, 5, { budget: 4096, hopeless: 0.6 })).toBeUndefined();
    expect((await thresholdTop(memorySource(lists).source, 5, { budget: 4096 }))?.map((s) => s.id)).toEqual(bruteForce(lists, 5).map(([id]) => id));
    // Exactly the share: it reads on. Shop 1 has 100 after the first eight of each list, a shop not met up to 200;
    // shop 50, ninth in both, has 200.
    const hundreds = (ids: number[]) => ids.map((id) => [id, 100] as [number, number]);
    const even = [{ currency: 'USD', entries: hundreds([1, 2, 3, 4, 5, 6, 7, 8, 50]) }, { currency: 'USD', entries: hundreds([11, 12, 13, 14, 15, 16, 17, 18, 50]) }];
    expect((await thresholdTop(memorySource(even).source, 1, { budget: 4096, hopeless: 0.5 }))?.map((s) => s.id)).toEqual([50]);
  });

  it('on a tie with what a shop not read yet could reach, answers only when that shop would come after by id', async () => {
    const tens = (ids: number[]) => ids.map((id) => [id, 10] as [number, number]);
    const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
    // Shop 200 leads with 20; shop 95, tenth in both lists, also reaches 20 and comes first by id.
    const later = [{ currency: 'USD', entries: [[200, 20] as [number, number], ...tens([...range(10, 16), 95])] }, { currency: 'USD', entries: tens([...range(20, 27), 95]) }];
    expect((await thresholdTop(memorySource(later).source, 1, { budget: 4096 }))?.map((s) => s.id)).toEqual([95]);
    // Shop 90 reaches 20 among the first eight of both lists, and any shop after them has a larger id: settled there.
    const settled = [{ currency: 'USD', entries: tens([...range(10, 16), 90, 95]) }, { currency: 'USD', entries: tens([...range(20, 26), 90, 95]) }];
    const { source, reads } = memorySource(settled);
    expect((await thresholdTop(source, 1, { budget: 4096 }))?.map((s) => s.id)).toEqual([90]);
    expect(reads).toEqual([8, 8]);
  });

  it('reads 8, 16, 32... entries a round, stops as soon as the fifth is settled, and totals each shop once, 500 at a time', async () => {
    // Shops 1-5 at 100, then 995 shops with less and less: settled by the first eight.
    const steep = [{ currency: 'USD', entries: Array.from({ length: 1000 }, (_, i) => [i + 1, i < 5 ? 100 : 50 - i / 100] as [number, number]) }];
    const first = memorySource(steep);
    expect((await thresholdTop(first.source, 5, { budget: 4096 }))?.map((s) => s.id)).toEqual([1, 2, 3, 4, 5]);
    expect(first.reads).toEqual([8]);
    // Two lists of shops of like size, each shop in one: what a shop not met could reach stays twice the
    // fifth's until the shorter list (600) is read to its end, at the seventh round.
    const a = Array.from({ length: 600 }, (_, i) => [i + 1, 100 - i / 1000] as [number, number]);
    const b = Array.from({ length: 2000 }, (_, i) => [2001 + i, 100 - i / 10000 - 0.00005] as [number, number]);
    const lists = [{ currency: 'USD', entries: a }, { currency: 'USD', entries: b }];
    const run = memorySource(lists);
    const got = await thresholdTop(run.source, 5, { budget: 4096 });
    expect(got?.map((s) => s.id)).toEqual(bruteForce(lists, 5).map(([id]) => id));
    expect(run.reads).toEqual([8, 8, 16, 16, 32, 32, 64, 64, 128, 128, 256, 256, 96, 512]);
    // 608 shops met in the last round: totalled 500, then 108; none twice.
    expect(run.totalled.map((ids) => ids.length).slice(-2)).toEqual([500, 108]);
    const all = run.totalled.flat();
    expect(new Set(all).size).toBe(all.length);
    // The budget counts each round's largest read before it is made: 1,008 read, then 2 × 512.
    expect(await thresholdTop(memorySource(lists).source, 5, { budget: 2031 })).toBeUndefined();
    expect(await thresholdTop(memorySource(lists).source, 5, { budget: 2032 })).toBeDefined();
  });

  it('gives up past its budget (the caller then groups the orders), and answers within it', async () => {
    const entries = Array.from({ length: 100 }, (_, i) => [i + 1, 1000 - i] as [number, number]);
    const lists = Array.from({ length: 6 }, () => ({ currency: 'USD', entries: entries.map(([id, amount]) => [id, amount + (id % 7)] as [number, number]) }));
    expect(await thresholdTop(memorySource(lists).source, 5, { budget: 6 * 8 - 1 })).toBeUndefined();
    expect((await thresholdTop(memorySource(lists).source, 5, { budget: 100_000 }))?.map((s) => s.id)).toEqual(bruteForce(lists, 5).map(([id]) => id));
  });

  it('leaves currencies worth nothing out of the ranking, and does not answer with fewer than five shops with dollars', async () => {
    const lists = [
      { currency: 'ZZZ', entries: [[1, 1000], [2, 1000], [3, 1000], [4, 1000], [5, 1000]] as [number, number][] },
      { currency: 'USD', entries: [[6, 1], [7, 1], [8, 1], [9, 1]] as [number, number][] },
    ];
    expect(await thresholdTop(memorySource(lists).source, 5, { budget: 4096 })).toBeUndefined();
    lists[1].entries.push([10, 1]);
    expect((await thresholdTop(memorySource(lists).source, 5, { budget: 4096 }))?.map((s) => s.id)).toEqual([6, 7, 8, 9, 10]);
  });
});

describe('the kept totals on SQLite', () => {
  let database: Database;
  let db: DB;
  const rates: Rate[] = [{ code: 'USD', value_per_dollar: 1 }, { code: 'EUR', value_per_dollar: 0.8 }];
  const range = { from: '2026-03-01', to: '2026-03-31' };
  beforeAll(async () => {
    database = openDatabase({});
    db = database.db;
    await migrate(database);
  });
  afterAll(() => database.close());

  const order = (shop: number | null, day: string, currency: string | null, paid: number) =>
    db.insertInto('orders').values({ shop_id: shop, customer_id: 1, currency, paid_total_fxws: paid, created_at: `${day}T10:00:00.000Z`, updated_at: `${day}T10:00:00.000Z` }).returning('id').executeTakeFirstOrThrow();
  const kept = async () => Object.fromEntries((await db.selectFrom(SHOP_DAY_TOTALS).selectAll().where('n', '!=', 0).execute()).map((r) => [`${r.shop_id} ${r.day} ${r.currency}`, [Number(r.n), Number(r.amount)]]));

  it('keeps each shop\'s total per day and currency through inserts, updates and deletes, and ranks from them', async () => {
    const first = await order(1, '2026-03-02', 'USD', 30);
    await order(1, '2026-03-02', 'USD', 20);
    await order(2, '2026-03-02', 'EUR', 40);
    await order(null, '2026-03-02', 'USD', 999);
    expect(await kept()).toEqual({ '1 2026-03-02 USD': [2, 50], '2 2026-03-02 EUR': [1, 40] });
    await db.updateTable('orders').set({ shop_id: 3, currency: '', created_at: '2026-03-05T01:00:00.000Z' }).where('id', '=', first.id).execute();
    expect(await kept()).toEqual({ '1 2026-03-02 USD': [1, 20], '2 2026-03-02 EUR': [1, 40], '3 2026-03-05 ': [1, 30] });
    await db.deleteFrom('orders').where('id', '=', first.id).execute();
    expect(await kept()).toEqual({ '1 2026-03-02 USD': [1, 20], '2 2026-03-02 EUR': [1, 40] });
    for (const [shop, paid] of [[4, 10], [5, 25], [6, 5], [7, 49]]) await order(shop, '2026-03-20', 'USD', paid);
    // Out of the range: not counted. An order written and deleted leaves no currency in a shop's totals.
    await order(8, '2026-04-01', 'USD', 500);
    const gone = await order(2, '2026-03-03', 'GBP', 7);
    await db.deleteFrom('orders').where('id', '=', gone.id).execute();
    const top = await keptTopShops(db, range, rates, 5);
    // EUR 40 is 50 dollars; shop 1's 20 and shop 7's 49 follow.
    expect(top?.map((s) => [s.id, s.dollars])).toEqual([[2, 50], [7, 49], [5, 25], [1, 20], [4, 10]]);
    expect(top?.[0].totals).toEqual(new Map([['EUR', 40]]));
  });

  it('reads a list on past a run of equal totals, then the smaller ones; no currency is US dollars, a code is read without case or spaces', async () => {
    const may = { from: '2026-05-01', to: '2026-05-31' };
    // 10 May: shops 101-110 at 100, shop 150 at 90. 11 May: shops 111-118 at 100, shop 150 at 90, shops
    // 201-220 at 88, shop 109 at 85. Shop 109 (185) is met only by reading 10 May on past 108's 100.
    for (let shop = 101; shop <= 110; shop++) await order(shop, '2026-05-10', 'USD', 100);
    for (let shop = 111; shop <= 118; shop++) await order(shop, '2026-05-11', 'USD', 100);
    for (let shop = 201; shop <= 220; shop++) await order(shop, '2026-05-11', 'USD', 88);
    await order(150, '2026-05-10', 'USD', 90);
    await order(150, '2026-05-11', 'USD', 90);
    await order(109, '2026-05-11', 'USD', 85);
    expect((await keptTopShops(db, may, rates, 5))?.map((s) => [s.id, s.dollars])).toEqual([[109, 185], [150, 180], [101, 100], [102, 100], [103, 100]]);
    // Shop 160: 50 with no currency and 80 written ' eur ' (100 dollars) on 12 May.
    await order(160, '2026-05-12', '', 50);
    await order(160, '2026-05-12', ' eur ', 80);
    expect((await keptTopShops(db, may, rates, 5))?.map((s) => [s.id, s.dollars])).toEqual([[109, 185], [150, 180], [160, 150], [101, 100], [102, 100]]);
  });

  it('leaves the ranking to the orders when shops of like size sell in different currencies', async () => {
    const june = { from: '2026-06-01', to: '2026-06-30' };
    const withPounds = [...rates, { code: 'GBP', value_per_dollar: 0.5 }];
    // Twenty shops in each currency, 100 each: the fifth has 200 dollars, a shop not met up to 100 + 125 + 200.
    for (const [k, currency] of ['USD', 'EUR', 'GBP'].entries()) {
      for (let shop = 0; shop < 20; shop++) await order(300 + k * 20 + shop, '2026-06-02', currency, 100);
    }
    expect(await keptTopShops(db, june, withPounds, 5)).toBeUndefined();
  });
});
