/**
 * The dashboard's order counters: a table derived from orders, kept by triggers, registered here by
 * the module that reads it (server/routes/dashboard.ts), so the shared schema code names no entity.
 */
import { keptSumsTriggers, registerDerivedTable, type KeptSums } from './db';

/**
 * ORDER_STATS holds, per day, currency and status, how many orders there are and their paid total,
 * kept by triggers in the writing transaction: the admins' dashboard reads a few thousand counters
 * instead of a million orders. A missing currency is stored as '', a missing status as 0.
 */
export const ORDER_STATS = 'order_stats';

/** An order's day, currency and paid total as the kept sums key and add them. */
export const orderDay = { type: 'varchar(10)', of: (r: string) => `coalesce(substr(${r}created_at, 1, 10), '')` };
export const orderCurrency = { type: 'varchar(16)', of: (r: string) => `coalesce(${r}currency, '')` };
export const orderPaid = { type: 'double precision', of: (r: string) => `coalesce(${r}paid_total_fxws, 0)` };
/** Counts the orders. */
export const orderCount = { type: 'integer', of: () => '1' };

const kept: KeptSums = {
  table: ORDER_STATS,
  source: 'orders',
  trigger: 'orders_stats',
  keys: {
    day: orderDay,
    currency: orderCurrency,
    status: { type: 'integer', of: (r) => `coalesce(${r}status, 0)` },
  },
  sums: { n: orderCount, amount: orderPaid },
  watched: ['created_at', 'currency', 'status', 'paid_total_fxws'],
};

registerDerivedTable({
  name: ORDER_STATS,
  source: 'orders',
  // The dashboard's aggregates read these alone (covering): all orders, a seller's shops, a range of days.
  sourceIndexes: [
    ['currency', 'paid_total_fxws'], ['shop_id', 'created_at', 'status', 'currency', 'paid_total_fxws'],
    ['created_at', 'shop_id', 'status', 'currency', 'paid_total_fxws'],
  ],
  migrate: (db, dialect, existed) => keptSumsTriggers(db, dialect, kept, existed),
});
