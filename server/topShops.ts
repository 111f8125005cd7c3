/**
 * The dashboard's top five shops without grouping every order of the range. SHOP_DAY_TOTALS keeps,
 * per shop, day and currency, the orders' paid total (triggers, in the writing transaction), and the
 * ranking reads it with the threshold algorithm (Fagin, Lotem and Naor): each day-and-currency list
 * is read from its largest total down, each shop met is totalled over the whole range, and the read
 * stops as soon as no shop not yet met could rank among the five. When the totals are close and a
 * few thousand entries do not settle it, the caller groups the range's orders as before.
 */
import { sql } from 'kysely';
import { unitRate, type Rate } from '../contract';
import { keptSumsTriggers, registerDerivedTable, type Database, type DB, type KeptSums } from './db';
import { ORDER_STATS, orderCount, orderCurrency, orderDay, orderPaid } from './orderStats';

export const SHOP_DAY_TOTALS = 'shop_day_totals';

/** One list of the threshold algorithm: a day's totals in one currency, `factor` US dollars each. */
export interface RankedList {
  key: string;
  factor: number;
}
export interface ListEntry {
  id: number;
  amount: number;
}
export interface RankedShop {
  id: number;
  dollars: number;
  /** The shop's total per currency in the range (the currency as stored; '' for none). */
  totals: Map<string, number>;
}
export interface ThresholdSource<L extends RankedList = RankedList> {
  lists: L[];
  /**
   * Up to `limit` entries of a list with a positive amount, largest first and ties by id, after
   * `after` in that order (from the start when undefined).
   */
  read(list: L, after: ListEntry | undefined, limit: number): Promise<ListEntry[]>;
  /** The shops' totals over the whole range, per currency; a shop with no order in it is left out. */
  totals(ids: number[]): Promise<Map<number, Map<string, number>>>;
  /** US dollars one unit of a currency (as stored) is worth. */
  factor(currency: string): number;
}

const better = (a: RankedShop, b: RankedShop) => b.dollars - a.dollars || a.id - b.id;

/** How long the threshold algorithm reads on. */
export interface Patience {
  /** The entries it may read in all. */
  budget: number;
  /**
   * Gives up after a round in which the k-th shop has less than this share of what a shop not met yet
   * could still reach: the lists' totals are close (shops of like size selling in different
   * currencies), and reading on would rarely settle it within the budget.
   */
  hopeless?: number;
}

/**
 * The `k` shops with the most US dollars, ties by id, when the lists settle it within its patience;
 * undefined otherwise (or when fewer than `k` shops have a positive total, which the lists
 * cannot tell apart from those with none). Amounts are never negative (a paid total's least value is 0),
 * so a shop's total is at most the sum of what it has in each list.
 */
export async function thresholdTop<L extends RankedList>(source: ThresholdSource<L>, k: number, { budget, hopeless = 0 }: Patience): Promise<RankedShop[] | undefined> {
  const lists = source.lists.filter((l) => l.factor > 0);
  const last = new Map<string, ListEntry | undefined>();
  const exhausted = new Set<string>();
  const seen = new Map<number, RankedShop>();
  let read = 0;
  for (let batch = 8; ; batch *= 2) {
    const open = lists.filter((l) => !exhausted.has(l.key));
    if (read + open.length * batch > budget) return undefined;
    const met = new Set<number>();
    for (const list of open) {
      const entries = await source.read(list, last.get(list.key), batch);
      read += entries.length;
      if (entries.length < batch) exhausted.add(list.key);
      if (entries.length) last.set(list.key, entries[entries.length - 1]);
      for (const e of entries) if (!seen.has(e.id)) met.add(e.id);
    }
    const newly = [...met];
    for (let i = 0; i < newly.length; i += 500) {
      const ids = newly.slice(i, i + 500);
      const totals = await source.totals(ids);
      for (const id of ids) {
        const mine = totals.get(id) ?? new Map<string, number>();
        let dollars = 0;
        for (const [currency, amount] of mine) dollars += amount * source.factor(currency);
        seen.set(id, { id, dollars, totals: mine });
      }
    }
    const best = [...seen.values()].sort(better).slice(0, k);
    if (best.length === k) {
      const kth = best[k - 1];
      const still = lists.filter((l) => !exhausted.has(l.key));
      // What a shop not met yet could add up to: at most the last amount read in each list still open.
      const threshold = still.reduce((sum, l) => sum + last.get(l.key)!.amount * l.factor, 0);
      // Equal to it, such a shop would come after each list's last entry, so its id is larger than theirs.
      const highestLastId = Math.max(0, ...still.map((l) => last.get(l.key)!.id));
      if (!still.length || kth.dollars > threshold || (kth.dollars === threshold && kth.id <= highestLastId)) return best;
      if (kth.dollars < threshold * hopeless) return undefined;
    }
    if (lists.every((l) => exhausted.has(l.key))) return undefined;
  }
}

/** What one unit of a stored currency is worth in US dollars, as the dashboard's other sums count it. */
const dollarWorth = (rates: readonly Rate[]) => (currency: string) => unitRate(currency.trim() || 'USD', 'USD', rates) ?? 0;

/** The top `k` shops of the admin's range from the kept totals, or undefined when they do not settle it. */
export async function keptTopShops(db: DB, range: { from: string; to: string }, rates: readonly Rate[], k: number): Promise<RankedShop[] | undefined> {
  const factor = dollarWorth(rates);
  const days = await db
    .selectFrom(ORDER_STATS)
    .select(['day', 'currency'])
    .where('day', '>=', range.from)
    .where('day', '<=', range.to)
    .groupBy(['day', 'currency'])
    .having(sql`sum(n)`, '>', 0)
    .execute();
  const lists = days.map((d) => ({ key: `${d.day} ${d.currency}`, day: String(d.day), currency: String(d.currency), factor: factor(String(d.currency)) }));
  const table = () => db.selectFrom(SHOP_DAY_TOTALS).select(['shop_id', 'amount']);
  return thresholdTop(
    {
      lists,
      factor,
      async read({ day, currency }, after, limit) {
        const ofList = () => table().where('day', '=', day).where('currency', '=', currency);
        const rows = [];
        // The rest of a run of equal amounts, then the smaller ones: each an index range in the list's order.
        if (after) rows.push(...(await ofList().where('amount', '=', after.amount).where('shop_id', '>', after.id).orderBy('shop_id').limit(limit).execute()));
        if (rows.length < limit) {
          let rest = ofList().where('amount', '>', 0);
          if (after) rest = rest.where('amount', '<', after.amount);
          rows.push(...(await rest.orderBy('amount', 'desc').orderBy('shop_id').limit(limit - rows.length).execute()));
        }
        return rows.map((r) => ({ id: Number(r.shop_id), amount: Number(r.amount) }));
      },
      async totals(ids) {
        const rows = await db
          .selectFrom(SHOP_DAY_TOTALS)
          .select(['shop_id', 'currency', sql<number>`sum(amount)`.as('amount'), sql<number>`sum(n)`.as('n')])
          .where('shop_id', 'in', ids)
          .where('day', '>=', range.from)
          .where('day', '<=', range.to)
          .groupBy(['shop_id', 'currency'])
          .execute();
        const out = new Map<number, Map<string, number>>();
        for (const r of rows) {
          if (!(Number(r.n) > 0)) continue;
          const id = Number(r.shop_id);
          if (!out.has(id)) out.set(id, new Map());
          out.get(id)!.set(String(r.currency), Number(r.amount));
        }
        return out;
      },
    },
    k,
    { budget: 4096, hopeless: 0.5 },
  );
}

const kept: KeptSums = {
  table: SHOP_DAY_TOTALS,
  source: 'orders',
  trigger: 'orders_shop_day',
  keys: { shop_id: { type: 'integer', of: (r) => `${r}shop_id` }, day: orderDay, currency: orderCurrency },
  sums: { n: orderCount, amount: orderPaid },
  // An order without a shop is in no shop's total.
  where: (r) => `${r}shop_id is not null`,
  watched: ['shop_id', 'created_at', 'currency', 'paid_total_fxws'],
};

async function shopDayTriggers(db: DB, dialect: Database['dialect'], existed: boolean) {
  await keptSumsTriggers(db, dialect, kept, existed);
  // A list: one day and currency, largest total first, ties by shop.
  if (!existed) await sql.raw(`create index ${SHOP_DAY_TOTALS}_rank_idx on ${SHOP_DAY_TOTALS} (day, currency, amount desc, shop_id)`).execute(db);
}

registerDerivedTable({ name: SHOP_DAY_TOTALS, source: 'orders', migrate: shopDayTriggers });
