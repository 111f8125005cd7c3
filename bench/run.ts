/**
 * List and search speed of the reference server at scale: the real server (`server/main.ts`,
 * compiled as `npm run serve` runs it) in its own process on a seeded database, 10 clients posting
 * each call through autocannon on loopback.
 *
 *   npm run bench                                 # 1,000,000 shops, products and orders on SQLite
 *   BENCH_ROWS=100000 BENCH_SECONDS=5 npm run bench
 *   BENCH_DB=postgres npm run bench               # the same on an embedded PostgreSQL
 *   BENCH_DIR=/var/tmp/bench npm run bench        # seeds once into that folder, reuses it after
 *   BENCH_CASES='search|seller' npm run bench     # only the calls whose label matches (not written)
 *   BENCH_ENCODING='' npm run bench               # answers asked for uncompressed (default: a browser's Accept-Encoding)
 *
 * Every tenth shop, product and order belongs to one seller (100,000 at a million rows). Prints a
 * table (req/s, p50, p95, p97.5, p99, errors, CPU per request, load average), a repeated page against
 * a bare Fastify serving the same bytes from memory, the varied calls again in the first seconds
 * after a server starts, the same calls against json-server 0.17.4 holding 100,000 products with the
 * ratios, the query plans of the calls, the seeding time and the database's size, and writes the
 * tables to bench/results-<database>-<rows>.md (results-sqlite-1m.md...).
 */
import fs from 'node:fs';
import os from 'node:os';
import { sql, type Compilable } from 'kysely';
import { chargeMonthlyFees } from '../server/ledger/payouts';
import { registry } from '../server/registry';
import { rarePieces } from '../server/trigrams';
import { ACCEPT_ENCODING, benchDatabase, hammer, loadAverage, seedOnce, postRaw, startBare, startJsonServer, startServers, DEMO_ACCOUNTS, type Measured } from './support';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 10);
const PROCESSES = Number(process.env.BENCH_PROCESSES ?? 1);
/**
 * API processes sharing each server's port: one, so that the figures are one process's (the goals
 * are set per process, and the bare Fastify it is compared with is one process too). `npm start`
 * runs one per core (WORKERS).
 */
const WORKERS = Number(process.env.BENCH_WORKERS ?? 1);
/** Seconds measured right after a server starts (the varied calls, without warm-up). */
const START_SECONDS = Number(process.env.BENCH_START_SECONDS ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const JSON_SERVER_ROWS = Number(process.env.BENCH_JSON_SERVER_ROWS ?? 100_000);
const PER_PAGE = 15;

const bench = await benchDatabase();
const { db } = bench.database;
const seller = 2;
const other = Number((await db.selectFrom('users').select('id').where('email', '=', DEMO_ACCOUNTS.buyer.email).executeTakeFirstOrThrow()).id);
const { seconds: seedSeconds, bytes: size } = await seedOnce(bench, ROWS, seller, other);
const sizeText = `${(size / 2 ** 20).toFixed(0)} MB (${(size / 2 ** 20 / (ROWS / 1e6)).toFixed(0)} MB per million rows of each table)`;
console.log(`Database as seeded: ${sizeText}`);

// This month's fees charged before anything is measured, as in a marketplace past its month's first
// hours: the figures are the pages' and searches', not the fee pass's (npm run bench:ledger measures it).
const feesFrom = performance.now();
const fees = await chargeMonthlyFees(db, Date.now(), { budgetMs: Infinity });
if (fees) console.log(`This month's fee charged to ${fees.toLocaleString('en')} shops in ${((performance.now() - feesFrom) / 1000).toFixed(1)} s`);

let servers = await startServers(bench.env, PROCESSES, WORKERS);
let pids = servers.map((s) => s.child.pid!);
const urls = (p: string) => servers.map((s) => s.url + p);
const admin = await servers[0].login(DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password);
const sellerToken = await servers[0].login(DEMO_ACCOUNTS.seller.email, DEMO_ACCOUNTS.seller.password);
const total = Number((await db.selectFrom('products').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
const last = Math.ceil(total / PER_PAGE);
const middle = Math.floor(ROWS / 2);
const part = `product ${String(middle).slice(0, 5)}`;

type Answer = { HLL: { data?: unknown[]; length?: number } };
type Case = {
  label: string; path: string; body: Record<string, unknown>; token: string; expect: (answer: Answer) => boolean;
  /** A new body for every request: nothing the server keeps is reused (what a database read costs). */
  vary?: () => Record<string, unknown>;
};
const list = (label: string, path: string, page: number, token: string): Case => ({
  label, path, body: { page }, token, expect: (a) => (a.HLL.data?.length ?? 0) > 0,
});
const found = (label: string, body: Record<string, unknown>, token: string): Case => ({
  label, path: '/search-dive', body: { ...body, page: 1, per_page: PER_PAGE }, token, expect: (a) => (a.HLL.length ?? 0) > 0,
});
const cases: Case[] = [
  list('products page 1, admin', '/products', 1, admin),
  list('products page 2, admin', '/products', 2, admin),
  list(`products page ${Math.floor(last / 2).toLocaleString()} (middle), admin`, '/products', Math.floor(last / 2), admin),
  list(`products page ${last.toLocaleString()} (last), admin`, '/products', last, admin),
  list('products page 1, seller', '/products', 1, sellerToken),
  list(`products page ${Math.ceil(total / 10 / PER_PAGE).toLocaleString()} (last), seller`, '/products', Math.ceil(total / 10 / PER_PAGE), sellerToken),
  list('shops page 1, seller', '/shops', 1, sellerToken),
  list('orders page 1, seller', '/orders', 1, sellerToken),
  list('shops page 1, admin', '/shops', 1, admin),
  found(`search products "${part}", admin`, { keyIndex: 7, value: part, targets: ['id', 'name'] }, admin),
  found(`search products "${part}", seller`, { keyIndex: 7, value: part.replace(/\d$/, '0'), targets: ['id', 'name'] }, sellerToken),
  found(`search shops "shop ${String(middle).slice(0, 4)}", admin`, { keyIndex: 10, value: `shop ${String(middle).slice(0, 4)}`, targets: ['id', 'name'] }, admin),
  found('search orders "TRK-4242", admin', { keyIndex: 4, value: 'TRK-4242', targets: ['id', 'created_at', 'tracking_number'] }, admin),
  found('search products by id', { keyIndex: 7, value: String(middle), targets: ['id'] }, admin),
  found('search products "42" (2 characters)', { keyIndex: 7, value: '42', targets: ['id', 'name'] }, admin),
];
// The same kinds of call, each request different (a random page, a random value), so no answer kept
// by the server between writes is reused: the cost of reading the database every time.
const random = (n: number) => 1 + Math.floor(Math.random() * n);
const digits = (n: number) => String(random(10 ** n - 1)).padStart(n, '0');
const varied = (c: Case, label: string, vary: () => Record<string, unknown>): Case => ({ ...c, label: `${label} (varied)`, vary });
cases.push(
  varied(list('', '/products', 1, admin), 'products, any page, admin', () => ({ page: random(last) })),
  varied(list('', '/products', 1, sellerToken), "products, any page, seller", () => ({ page: random(Math.ceil(total / 10 / PER_PAGE)) })),
  varied(found('', {}, admin), 'search products "product NNNNN", admin', () => ({ keyIndex: 7, value: `product ${digits(5)}`, targets: ['id', 'name'], page: 1, per_page: PER_PAGE })),
  varied(found('', {}, sellerToken), 'search products "product NNNN0", seller', () => ({ keyIndex: 7, value: `product ${digits(4)}0`, targets: ['id', 'name'], page: 1, per_page: PER_PAGE })),
  varied(found('', {}, admin), 'search orders "TRK-NNNN", admin', () => ({ keyIndex: 4, value: `TRK-${digits(4)}`, targets: ['id', 'created_at', 'tracking_number'], page: 1, per_page: PER_PAGE })),
  varied(found('', {}, admin), 'search products "NN" (2 characters), admin', () => ({ keyIndex: 7, value: digits(2), targets: ['id', 'name'], page: 1, per_page: PER_PAGE })),
);

// BENCH_CASES (a pattern matched against the labels) runs only some calls, printed and not written.
const only = process.env.BENCH_CASES ? new RegExp(process.env.BENCH_CASES, 'i') : undefined;
const rows: [string, Measured][] = [];
for (const c of cases) {
  if (only && !only.test(c.label)) continue;
  const check = await servers[0].post(c.path, c.vary ? c.vary() : c.body, c.token);
  if (!check.body.status || !(c.vary || c.expect(check.body))) throw new Error(`${c.label}: unexpected answer ${JSON.stringify(check.body).slice(0, 300)}`);
  // A short run first: every API process compiles its code paths before it is measured.
  if (WARMUP > 0) await hammer({ url: urls(c.path), body: c.body, vary: c.vary, token: c.token, connections: CLIENTS, seconds: WARMUP });
  const m = await hammer({ url: urls(c.path), body: c.body, vary: c.vary, token: c.token, connections: CLIENTS, seconds: SECONDS, pids });
  rows.push([c.label, m]);
  console.log(`${c.label.padEnd(52)} ${m.rps.toFixed(0).padStart(6)} req/s  p50 ${m.p50} ms  p95 ${m.p95} ms  p97.5 ${m.p97_5} ms  p99 ${m.p99} ms  errors ${m.errors + m.non2xx}  CPU ${m.cpuPerRequest.toFixed(2)} ms/req  load ${m.load.toFixed(1)}`);
}

// The admin's dashboard, one request at a time (it is not kept between writes: each reads the counters).
const dashboardTimes: number[] = [];
if (!only || only.test('dashboard')) {
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    const answer = await servers[0].post('/dashboard', {}, admin);
    if (!answer.body.status) throw new Error(`dashboard: ${JSON.stringify(answer.body).slice(0, 300)}`);
    dashboardTimes.push(performance.now() - t0);
  }
  dashboardTimes.sort((a, b) => a - b);
  console.log(`dashboard, admin: ${dashboardTimes.map((t) => t.toFixed(0)).join(', ')} ms`);
}

// A repeated page against a bare Fastify answering the same bytes from memory, one process each.
const repeated = cases[1];
let bare: { label: string; ours: Measured; theirs: Measured; bytes: number; encoding?: string } | undefined;
if (!only || only.test(repeated.label)) {
  // The bytes as our server sends them (compressed as the benchmark's requests accept), and their encoding.
  const { bytes, encoding } = await postRaw(urls(repeated.path)[0], repeated.body, repeated.token);
  const server = await startBare(bytes, encoding);
  const run = (url: string[], pidsOf: number[], token?: string) =>
    hammer({ url, body: repeated.body, token, connections: CLIENTS, seconds: WARMUP }).then(() =>
      hammer({ url, body: repeated.body, token, connections: CLIENTS, seconds: SECONDS, pids: pidsOf }));
  // Each measured right after the other, so that both meet the same neighbours.
  const theirs = await run([`${server.url}/api${repeated.path}`], [server.pid]);
  const ours = await run(urls(repeated.path), pids, repeated.token);
  await server.stop();
  bare = { label: repeated.label, ours, theirs, bytes: bytes.length, encoding };
  console.log(`bare Fastify, same ${bytes.length} bytes${encoding ? ` (${encoding})` : ''}: ${theirs.rps.toFixed(0)} req/s p99 ${theirs.p99} ms; ours ${ours.rps.toFixed(0)} req/s p99 ${ours.p99} ms: ${((100 * ours.rps) / theirs.rps).toFixed(0)}%`);
}

// The varied calls right after a start: a new server on the same database, measured at once.
const starting: [string, Measured][] = [];
for (const c of cases.filter((k) => k.vary && !/2 characters/.test(k.label))) {
  if (only && !only.test(c.label)) continue;
  await Promise.all(servers.map((s) => s.stop()));
  servers = await startServers(bench.env, PROCESSES, WORKERS);
  pids = servers.map((s) => s.child.pid!);
  const token = c.token === admin ? await servers[0].login(DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password)
    : await servers[0].login(DEMO_ACCOUNTS.seller.email, DEMO_ACCOUNTS.seller.password);
  const m = await hammer({ url: urls(c.path), vary: c.vary, token, connections: CLIENTS, seconds: START_SECONDS, pids });
  const label = c.label.replace('(varied)', `(varied, first ${START_SECONDS} s after a start)`);
  starting.push([label, m]);
  console.log(`${label.padEnd(52)} ${m.rps.toFixed(0).padStart(6)} req/s  p50 ${m.p50} ms  p95 ${m.p95} ms  p97.5 ${m.p97_5} ms  p99 ${m.p99} ms  errors ${m.errors + m.non2xx}  CPU ${m.cpuPerRequest.toFixed(2)} ms/req  load ${m.load.toFixed(1)}`);
}
rows.push(...starting);

// The same calls against json-server 0.17.4 (100,000 products), side by side (in a full run).
const reference = only ? undefined : await startJsonServer(JSON_SERVER_ROWS);
const refLast = Math.ceil(JSON_SERVER_ROWS / PER_PAGE);
const pairs: { label: string; ours: Measured; theirs: Measured }[] = [];
if (reference) {
  for (const [label, ours, query] of [
    ['products page 1', rows[0][1], `_page=1&_limit=${PER_PAGE}`],
    ['products last page', rows[3][1], `_page=${refLast}&_limit=${PER_PAGE}`],
    [`search products "${part}"`, rows[9][1], `name_like=${encodeURIComponent(part)}&_page=1&_limit=${PER_PAGE}`],
  ] as const) {
    const theirs = await hammer({ url: `${reference.url}/products?${query}`, connections: CLIENTS, seconds: SECONDS, pids: [reference.pid] });
    pairs.push({ label, ours, theirs });
    console.log(`json-server ${label.padEnd(40)} ${theirs.rps.toFixed(0).padStart(6)} req/s  p50 ${theirs.p50} ms  p99 ${theirs.p99} ms  CPU ${theirs.cpuPerRequest.toFixed(2)} ms/req  load ${theirs.load.toFixed(1)}`);
  }
  await reference.stop();
}

// Query plans of what the calls run.
const plan = async (label: string, query: Compilable) => {
  const compiled = query.compile();
  const text = bench.dialect === 'postgres' ? `explain ${compiled.sql}` : `explain query plan ${compiled.sql}`;
  const result = await db.executeQuery<Record<string, string>>({ ...compiled, sql: text });
  console.log(`\n${label}:\n${result.rows.map((r) => `  ${r.detail ?? r['QUERY PLAN']}`).join('\n')}`);
};
// The narrowing each database's search uses: FTS5's trigram phrase (SQLite), the value's rare pieces (PostgreSQL).
const pieces = bench.dialect === 'postgres' ? ((await rarePieces(db, registry.entity('products'), 'name', part)) ?? []) : [];
const narrowed = bench.dialect === 'sqlite'
  ? sql<boolean>`id in (select rowid from products_fts where products_fts match ${`{name} : "${part}"`})`
  : pieces.length
    ? sql<boolean>`${sql.join(pieces.map((p) => sql`lower(name) like lower(${`%${p}%`})`), sql` and `)} and strpos(lower(name), lower(${part})) > 0`
    : sql<boolean>`lower(name) like lower(${`%${part}%`}) escape '\\'`;
await plan('Products page ids, last page read from the other end', db.selectFrom('products').select('id').orderBy('id', 'asc').limit(PER_PAGE).offset(0));
await plan('Products page ids, middle page', db.selectFrom('products').select('id').orderBy('id', 'desc').limit(PER_PAGE).offset(Math.floor(last / 2) * PER_PAGE));
await plan("Seller's products page", db.selectFrom('products').select('id').where('seller_id', '=', seller).orderBy('id', 'desc').limit(PER_PAGE));
await plan("Seller's products count", db.selectFrom('products').select((eb) => eb.fn.countAll().as('n')).where('seller_id', '=', seller));
await plan('Search products by name part', db.selectFrom('products').select('id')
  .where(bench.dialect === 'sqlite' ? sql<boolean>`lower(name) like lower(${`%${part}%`}) escape '\\'` : sql<boolean>`true`)
  .where(narrowed).orderBy('id', 'desc').limit(PER_PAGE));

const table = [
  `Measured ${new Date().toISOString().slice(0, 10)} on ${bench.dialect}, ${ROWS.toLocaleString()} shops, products and orders ` +
    `(one seller owns ${Math.ceil(ROWS / 10).toLocaleString()} of each), ${CLIENTS} clients × ${SECONDS} s per call, ` +
    `${PROCESSES} server${PROCESSES > 1 ? 's' : ''} of ${WORKERS} API process${WORKERS > 1 ? 'es' : ''}, autocannon on loopback, ` +
    `${os.availableParallelism()} cores shared with the clients (and other work: load average ${loadAverage().toFixed(1)} at the end). ` +
    `Every request sends ${ACCEPT_ENCODING ? `Accept-Encoding: ${ACCEPT_ENCODING} (a browser's)` : 'no Accept-Encoding'}. ` +
    'CPU is the server processes\' CPU time per answered request (user + system), the figure least moved by neighbours.',
  '',
  `Database as seeded: ${sizeText}; ${seedSeconds === undefined ? 'seeding time not recorded' : `seeded in ${seedSeconds.toFixed(0)} s`}.` +
    (dashboardTimes.length ? ` Dashboard, admin, one request at a time: median ${dashboardTimes[2].toFixed(0)} ms, slowest ${dashboardTimes[4].toFixed(0)} ms of 5.` : ''),
  '',
  '| call | req/s | p50 | p95 | p97.5 | p99 | errors | CPU per request | load |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...rows.map(([label, m]) => `| ${label} | ${m.rps.toFixed(0)} | ${m.p50} ms | ${m.p95} ms | ${m.p97_5} ms | ${m.p99} ms | ${m.errors + m.non2xx} | ${m.cpuPerRequest.toFixed(2)} ms | ${m.load.toFixed(1)} |`),
  '',
  ...(bare
    ? [
      `A repeated page against a bare Fastify (one process, no session, no log, no database) answering the same ${bare.bytes.toLocaleString()} bytes${bare.encoding ? ` (${bare.encoding})` : ''} from memory, measured one after the other:`,
      '',
      '| call | ours req/s | bare Fastify req/s | share | ours p99 | bare p99 |',
      '|---|---:|---:|---:|---:|---:|',
      `| ${bare.label} | ${bare.ours.rps.toFixed(0)} | ${bare.theirs.rps.toFixed(0)} | ${((100 * bare.ours.rps) / bare.theirs.rps).toFixed(0)}% | ${bare.ours.p99} ms | ${bare.theirs.p99} ms |`,
      '',
    ]
    : []),
  `Against json-server 0.17.4 holding ${JSON_SERVER_ROWS.toLocaleString()} products (GET /products?_page=…&_limit=${PER_PAGE}, ?name_like=…), ` +
    `same clients and duration; ratio = ours ÷ json-server for req/s, json-server ÷ ours for CPU per request (above 1: we are ahead):`,
  '',
  '| call | ours req/s | json-server req/s | ratio | ours CPU/req | json-server CPU/req | ratio | ours p99 | json-server p99 |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...pairs.map(({ label, ours, theirs }) =>
    `| ${label} | ${ours.rps.toFixed(0)} | ${theirs.rps.toFixed(0)} | ${(ours.rps / Math.max(theirs.rps, 0.01)).toFixed(1)}× | ` +
    `${ours.cpuPerRequest.toFixed(2)} ms | ${theirs.cpuPerRequest.toFixed(2)} ms | ${(theirs.cpuPerRequest / Math.max(ours.cpuPerRequest, 0.001)).toFixed(1)}× | ${ours.p99} ms | ${theirs.p99} ms |`),
  '',
].join('\n');
const rowsLabel = ROWS >= 1e6 && ROWS % 1e6 === 0 ? `${ROWS / 1e6}m` : ROWS % 1e3 === 0 ? `${ROWS / 1e3}k` : String(ROWS);
if (!only) fs.writeFileSync(new URL(`./results-${bench.dialect}-${rowsLabel}.md`, import.meta.url), table);
console.log(`\n${table}`);

await Promise.all(servers.map((s) => s.stop()));
await bench.close();
