/**
 * Where the dashboard's numbers come from: the reference server's aggregate endpoint, or, from a
 * server that speaks only the contract (it answers 404), SPEC §2.8's way: /search-dive with an empty
 * value on each list, and the rules of the cards applied here to the rows it returns.
 */
import { format, subDays } from 'date-fns';
import { PATHS, convert, roleOf, type Info, type Rate } from '../../contract';
import { getSession } from '../../authProvider/session';
import {
  DASHBOARD_PATH, MONEY_TYPES, cardsFor, countRoles, moneyCardOf, totalsByCurrency,
  type DashboardCharts, type DashboardStats, type DashboardViewer, type MoneyType,
} from '../../contract/dashboard';

/** A contract call: resolves to the envelope, rejects with `{status}` (the HTTP status) on refusal. */
export type Post = (path: string, body: object) => Promise<Info>;

export interface Range {
  from: string;
  to: string;
}

const day = (date: Date) => format(date, 'yyyy-MM-dd');

/** The charts' first range: the last 30 days, today included. */
export const lastDays = (): Range => ({ from: day(subDays(new Date(), 29)), to: day(new Date()) });

/**
 * The dashboard's numbers as one react-query query, keyed by the signed-in account (read from the
 * session, so the query can start before the profile has arrived) and the range.
 */
export function statsQuery(post: Post, viewer: () => Promise<DashboardViewer>, range: Range) {
  return { queryKey: ['dashboard', getSession()?.id, range], queryFn: () => loadStats(post, viewer, range) };
}

/** SPEC §7.7: the exchange rates' list call. */
const EXCHANGES_LIST = '/exchangess';

/** SPEC §2.8 / §9.4: the keyIndex of each list the dashboard searches. */
export const KEY_INDEX = { users: 0, orders: 4, products: 7, shops: 10, records: 12 } as const;

type Rec = Record<string, unknown>;

const same = (a: unknown, b: unknown) => a !== undefined && a !== null && String(a) === String(b);

/** Charts from order rows, as the aggregate endpoint computes them. */
export function chartsOf(orders: readonly Rec[], range: Range, rates: readonly Rate[]): DashboardCharts {
  const inRange = orders.filter((o) => {
    const day = String(o.created_at ?? '').slice(0, 10);
    return day >= range.from && day <= range.to;
  });
  const perDay = new Map<string, { day: string; currency: string; count: number; amounts: number[] }>();
  const byStatus = new Map<number, number>();
  const byShop = new Map<number, { name: string; rows: Rec[] }>();
  for (const o of inRange) {
    const currency = typeof o.currency === 'string' && o.currency ? o.currency.toUpperCase() : 'USD';
    const day = String(o.created_at).slice(0, 10);
    const key = `${day} ${currency}`;
    const entry = perDay.get(key) ?? { day, currency, count: 0, amounts: [] };
    entry.count += 1;
    entry.amounts.push(Number(o.paid_total_fxws ?? 0));
    perDay.set(key, entry);
    const status = Number(typeof o.status === 'object' && o.status ? (o.status as Rec).id : o.status);
    byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
    const shopId = Number(o.shop_id ?? (o.shop as Rec | undefined)?.id);
    const shop = byShop.get(shopId) ?? { name: String((o.shop as Rec | undefined)?.name ?? `#${shopId}`), rows: [] };
    shop.rows.push({ amount: o.paid_total_fxws, currency });
    byShop.set(shopId, shop);
  }
  const shops = [...byShop].map(([id, s]) => ({ id, name: s.name, totals: totalsByCurrency(s.rows) }));
  const inDollars = (totals: { amount: number; currency: string | null }[]) =>
    totals.reduce((sum, t) => sum + convert(t.amount, t.currency, 'USD', rates), 0);
  return {
    ...range,
    perDay: [...perDay.values()]
      .sort((a, b) => a.day.localeCompare(b.day) || a.currency.localeCompare(b.currency))
      .map((e) => ({ day: e.day, currency: e.currency, count: e.count, amount: Math.round(e.amounts.reduce((s, a) => s + a, 0) * 100) / 100 })),
    byStatus: [...byStatus].sort((a, b) => a[0] - b[0]).map(([status, count]) => ({ status, count })),
    topShops: shops.sort((a, b) => inDollars(b.totals) - inDollars(a.totals) || a.id - b.id).slice(0, 5),
  };
}

/** SPEC §2.8's way, the defects fixed (DESIGN D2): every list searched with an empty value. */
export async function statsBySearch(post: Post, viewer: DashboardViewer, range: Range, rates: readonly Rate[]): Promise<DashboardStats> {
  const role = roleOf(viewer.abilities);
  const cards = cardsFor(viewer);
  const search = async (keyIndex: number): Promise<Rec[] | undefined> => {
    try {
      const { HLL } = await post(PATHS.search, { keyIndex, value: '', targets: ['id'] });
      return Array.isArray(HLL) ? (HLL as Rec[]) : [];
    } catch {
      return undefined; // refused or failed: the card is left out
    }
  };
  const admin = role === 'admin';
  const [shops = [], products = []] = await Promise.all([search(KEY_INDEX.shops), search(KEY_INDEX.products)]);
  const stats: DashboardStats = {
    role,
    shops: admin ? shops.length : shops.filter((s) => same(s.owner_id, viewer.id)).length,
    products: admin ? products.length : products.filter((p) => same((p.shop as Rec | undefined)?.owner_id, viewer.id)).length,
  };
  if (cards.orders) {
    const all = await search(KEY_INDEX.orders);
    if (all) {
      const mine = admin
        ? all
        : role === 'seller'
          ? all.filter((o) => same((o.shop as Rec | undefined)?.owner_id, viewer.id))
          : all.filter((o) => same(o.customer_id, viewer.id));
      stats.orders = { count: mine.length, totals: totalsByCurrency(mine.map((o) => ({ amount: o.paid_total_fxws, currency: o.currency }))) };
      stats.charts = chartsOf(mine, range, rates);
    }
  }
  if (cards.money) {
    const records = await search(KEY_INDEX.records);
    if (records) {
      stats.money = Object.fromEntries(MONEY_TYPES.map((type) => [type, moneyCardOf(records, type)])) as Record<MoneyType, ReturnType<typeof moneyCardOf>>;
    }
  }
  if (cards.people) {
    const users = await search(KEY_INDEX.users);
    if (users) stats.people = countRoles(users);
  }
  return stats;
}

/**
 * The aggregate endpoint when the server has it; SPEC §2.8's search-dive when it answers 404 (only
 * then is the viewer's profile needed, so the numbers are asked for without waiting for it).
 */
export async function loadStats(
  post: Post,
  viewer: () => Promise<DashboardViewer>,
  range: Range,
): Promise<{ stats: DashboardStats; source: 'aggregate' | 'search' }> {
  try {
    const { detail } = await post(DASHBOARD_PATH, range);
    return { stats: detail as DashboardStats, source: 'aggregate' };
  } catch (error) {
    if ((error as { status?: unknown }).status !== 404) throw error;
  }
  // The rates rank the top shops in one currency: read as the currency display reads them (SPEC §7.7).
  const rates = await post(EXCHANGES_LIST, {}).then(({ HLL }) => (Array.isArray(HLL) ? (HLL as Rate[]) : []), () => []);
  return { stats: await statsBySearch(post, await viewer(), range, rates), source: 'search' };
}
