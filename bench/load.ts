/**
 * A load run, not part of `npm test`: 100 clients for 60 s against the real server on loopback,
 * mixing reads (lists, searches) and writes (new shops, order status changes), bounded in time and
 * in count. Reports req/s, p50, p99 and errors, checks that every acknowledged new shop is stored,
 * and exits with 1 on any error.
 *
 *   npm run bench:load
 *   LOAD_CLIENTS=20 LOAD_SECONDS=10 LOAD_ROWS=10000 npm run bench:load
 *   BENCH_DB=postgres LOAD_PROCESSES=2 npm run bench:load
 */
import autocannon from 'autocannon';
import { benchDatabase, seedOnce, startServers, DEMO_ACCOUNTS } from './support';

const CLIENTS = Number(process.env.LOAD_CLIENTS ?? 100);
const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const MAX_REQUESTS = Number(process.env.LOAD_MAX_REQUESTS ?? 2_000_000);
const ROWS = Number(process.env.LOAD_ROWS ?? 100_000);
const PROCESSES = Number(process.env.LOAD_PROCESSES ?? 1);

const bench = await benchDatabase();
const { db } = bench.database;
const buyer = Number((await db.selectFrom('users').select('id').where('email', '=', DEMO_ACCOUNTS.buyer.email).executeTakeFirstOrThrow()).id);
await seedOnce(bench, ROWS, 2, buyer);
const servers = await startServers(bench.env, PROCESSES);
const admin = await servers[0].login(DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password);
const seller = await servers[0].login(DEMO_ACCOUNTS.seller.email, DEMO_ACCOUNTS.seller.password);
const order = Number((await db.selectFrom('orders').select('id').where('seller_id', '=', 2).orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow()).id);
const run = `load ${Date.now()}`;

const headers = (token: string) => ({ 'content-type': 'application/json', authorization: `Bearer ${token}` });
const call = (path: string, token: string, body: unknown): autocannon.Request => ({ method: 'POST', path: `/api${path}`, headers: headers(token), body: JSON.stringify(body) });
let created = 0;
let made = 0;
const requests: autocannon.Request[] = [
  call('/products', admin, { page: 1 }),
  call('/search-dive', admin, { keyIndex: 7, value: 'product 4242', targets: ['id', 'name'], page: 1, per_page: 15 }),
  {
    ...call('/shop', seller, {}),
    setupRequest: (request) => ({
      ...request,
      body: JSON.stringify({
        name: `${run} ${made++}`, description: 'Load run', category_id: 1,
        address: { street_name: '1 Load Road', zip: '1000', country: 'Nigeria' },
        bank: { bank_name: 'Bank', bank_country: 'Nigeria', account_name: 'Load', account_number: '1' },
      }),
    }),
    onResponse: (status) => void (status === 200 && created++),
  },
  call('/products', seller, { page: 1 }),
  call('/orders', admin, { page: 3 }),
  call('/order/status', seller, { id: order, status: 2 }),
  call('/shops', seller, { page: 2 }),
  call('/search-dive', seller, { keyIndex: 10, value: 'shop 12', targets: ['id', 'name'], page: 1, per_page: 15 }),
];

console.log(`Load: ${CLIENTS} clients × ${SECONDS} s (at most ${MAX_REQUESTS.toLocaleString()} requests), ${PROCESSES} process(es) on ${bench.dialect} with ${ROWS.toLocaleString()} rows`);
// Bounded in time (duration) and in count: each run stops once its share of requests is answered.
const share = Math.round(MAX_REQUESTS / servers.length);
const results = await Promise.all(
  servers.map(
    (s) =>
      new Promise<autocannon.Result>((resolve, reject) => {
        let answered = 0;
        const instance = autocannon(
          {
            url: s.url.replace(/\/api$/, ''),
            connections: Math.max(1, Math.round(CLIENTS / servers.length)),
            duration: SECONDS,
            timeout: 10,
            requests,
          },
          (error, result) => (error ? reject(error) : resolve(result)),
        );
        instance.on('response', () => {
          if (++answered === share) instance.stop();
        });
      }),
  ),
);
const total = results.reduce((a, r) => a + r.requests.total, 0);
const rps = results.reduce((a, r) => a + r.requests.average, 0);
const errors = results.reduce((a, r) => a + r.errors + r.timeouts, 0);
const non2xx = results.reduce((a, r) => a + r.non2xx, 0);
const p99 = Math.max(...results.map((r) => r.latency.p99));
const p50 = Math.max(...results.map((r) => r.latency.p50));
const stored = Number((await db.selectFrom('shops').select((eb) => eb.fn.countAll().as('n')).where('name', 'like', `${run} %`).executeTakeFirstOrThrow()).n);
console.log(`${total.toLocaleString()} requests, ${rps.toFixed(0)} req/s, p50 ${p50} ms, p99 ${p99} ms, errors ${errors}, non-2xx ${non2xx}`);
console.log(`new shops acknowledged ${created}, stored ${stored}`);
await Promise.all(servers.map((s) => s.stop()));
await bench.close();
process.exit(errors || non2xx || stored < created ? 1 : 0);
