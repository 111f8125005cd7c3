/**
 * What the benchmarks share: a database of any size seeded in the database itself, the real server
 * started as separate processes on it, and autocannon runs on loopback.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import autocannon from 'autocannon';
import { migrate, openDatabase, type Database } from '../server/db';
import { seedDemo, seedReference } from '../server/seed';
import { DEMO_ACCOUNTS } from '../resources/users/demo';
import { startLocalPostgres, type LocalPostgres } from '../server/dev/embeddedPostgres';
import { freePort, startProcess, type ServerProcess } from '../server/dev/process';

export { DEMO_ACCOUNTS };

export interface BenchDatabase {
  database: Database;
  dialect: Database['dialect'];
  /** What a server process is given: DATA_DIR or DATABASE_URL. */
  env: Record<string, string>;
  /** Rows an earlier run seeded into a kept database (BENCH_DIR), if any. */
  seeded?: number;
  /** How long that seeding took, in seconds, when it was recorded. */
  seededIn?: number;
  /** The database's size in bytes right after that seeding, when it was recorded (later runs write to it: a month's fees). */
  seededBytes?: number;
  /** Records that the kept database now holds `rows` seeded rows, seeded in `seconds`, `bytes` in all. */
  markSeeded(rows: number, seconds: number, bytes: number): void;
  close(): Promise<void>;
}

/**
 * The embedded PostgreSQL set up as a server for this much data would be: the tables and indexes
 * in shared buffers (the default 128 MB holds a tenth of them at a million rows, and every other read
 * is a copy from the system's cache), and each backend reading for itself (io_method=sync: on two
 * cores, handing each read to an I/O worker process costs more than the read).
 */
export const POSTGRES_SETTINGS = { shared_buffers: '2GB', io_method: 'sync' };

/**
 * A fresh database: SQLite in a temporary folder, or PostgreSQL (embedded) when BENCH_DB=postgres.
 * With `dir` (BENCH_DIR) the database lives there and is kept: `seeded` says whether an earlier run
 * already loaded it.
 */
export async function benchDatabase(kind = process.env.BENCH_DB ?? 'sqlite', kept = process.env.BENCH_DIR): Promise<BenchDatabase> {
  const dir = kept ? path.join(kept, kind) : fs.mkdtempSync(path.join(os.tmpdir(), 'marketplace-bench-'));
  fs.mkdirSync(dir, { recursive: true });
  const marker = path.join(dir, 'seeded.json');
  const mark = fs.existsSync(marker) ? (JSON.parse(fs.readFileSync(marker, 'utf8')) as { rows: number; seconds?: number; bytes?: number }) : undefined;
  const seeded = mark?.rows;
  let pg: LocalPostgres | undefined;
  let env: Record<string, string>;
  let database: Database;
  if (kind === 'postgres') {
    pg = await startLocalPostgres({ dir: kept ? dir : undefined, settings: POSTGRES_SETTINGS });
    const url = seeded === undefined ? await pg.createDatabase('bench') : pg.url('bench');
    env = { DATABASE_URL: url };
    database = openDatabase({ url });
  } else {
    env = { DATA_DIR: dir };
    database = openDatabase({ file: path.join(dir, 'marketplace.sqlite') });
  }
  await migrate(database);
  if (seeded === undefined) {
    await seedReference(database.db);
    await seedDemo(database.db);
  }
  return {
    database, env, dialect: database.dialect, seeded, seededIn: mark?.seconds, seededBytes: mark?.bytes,
    markSeeded: (rows, seconds, bytes) => {
      if (kept) fs.writeFileSync(marker, JSON.stringify({ rows, seconds, bytes }));
    },
    close: async () => {
      await database.close();
      await pg?.stop();
      if (!kept) fs.rmSync(dir, { recursive: true, force: true });
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
  const batch = 100_000;
  const words = `'${WORDS.join("','")}'`;
  // As an operator importing this many rows would: the secondary indexes of the loaded tables (and
  // PostgreSQL's trigram indexes) are dropped first and built once after the load (migrate creates
  // what is missing), rather than grown row by row. The triggers stay: every row goes through them
  // as any insert does (the text index on SQLite, the seller column, the range counters).
  const loaded = ['shops', 'products', 'orders'];
  const indexes =
    dialect === 'postgres'
      ? await sql<{ name: string }>`select indexname as name from pg_indexes where tablename in (${sql.join(loaded)})`.execute(db)
      : await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name in (${sql.join(loaded)})`.execute(db);
  const secondary = indexes.rows.filter(({ name }) => /_(idx|trgm)$/.test(name));
  for (const { name } of secondary) await sql`drop index ${sql.id(name)}`.execute(db);
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
  // After a bulk load, as an operator would after an import: the indexes, statistics, and (SQLite)
  // the text indexes merged into one segment each (writes merge them gradually on their own).
  await migrate(database);
  if (dialect === 'postgres') await sql`vacuum analyze`.execute(db);
  else {
    for (const table of loaded) await sql.raw(`insert into ${table}_fts(${table}_fts) values ('optimize')`).execute(db);
    await sql`analyze`.execute(db);
  }
}

/** The database's size on disk in bytes (SQLite: its pages, the write-ahead log checkpointed; PostgreSQL: pg_database_size). */
export async function databaseSize({ database, dialect }: BenchDatabase): Promise<number> {
  const { db } = database;
  if (dialect === 'postgres') return Number((await sql<{ n: string }>`select pg_database_size(current_database()) as n`.execute(db)).rows[0].n);
  await sql`pragma wal_checkpoint(truncate)`.execute(db);
  const count = (await sql<{ page_count: number }>`pragma page_count`.execute(db)).rows[0].page_count;
  const size = (await sql<{ page_size: number }>`pragma page_size`.execute(db)).rows[0].page_size;
  return count * size;
}

/**
 * seedRows, unless a kept database (BENCH_DIR) already holds as many rows; one that holds another
 * number stops the run. Resolves with the seconds the seeding took and the database's size right
 * after it (an earlier run's when reused, if recorded: what that run wrote since is not the seed's).
 */
export async function seedOnce(bench: BenchDatabase, rows: number, seller: number, other: number): Promise<{ seconds?: number; bytes: number }> {
  if (bench.seeded === rows) {
    console.log(`Reusing ${rows.toLocaleString()} seeded rows on ${bench.dialect} in ${process.env.BENCH_DIR}`);
    return { seconds: bench.seededIn, bytes: bench.seededBytes ?? (await databaseSize(bench)) };
  }
  if (bench.seeded !== undefined) throw new Error(`BENCH_DIR holds ${bench.seeded.toLocaleString()} seeded rows, not ${rows.toLocaleString()}: use another folder`);
  const t0 = performance.now();
  await seedRows(bench, rows, seller, other);
  const seconds = (performance.now() - t0) / 1000;
  const bytes = await databaseSize(bench);
  bench.markSeeded(rows, seconds, bytes);
  console.log(`Seeded ${rows.toLocaleString()} shops, products and orders on ${bench.dialect} in ${seconds.toFixed(1)} s`);
  return { seconds, bytes };
}

/**
 * The Accept-Encoding every benchmark request sends: Chromium's, as the console's requests carry it
 * (BENCH_ENCODING='' asks for answers as they are).
 */
export const ACCEPT_ENCODING = process.env.BENCH_ENCODING ?? 'gzip, deflate, br, zstd';

/** POSTs `body` to `url` and reads the answer's bytes as they came (compressed, if they were), and its Content-Encoding. */
export function postRaw(url: string, body: unknown, token?: string): Promise<{ bytes: Buffer; encoding?: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...(ACCEPT_ENCODING ? { 'accept-encoding': ACCEPT_ENCODING } : {}) };
    if (token) headers.authorization = `Bearer ${token}`;
    const req = http.request(url, { method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ bytes: Buffer.concat(chunks), encoding: res.headers['content-encoding'] }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/**
 * A bare Fastify (bench/bare.ts) in its own process answering every POST with `payload` from
 * memory, sent with this Content-Encoding when given: what a repeated page is measured against.
 */
export async function startBare(payload: string | Buffer, encoding?: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'marketplace-bare-'));
  const file = path.join(dir, 'payload.json');
  fs.writeFileSync(file, payload);
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', new URL('./bare.ts', import.meta.url).pathname], {
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), BARE_PAYLOAD: file, BARE_ENCODING: encoding ?? '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('listening') && resolve());
    child.once('exit', (code) => reject(new Error(`the bare Fastify exited (${code}) before listening`)));
  });
  return {
    url: `http://127.0.0.1:${port}`, pid: child.pid!,
    stop: async () => {
      child.kill('SIGTERM');
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

let compiled = false;

/** The server compiled to JavaScript (`npm run build:server`), once per run, from the sources as they are. */
export function compileServer() {
  if (compiled) return;
  execFileSync(process.execPath, ['--import', 'tsx', 'server/dev/build.ts'], { stdio: ['ignore', 'ignore', 'inherit'] });
  compiled = true;
}

/**
 * The server as `npm run serve` runs it (compiled to JavaScript, plain node), `count` processes on
 * the same database, each with `workers` API processes sharing its port (WORKERS, as `npm start`
 * runs one per core). Logs stay on, at the default level, as in production.
 */
export async function startServers(env: Record<string, string>, count = 1, workers = 1): Promise<ServerProcess[]> {
  compileServer();
  const servers: ServerProcess[] = [];
  // autocannon keeps writing on a connection the server closes after its request limit, and counts
  // the refusals: the benchmark lifts the limit (MAX_REQUESTS_PER_SOCKET=0). Every client comes from
  // one address, so the connections-per-address cap is lifted too (the load run opens 100 and more).
  for (let i = 0; i < count; i++) {
    servers.push(await startProcess({ ...env, DEMO: '1', WORKERS: String(workers), MAX_REQUESTS_PER_SOCKET: '0', MAX_CONNECTIONS_PER_ADDRESS: '0' }, { compiled: true }));
  }
  return servers;
}

/** CPU seconds (user + system) used so far by these processes and every process under them (Linux /proc). */
export function cpuSeconds(pids: number[]): number {
  const parent = new Map<number, number>();
  const used = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(entry), Number(fields[1]));
      used.set(Number(entry), Number(fields[11]) + Number(fields[12]));
    } catch {
      // the process ended meanwhile
    }
  }
  const mine = new Set(pids);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, ppid] of parent) {
      if (!mine.has(pid) && mine.has(ppid)) {
        mine.add(pid);
        grew = true;
      }
    }
  }
  let ticks = 0;
  for (const pid of mine) ticks += used.get(pid) ?? 0;
  return ticks / 100; // USER_HZ
}

/** The machine's 1-minute load average, to read a run's figures by. */
export const loadAverage = () => os.loadavg()[0];

/**
 * json-server 0.17.4 (the reference a prototype would use) on a db.json of `rows` products shaped
 * like the benchmark's, at a free port; GET /products?_page=…&_limit=… and ?name_like=….
 */
export async function startJsonServer(rows: number) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'marketplace-json-server-'));
  const file = path.join(dir, 'db.json');
  const stamp = new Date().toISOString();
  const products = Array.from({ length: rows }, (_, i) => ({
    id: i + 1, shop_id: i + 1, name: `Bench product ${i} ${WORDS[Math.floor(i / 7) % WORDS.length]}`, description: 'Generated',
    currency: 'USD', price: 10, sale_price: 9, in_stock: 5, category_id: 1, subcategory_id: 1, band_name: 'Acme', state: 'active',
    premier: 'no', product_type: 'new', created_at: stamp, updated_at: stamp,
  }));
  fs.writeFileSync(file, JSON.stringify({ products }));
  const port = await freePort();
  const bin = createRequire(import.meta.url).resolve('json-server/lib/cli/bin.js');
  const child = spawn(process.execPath, [bin, '--quiet', '--host', '127.0.0.1', '--port', String(port), file], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/products?_limit=1`)).ok) break;
    } catch {
      if (i > 600 || child.exitCode !== null) throw new Error('json-server did not start');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url, pid: child.pid!,
    stop: async () => {
      child.kill('SIGTERM');
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface Measured {
  rps: number;
  /** CPU milliseconds the server's processes used per answered request (0 when not measured). */
  cpuPerRequest: number;
  /** The 1-minute load average at the end of the run. */
  load: number;
  p50: number;
  /** Exact, from every response's time (autocannon's own summary has no p95). */
  p95: number;
  p97_5: number;
  p99: number;
  max: number;
  errors: number;
  non2xx: number;
  requests: number;
}

/** The value below which this share of the times fall (nearest rank), rounded to the millisecond. */
function percentile(times: number[], share: number): number {
  if (!times.length) return 0;
  const sorted = [...times].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]);
}

/** One autocannon run: `connections` clients posting the same call (or GETting, without a body) for `seconds`. */
export async function hammer(opts: {
  url: string | string[];
  body?: unknown;
  token?: string;
  connections: number;
  seconds: number;
  maxRequests?: number;
  /** The server's process ids: its CPU use per request is measured. */
  pids?: number[];
  /** A new body for every request (instead of `body`), so no answer kept by the server is reused. */
  vary?: () => unknown;
}): Promise<Measured> {
  const urls = Array.isArray(opts.url) ? opts.url : [opts.url];
  const cpuBefore = opts.pids ? cpuSeconds(opts.pids) : 0;
  const times: number[] = [];
  const results = await Promise.all(
    urls.map((url) => {
      const run = autocannon({
        url,
        method: opts.body === undefined ? 'GET' : 'POST',
        connections: Math.max(1, Math.round(opts.connections / urls.length)),
        duration: opts.seconds,
        amount: opts.maxRequests,
        headers: { 'content-type': 'application/json', ...(ACCEPT_ENCODING ? { 'accept-encoding': ACCEPT_ENCODING } : {}), ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}) },
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
        ...(opts.vary
          ? { method: 'POST' as const, requests: [{ setupRequest: (request: autocannon.Request) => ({ ...request, body: JSON.stringify(opts.vary!()) }) }] }
          : {}),
      });
      run.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => times.push(ms));
      return run;
    }),
  );
  const cpu = opts.pids ? cpuSeconds(opts.pids) - cpuBefore : 0;
  const sum = (f: (r: autocannon.Result) => number) => results.reduce((a, r) => a + f(r), 0);
  const worst = (f: (r: autocannon.Result) => number) => Math.max(...results.map(f));
  const requests = sum((r) => r.requests.total);
  return {
    rps: sum((r) => r.requests.average),
    cpuPerRequest: requests ? (cpu * 1000) / requests : 0,
    load: loadAverage(),
    p50: worst((r) => r.latency.p50),
    p95: percentile(times, 0.95),
    p97_5: worst((r) => r.latency.p97_5),
    p99: worst((r) => r.latency.p99),
    max: worst((r) => r.latency.max),
    errors: sum((r) => r.errors + r.timeouts),
    non2xx: sum((r) => r.non2xx),
    requests,
  };
}
