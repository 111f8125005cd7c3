/**
 * The several-process shape on one machine: an embedded PostgreSQL, two API processes
 * (`server/main.ts`) on it, and a small round-robin balancer in front, at http://HOST:PORT.
 *
 *   npm run cluster                    # console and API at http://127.0.0.1:8080
 *   CLUSTER_PROCESSES=3 npm run cluster
 *
 * The database lives in a temporary folder and goes away on Ctrl-C: this is for trying the shape
 * (and for load runs), not for keeping data. In production point DATABASE_URL at your PostgreSQL
 * and put your own load balancer in front (see the README).
 */
import http from 'node:http';
import { readConfig } from '../config';
import { startLocalPostgres } from './embeddedPostgres';
import { startProcess, type ServerProcess } from './process';

const config = readConfig();
const count = Number(process.env.CLUSTER_PROCESSES ?? 2);
const postgres = await startLocalPostgres();
const url = await postgres.createDatabase('marketplace');
const servers: ServerProcess[] = [];
for (let i = 0; i < count; i++) {
  // Every connection comes from the balancer below: the per-address cap would count all clients as one.
  servers.push(await startProcess({
    DATABASE_URL: url, STATIC_DIR: config.staticDir, PUBLIC_URL: config.publicUrl, DEMO: config.demo ? '1' : '0', MAX_CONNECTIONS_PER_ADDRESS: '0',
  }));
  console.log(`API process ${i + 1} at ${servers[i].url.replace(/\/api$/, '')} (pid ${servers[i].child.pid})`);
}

let next = 0;
const balancer = http.createServer((req, res) => {
  const target = new URL(servers[next++ % servers.length].url);
  const upstream = http.request(
    { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status: false, query: 'The API process could not be reached' }));
  });
  req.pipe(upstream);
});
balancer.listen(config.port, config.host, () =>
  console.log(`Marketplace console at http://${config.host}:${config.port}: ${count} API processes on PostgreSQL ${url.replace(/\/\/[^@]*@/, '//')}`),
);

const stop = async () => {
  balancer.close();
  await Promise.all(servers.map((s) => s.stop()));
  await postgres.stop();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
