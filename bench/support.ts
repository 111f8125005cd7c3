/**
 * What the benchmarks share: a database of any size seeded in the database itself, the real server
 * started as separate processes on it, and autocannon runs on loopback.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import autocannon from 'autocannon';
import { migrate, openDatabase, type Database } from '../server/db';
import { seedDemo, seedReference, DEMO_ACCOUNTS } from '../server/seed';
import { startLocalPostgres, type LocalPostgres } from '../server/dev/embeddedPostgres';
import { startProcess, type ServerProcess } from '../server/dev/process';

export { DEMO_ACCOUNTS };

export interface BenchDatabase {
  database: Database;
  dialect: Database['dialect'];
  /** What a server process is given: DATA_DIR or DATABASE_URL. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** A fresh database: SQLite in a temporary folder, or PostgreSQL (embedded) when BENCH_DB=postgres. */
export async function benchDatabase(kind = process.env.BENCH_DB ?? 'sqlite'): Promise<BenchDatabase> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'marketplace-bench-'));
  let pg: LocalPostgres | undefined;
  let env: Record<string, string>;
  let database: Database;
  if (kind === 'postgres') {
    pg = await startLocalPostgres();
    const url = await pg.createDatabase('bench');
    env = { DATABASE_URL: url };
    database = openDatabase({ url });
  } else {
    env = { DATA_DIR: dir };
    database = openDatabase({ file: path.join(dir, 'marketplace.sqlite') });
  }
  await migrate(database);
  await seedReference(database.db);
  await seedDemo(database.db);
  return {
    database, env, dialect: database.dialect,
    close: async () => {
      await database.close();
      await pg?.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

const WORDS = ['Red', 'Blue', 'Green', 'Lamp', 'Chair', 'Phone', 'Case', 'Kettle', 'Drum', 'Scarf', 'Mango'];

/**
 * `rows` shops, one product and one order per shop; every tenth shop (and so its product and
 * order) belongs to the demo seller (user 2), the rest to the demo buyer turned shop owner (user 4).
 * Generated inside the database, in batches, through the same triggers the server's writes go through.
 */
export async function seedRows({ database, dialect }: BenchDatabase, rows: number, seller: number, other: number) {
  const { db } = database;
  const stamp = new Date().toISOString();
  const batch = 50_000;
  const words = `'${WORDS.join("','")}'`;
  const word = (n: string) => (dialect === 'postgres' ? sql.raw(`(array[${words}])[(${n} % ${WORDS.length}) + 1]`) : sql.raw(`json_extract('${JSON.stringify(WORDS)}', '$[' || (${n} % ${WORDS.length}) || ']')`));
  for (let start = 0; start < rows; start += batch) {
    const end = Math.min(rows, start + batch) - 1;
    const series =
      dialect === 'postgres'
        ? sql`select i from generate_series(${start}::int, ${end}::int) as i`
        : sql`with recursive s(i) as (select cast(${start} as integer) union all select i + 1 from s where i < ${end}) select i from s`;
    const owner = sql`case when i % 10 = 0 then cast(${seller} as integer) else cast(${other} as integer) end`;
    await db.transaction().execute(async (trx) => {
      const { first } = (await sql<{ first: number }>`select coalesce(max(id), 0) + 1 as first from shops`.execute(trx)).rows[0];
      await sql`insert into shops (owner_id, name, description, category_id, street_name, zip, city, state, country, bank_name,
          bank_country, account_name, account_number, is_active, created_at, updated_at)
        select ${owner}, 'Bench shop ' || i || ' ' || ${word('i')}, 'Generated', 1 + i % 3, i || ' Long Road', '1000', 'Lagos',
          'Lagos', 'Nigeria', 'Bank', 'Nigeria', 'Bench', '' || i, 1, ${stamp}, ${stamp}
        from (${series}) as g`.execute(trx);
      await sql`insert into products (shop_id, name, description, currency, price, sale_price, in_stock, category_id,
          subcategory_id, band_name, state, premier, product_type, created_at, updated_at)
        select cast(${first} as integer) + i - cast(${start} as integer), 'Bench product ' || i || ' ' || ${word('i / 7')}, 'Generated', 'USD', 10, 9, 5, 1, 1,
          'Acme', 'active', 'no', 'new', ${stamp}, ${stamp}
        from (${series}) as g`.execute(trx);
      await sql`insert into orders (shop_id, customer_id, payment_gateway, tracking_number, number_of_items, status, currency,
          total, paid_total, is_active, created_at, updated_at)
        select cast(${first} as integer) + i - cast(${start} as integer), 3, 'card', 'TRK-' || i, 1, 1 + i % 6, 'USD', 10, 10, 1, ${stamp}, ${stamp}
        from (${series}) as g`.execute(trx);
    });
  }
  // After a bulk load, as an operator would after an import: statistics, and (SQLite) the text
  // indexes merged into one segment each (writes merge them gradually on their own).
  if (dialect === 'postgres') await sql`vacuum analyze`.execute(db);
  else {
    for (const table of ['shops', 'products', 'orders']) await sql.raw(`insert into ${table}_fts(${table}_fts) values ('optimize')`).execute(db);
    await sql`analyze`.execute(db);
  }
}

/** The server as `npm run serve` runs it, `count` processes on the same database. */
export async function startServers(env: Record<string, string>, count = 1): Promise<ServerProcess[]> {
  const servers: ServerProcess[] = [];
  for (let i = 0; i < count; i++) servers.push(await startProcess({ ...env, DEMO: '1', LOG: '0' }));
  return servers;
}

export interface Measured {
  rps: number;
  p50: number;
  p97_5: number;
  p99: number;
  max: number;
  errors: number;
  non2xx: number;
  requests: number;
}

/** One autocannon run: `connections` clients posting the same call for `seconds`. */
export async function hammer(opts: {
  url: string | string[];
  body: unknown;
  token?: string;
  connections: number;
  seconds: number;
  maxRequests?: number;
}): Promise<Measured> {
  const urls = Array.isArray(opts.url) ? opts.url : [opts.url];
  const results = await Promise.all(
    urls.map((url) =>
      autocannon({
        url,
        method: 'POST',
        connections: Math.max(1, Math.round(opts.connections / urls.length)),
        duration: opts.seconds,
        amount: opts.maxRequests,
        headers: { 'content-type': 'application/json', ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}) },
        body: JSON.stringify(opts.body),
      }),
    ),
  );
  const sum = (f: (r: autocannon.Result) => number) => results.reduce((a, r) => a + f(r), 0);
  const worst = (f: (r: autocannon.Result) => number) => Math.max(...results.map(f));
  return {
    rps: sum((r) => r.requests.average),
    p50: worst((r) => r.latency.p50),
    p97_5: worst((r) => r.latency.p97_5),
    p99: worst((r) => r.latency.p99),
    max: worst((r) => r.latency.max),
    errors: sum((r) => r.errors + r.timeouts),
    non2xx: sum((r) => r.non2xx),
    requests: sum((r) => r.requests.total),
  };
}
