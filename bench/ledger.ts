/**
 * The ledger's reads at scale: a shop's balances (maintained totals, never a sum of the postings),
 * a shop's first page of postings, and the dashboard's Commissions card, on a ledger holding the
 * postings of a million paid orders.
 *
 *   npm run bench:ledger                      # 1,000,000 orders on SQLite
 *   BENCH_ROWS=100000 npm run bench:ledger
 *   BENCH_DB=postgres npm run bench:ledger    # the same on an embedded PostgreSQL
 *
 * Each order is one sale entry of three postings (the buyer's payment, the seller's pending share and
 * the marketplace's commission) of one of ROWS / 10 shops; the maintained totals hold the three
 * accounts of every shop. Reads go through the server's own functions, one at a time, on random shops.
 * Then the month's fee pass charges ROWS / 10 shops of a category with a fee, one batch per run
 * (BENCH_FEE_BATCH shops): how many shops a second, and how long each batch's transaction holds the
 * database's writes.
 * Exits 1 when a balance read's p99 is over its goal (50 ms).
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { shopBalances } from '../server/ledger/core';
import { chargeMonthlyFees, FEE_BATCH } from '../server/ledger/payouts';
import { ledgerPage } from '../server/ledger/reading';
import { commissionsEarned } from '../server/routes/dashboard';
import { benchDatabase } from './support';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const SHOPS = Math.max(1, Math.floor(ROWS / 10));
const READS = Number(process.env.BENCH_READS ?? 1000);
const GOAL_MS = 50;
/** Shops a transaction of the fee pass charges (the server's FEE_BATCH unless set). */
const FEE_BATCH_SIZE = Number(process.env.BENCH_FEE_BATCH ?? FEE_BATCH);
const BATCH = 100_000;
/** Bench shops and orders are numbered past the demo data's. */
const OFFSET = 10_000_000;

const bench = await benchDatabase();
const { db } = bench.database;
const stamp = new Date().toISOString();
const t0 = performance.now();

/** Rows `from`..`to` of a generated series, as a recursive CTE both databases run. */
const series = (from: number, to: number) => sql`with recursive n(i) as (select ${sql.lit(from)} union all select i + 1 from n where i < ${sql.lit(to)})`;

for (let from = 1; from <= ROWS; from += BATCH) {
  const to = Math.min(ROWS, from + BATCH - 1);
  await sql`${series(from, to)} insert into ledger_entries (kind, event_key, shop_id, order_id, currency, memo, created_by, created_at)
    select 'sale', 'bench:' || i, (i % ${sql.lit(SHOPS)}) + ${sql.lit(OFFSET)}, i + ${sql.lit(OFFSET)}, 'USD', 'bench', 1, ${stamp} from n`.execute(db);
  for (const [account, amount] of [['buyer_payments', -10000], ['pending', 9000], ['commission', 1000]] as const) {
    await sql`${series(from, to)} insert into ledger_postings (entry_id, account, shop_id, order_id, currency, amount, kind, created_at)
      select i, ${account}, (i % ${sql.lit(SHOPS)}) + ${sql.lit(OFFSET)}, i + ${sql.lit(OFFSET)}, 'USD', ${sql.lit(amount)}, 'sale', ${stamp} from n`.execute(db);
  }
  await sql`${series(from, to)} insert into order_earnings (order_id, shop_id, currency, gross, commission, seller, delivery_fee, lines, paid_at)
    select i + ${sql.lit(OFFSET)}, (i % ${sql.lit(SHOPS)}) + ${sql.lit(OFFSET)}, 'USD', 10000, 1000, 9000, 0, '[]', ${stamp} from n`.execute(db);
}
const perShop = ROWS / SHOPS;
for (const [account, amount] of [['pending', 9000 * perShop], ['available', 0], ['paid', 0]] as const) {
  await sql`${series(0, SHOPS - 1)} insert into ledger_balances (account, shop_id, currency, amount) select ${account}, i + ${sql.lit(OFFSET)}, 'USD', ${sql.lit(amount)} from n`.execute(db);
}
await sql`update ledger_balances set amount = amount + ${sql.lit(1000 * ROWS)} where account = 'commission' and shop_id = 0 and currency = 'USD'`.execute(db);
await sql`analyze`.execute(db);
console.log(`Seeded ${ROWS.toLocaleString('en')} orders' postings for ${SHOPS.toLocaleString('en')} shops on ${bench.dialect} in ${((performance.now() - t0) / 1000).toFixed(0)} s`);

const shop = () => OFFSET + Math.floor(Math.random() * SHOPS);
async function measure(label: string, read: () => Promise<unknown>, reads = READS) {
  for (let i = 0; i < 20; i++) await read();
  const times: number[] = [];
  for (let i = 0; i < reads; i++) {
    const start = performance.now();
    await read();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(2);
  console.log(`| ${label} | ${reads} | ${at(0.5)} | ${at(0.95)} | ${at(0.99)} |`);
  return Number(at(0.99));
}

console.log('\n| read | reads | p50 ms | p95 ms | p99 ms |\n|---|---:|---:|---:|---:|');
const balances = await measure("a shop's balances (/balances {shop_id})", async () => {
  const [b] = await shopBalances(db, [shop()]);
  if (!b || b.pending <= 0) throw new Error('a balance is missing');
});
await measure("a shop's first page of postings (/ledger {shop_id})", () => ledgerPage(db, { page: 1, perPage: 15, shopIds: [shop()] }));
await measure('the Commissions card (/dashboard)', () => commissionsEarned(db), Math.min(READS, 50));

// The month's fee pass over SHOPS new shops of a category with a fee (and the demo's few).
const feeCategory = Number((await db.insertInto('categories').values({ name: 'Bench fees', commission_currency: 'USD', commission_flat_rate: 0, commission_monthly: 10, is_active: 1 })
  .returning('id').executeTakeFirstOrThrow()).id);
for (let from = 1; from <= SHOPS; from += BATCH) {
  await sql`${series(from, Math.min(SHOPS, from + BATCH - 1))} insert into shops (name, description, category_id, is_active, created_at, updated_at)
    select 'Fee shop ' || i, 'bench', ${sql.lit(feeCategory)}, 1, ${stamp}, ${stamp} from n`.execute(db);
}
const month = Date.parse('2030-01-01T00:01:00Z');
const batches: number[] = [];
let charged = 0;
const passStart = performance.now();
for (;;) {
  const start = performance.now();
  const now = await chargeMonthlyFees(db, month, { budgetMs: 0, batch: FEE_BATCH_SIZE });
  if (!now) break;
  batches.push(performance.now() - start);
  charged += now;
}
const passSeconds = (performance.now() - passStart) / 1000;
batches.sort((a, b) => a - b);
const q = (p: number) => batches[Math.min(batches.length - 1, Math.floor(p * batches.length))].toFixed(1);
console.log(`\nThe month's fee pass: ${charged.toLocaleString('en')} shops charged in ${passSeconds.toFixed(1)} s ` +
  `(${Math.round(charged / passSeconds).toLocaleString('en')} a second); a batch of ${FEE_BATCH_SIZE}: p50 ${q(0.5)} ms, p99 ${q(0.99)} ms, longest ${q(1)} ms`);
await bench.close();
if (balances > GOAL_MS) {
  console.error(`A balance read's p99 is ${balances} ms, over the goal of ${GOAL_MS} ms`);
  process.exit(1);
}
