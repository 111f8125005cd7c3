/**
 * POST /dashboard {from?, to?}: the dashboard's statistics as SQL aggregates (an extension, DESIGN §1;
 * 404 in strict mode, where the console counts through /search-dive instead). Scoped as SPEC §2.8
 * and DESIGN D2 say: admins count everything, sellers their shops, their products and their shops'
 * orders, buyers their own orders. Money is summed per currency here and converted by the console.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { roleOf, unitRate, type Rate } from '../../contract';
import {
  DASHBOARD_PATH, MONEY_TYPES, cardsFor, countRoles, type CurrencyTotal, type DashboardCharts, type DashboardStats, type MoneyCard,
} from '../../contract/dashboard';
import { bodyOf, type AppContext } from '../context';
import type { Caller } from '../auth';
import { PAGE_INDEX, type DB, type Row } from '../db';
import { ORDER_STATS } from '../orderStats';
import { keptTopShops } from '../topShops';
import { badRequest } from '../errors';
import { requireCaller } from '../guard';
import { ok } from './common';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const RANGE_DAYS = 30;
const MAX_RANGE_DAYS = 366;
/** The shops the dashboard ranks by their orders' total in the range. */
const TOP_SHOPS = 5;

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** The charts' range: the given days, or the last 30 days ending today. */
export function readRange(body: Record<string, unknown>, today = new Date()): { from: string; to: string } {
  const day = (name: string, value: unknown): string => {
    if (typeof value !== 'string' || !DAY.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) {
      throw badRequest(`${name} must be a date written yyyy-MM-dd`);
    }
    return value;
  };
  const to = day('to', body.to ?? isoDay(today));
  const from = day('from', body.from ?? isoDay(new Date(Date.parse(`${to}T00:00:00Z`) - (RANGE_DAYS - 1) * 86_400_000)));
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000;
  if (days < 0) throw badRequest('from must not be after to');
  if (days >= MAX_RANGE_DAYS) throw badRequest(`The range may cover at most ${MAX_RANGE_DAYS} days`);
  return { from, to };
}

type Who = { role: 'admin' } | { role: 'seller'; id: number } | { role: 'buyer'; id: number };

const ownShops = (db: DB, id: number) => db.selectFrom('shops').select('id').where('owner_id', '=', id);

/** The orders a viewer's cards read: all, their shops' (seller), or their own (buyer). */
function orders(db: DB, who: Who) {
  const query = db.selectFrom('orders');
  if (who.role === 'seller') return query.where('shop_id', 'in', ownShops(db, who.id));
  if (who.role === 'buyer') return query.where('customer_id', '=', who.id);
  return query;
}

const asTotals = (rows: Row[]): CurrencyTotal[] =>
  rows.map((r) => ({ currency: (r.currency as string | null) || 'USD', amount: Math.round(Number(r.amount ?? 0) * 100) / 100 }));

/**
 * What one unit of an order's currency is worth in US dollars, as SQL (SPEC §9.1, `unitRate`): codes
 * compared without case, a missing currency read as USD, one the rates do not know worth 0, as
 * `convert` counts it. The codes and factors are bound values, never text in the statement.
 */
function dollarFactor(rates: readonly Rate[]) {
  const worth = (code: string) => sql`cast(${unitRate(code, 'USD', rates) ?? 0} as double precision)`;
  const cases = [
    sql`when ${''} then ${worth('USD')}`,
    ...rates.map((r) => sql`when ${String(r.code).trim().toLowerCase()} then ${worth(String(r.code))}`),
  ];
  return sql`case lower(trim(coalesce(currency, ''))) ${sql.join(cases, sql` `)} else 0 end`;
}

/** An admin's numbers come from the counters kept per day, currency and status (ORDER_STATS, server/orderStats.ts). */
const stats = (db: DB) => db.selectFrom(ORDER_STATS);

async function ordersCard(db: DB, who: Who): Promise<MoneyCard> {
  const rows = (
    who.role === 'admin'
      ? await stats(db)
          .select(['currency', sql<number>`sum(n)`.as('n'), sql<number>`sum(amount)`.as('amount')])
          .groupBy('currency')
          .orderBy('currency')
          .execute()
      : await orders(db, who)
          .select(['currency', sql<number>`count(*)`.as('n'), sql<number>`sum(paid_total_fxws)`.as('amount')])
          .groupBy('currency')
          .orderBy('currency')
          .execute()
  ).filter((r) => Number(r.n) !== 0);
  return { count: rows.reduce((n, r) => n + Number(r.n), 0), totals: mergeCurrencies(asTotals(rows)) };
}

/** '' and null both read as USD: one total per currency. */
function mergeCurrencies(totals: CurrencyTotal[]): CurrencyTotal[] {
  const out = new Map<string, number>();
  for (const t of totals) out.set(t.currency ?? 'USD', (out.get(t.currency ?? 'USD') ?? 0) + t.amount);
  return [...out].map(([currency, amount]) => ({ currency, amount: Math.round(amount * 100) / 100 }));
}

async function charts(db: DB, who: Who, range: { from: string; to: string }, rates: Rate[]): Promise<DashboardCharts> {
  // created_at is an ISO timestamp: the range is a prefix comparison the created_at index serves.
  const inRange = () =>
    orders(db, who).where('created_at', '>=', range.from).where('created_at', '<', `${range.to}T99`);
  const day = sql<string>`substr(created_at, 1, 10)`;
  const counters = () => stats(db).where('day', '>=', range.from).where('day', '<=', range.to);
  const perDay = (
    who.role === 'admin'
      ? await counters()
          .select(['day', 'currency', sql<number>`sum(n)`.as('n'), sql<number>`sum(amount)`.as('amount')])
          .groupBy(['day', 'currency'])
          .orderBy('day')
          .orderBy('currency')
          .execute()
      : await inRange()
          .select([day.as('day'), 'currency', sql<number>`count(*)`.as('n'), sql<number>`sum(paid_total_fxws)`.as('amount')])
          .groupBy([day, 'currency'])
          .orderBy(day)
          .orderBy('currency')
          .execute()
  ).filter((r) => Number(r.n) !== 0);
  const byStatus = (
    who.role === 'admin'
      ? await counters().select(['status', sql<number>`sum(n)`.as('n')]).groupBy('status').orderBy('status').execute()
      : await inRange().select(['status', sql<number>`count(*)`.as('n')]).groupBy('status').orderBy('status').execute()
  ).filter((r) => Number(r.n) !== 0);
  // The five shops whose orders in the range add up to the most US dollars, ties by id (each
  // currency's amounts times its dollar rate, SPEC §9.1): an admin's from the shops' kept totals per
  // day when they settle it (server/topShops.ts); otherwise ranked by the database over the range's
  // orders, which answers five rows whatever the number of shops, then those five shops' totals.
  const kept = who.role === 'admin' ? await keptTopShops(db, range, rates, TOP_SHOPS) : undefined;
  const top = kept
    ? kept.map((shop) => [shop.id, asTotals([...shop.totals].sort(([a], [b]) => (a < b ? -1 : 1)).map(([currency, amount]) => ({ currency, amount })))] as const)
    : await rankedByOrders(inRange, rates);
  const names = top.length
    ? await db.selectFrom('shops').select(['id', 'name']).where('id', 'in', top.map(([id]) => id)).execute()
    : [];
  return {
    ...range,
    perDay: perDay.map((r) => ({ day: String(r.day), currency: (r.currency as string | null) || 'USD', count: Number(r.n), amount: Math.round(Number(r.amount ?? 0) * 100) / 100 })),
    byStatus: byStatus.map((r) => ({ status: Number(r.status), count: Number(r.n) })),
    topShops: top.map(([id, totals]) => ({ id, name: String(names.find((n) => Number(n.id) === id)?.name ?? `#${id}`), totals })),
  };
}

/** The five shops ranked over the range's orders themselves, and their totals per currency. */
async function rankedByOrders(inRange: () => ReturnType<typeof orders>, rates: Rate[]) {
  const dollars = sql<number>`sum(paid_total_fxws * ${dollarFactor(rates)})`;
  const ranked = await inRange()
    .where('shop_id', 'is not', null)
    .select(['shop_id', dollars.as('dollars')])
    .groupBy('shop_id')
    .orderBy(dollars, 'desc')
    .orderBy('shop_id')
    .limit(TOP_SHOPS)
    .execute();
  const ids = ranked.map((r) => Number(r.shop_id));
  const perShop = ids.length
    ? await inRange()
        .where('shop_id', 'in', ids)
        .select(['shop_id', 'currency', sql<number>`sum(paid_total_fxws)`.as('amount')])
        .groupBy(['shop_id', 'currency'])
        .orderBy('shop_id')
        .orderBy('currency')
        .execute()
    : [];
  return ids.map((id) => [id, asTotals(perShop.filter((r) => Number(r.shop_id) === id))] as const);
}

/**
 * The Commissions card: what the marketplace earned, net of refunds, per currency, from the ledger's
 * maintained totals (never summed across currencies); its count, the sales that earned a commission.
 * A back end without the ledger (the console's search-dive reading) counts commission subscriptions.
 */
export async function commissionsEarned(db: DB): Promise<MoneyCard> {
  const earned = await db
    .selectFrom('ledger_balances')
    .select(['currency', sql<number>`sum(amount)`.as('amount')])
    .where('account', '=', 'commission')
    .groupBy('currency')
    .orderBy('currency')
    .execute();
  const sales = await db.selectFrom('order_earnings').select(sql<number>`count(*)`.as('n')).where('commission', '>', 0).executeTakeFirstOrThrow();
  return {
    count: Number(sales.n),
    totals: earned.filter((r) => Number(r.amount) !== 0).map((r) => ({ currency: String(r.currency), amount: Number(r.amount) / 100 })),
  };
}

export async function dashboardStats(db: DB, caller: Caller, range: { from: string; to: string }): Promise<DashboardStats> {
  const role = roleOf(caller.user.abilities);
  const who: Who = role === 'admin' ? { role } : { role, id: caller.id };
  const cards = cardsFor({ id: caller.id, abilities: caller.user.abilities, granted_accesses: caller.user.granted_accesses });
  // Read from the page counters the list screens keep (PAGE_INDEX, db/triggers.ts): everyone's (owner 0), or
  // the caller's own (shops by owner_id, products by their shop's owner), never a count(*) of the table.
  const owner = who.role === 'admin' ? 0 : who.id;
  const counted = async (table: string) =>
    Number(
      (await db.selectFrom(PAGE_INDEX).select(sql<number>`coalesce(sum(n), 0)`.as('n')).where('tbl', '=', table).where('owner', '=', owner).executeTakeFirstOrThrow()).n,
    );
  const stats: DashboardStats = { role, shops: await counted('shops'), products: await counted('products') };
  if (cards.orders) {
    stats.orders = await ordersCard(db, who);
    const rates = (await db.selectFrom('exchanges').select(['code', 'value_per_dollar']).execute()) as unknown as Rate[];
    stats.charts = await charts(db, who, range, rates);
  }
  if (cards.money) {
    const rows = await db
      .selectFrom('subscriptions')
      .select(['type', 'currency', sql<number>`count(*)`.as('n'), sql<number>`sum(amount)`.as('amount')])
      .where('type', 'in', [...MONEY_TYPES])
      .groupBy(['type', 'currency'])
      .orderBy('currency')
      .execute();
    const card = (type: string): MoneyCard => {
      const mine = rows.filter((r) => r.type === type);
      return { count: mine.reduce((n, r) => n + Number(r.n), 0), totals: asTotals(mine) };
    };
    stats.money = { commission: await commissionsEarned(db), premier: card('premier'), advert: card('advert') };
  }
  if (cards.people) {
    // A handful of distinct ability lists: grouped in SQL, read with the one role rule (D1).
    const groups = await db.selectFrom('users').select(['abilities', sql<number>`count(*)`.as('n')]).groupBy('abilities').execute();
    stats.people = countRoles(groups.map((g) => ({ abilities: g.abilities, count: Number(g.n) })));
  }
  return stats;
}

export async function dashboardRoutes(app: FastifyInstance, { db, config }: AppContext) {
  if (config.strict) return;
  app.post(DASHBOARD_PATH, async (request) => {
    const caller = requireCaller(request.caller);
    const range = readRange(bodyOf(request));
    return ok({ query: 'Dashboard statistics', detail: await dashboardStats(db, caller, range) });
  });
}
