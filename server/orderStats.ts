/**
 * The dashboard's order counters: a table derived from orders, kept by triggers, registered here by
 * the module that reads it (server/routes/dashboard.ts), so the shared schema code names no entity.
 */
import { sql } from 'kysely';
import { registerDerivedTable, type Database, type DB } from './db';

/**
 * ORDER_STATS holds, per day, currency and status, how many orders there are and their paid total,
 * kept by triggers in the writing transaction: the admins' dashboard reads a few thousand counters
 * instead of a million orders. A missing currency is stored as '', a missing status as 0.
 */
export const ORDER_STATS = 'order_stats';

async function orderStatsTriggers(db: DB, dialect: Database['dialect'], had: boolean) {
  if (!had) {
    await db.schema
      .createTable(ORDER_STATS)
      .addColumn('day', 'varchar(10)', (c) => c.notNull())
      .addColumn('currency', 'varchar(16)', (c) => c.notNull())
      .addColumn('status', 'integer', (c) => c.notNull())
      .addColumn('n', 'integer', (c) => c.notNull())
      .addColumn('amount', 'double precision', (c) => c.notNull())
      .addPrimaryKeyConstraint(`${ORDER_STATS}_pk`, ['day', 'currency', 'status'])
      .execute();
  }
  const key = (row: 'new' | 'old') =>
    `coalesce(substr(${row}.created_at, 1, 10), ''), coalesce(${row}.currency, ''), coalesce(${row}.status, 0)`;
  const add = (row: 'new' | 'old', sign: 1 | -1) =>
    `insert into ${ORDER_STATS} (day, currency, status, n, amount) values (${key(row)}, ${sign}, ${sign} * coalesce(${row}.paid_total_fxws, 0))
       on conflict (day, currency, status) do update set n = ${ORDER_STATS}.n + excluded.n, amount = ${ORDER_STATS}.amount + excluded.amount;`;
  const watched = 'created_at, currency, status, paid_total_fxws';
  if (dialect === 'sqlite') {
    for (const suffix of ['ai', 'ad', 'au']) await sql.raw(`drop trigger if exists orders_stats_${suffix}`).execute(db);
    await sql.raw(`create trigger orders_stats_ai after insert on orders begin ${add('new', 1)} end`).execute(db);
    await sql.raw(`create trigger orders_stats_ad after delete on orders begin ${add('old', -1)} end`).execute(db);
    await sql.raw(`create trigger orders_stats_au after update of ${watched} on orders begin ${add('old', -1)} ${add('new', 1)} end`).execute(db);
  } else {
    await sql
      .raw(`create or replace function orders_stats() returns trigger language plpgsql as $$ begin
        if tg_op in ('UPDATE', 'DELETE') then ${add('old', -1)} end if;
        if tg_op in ('UPDATE', 'INSERT') then ${add('new', 1)} end if;
        return null; end $$`)
      .execute(db);
    await sql.raw('drop trigger if exists orders_stats on orders').execute(db);
    await sql.raw(`create trigger orders_stats after insert or delete or update of ${watched} on orders for each row execute function orders_stats()`).execute(db);
  }
  // Orders written before the counters existed are counted once.
  if (!had) {
    await sql
      .raw(`insert into ${ORDER_STATS} (day, currency, status, n, amount)
        select coalesce(substr(created_at, 1, 10), ''), coalesce(currency, ''), coalesce(status, 0), count(*), coalesce(sum(paid_total_fxws), 0)
        from orders group by 1, 2, 3`)
      .execute(db);
  }
}

registerDerivedTable({
  name: ORDER_STATS,
  source: 'orders',
  // The dashboard's aggregates read these alone (covering): all orders, a seller's shops, a range of days.
  sourceIndexes: [
    ['currency', 'paid_total_fxws'], ['shop_id', 'created_at', 'status', 'currency', 'paid_total_fxws'],
    ['created_at', 'shop_id', 'status', 'currency', 'paid_total_fxws'],
  ],
  migrate: orderStatsTriggers,
});
