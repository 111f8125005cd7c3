/**
 * The several-machine shape on one machine: an embedded PostgreSQL, an S3-compatible store (s3rver)
 * for the uploaded files, two API processes (`server/main.ts`) on them, each with a DATA_DIR of its
 * own as separate machines would have, and a small round-robin balancer in front, at http://HOST:PORT.
 *
 *   npm run cluster                    # console and API at http://127.0.0.1:8080
 *   CLUSTER_PROCESSES=3 npm run cluster
 *
 * The database, the bucket and the DATA_DIRs live in temporary folders and go away on Ctrl-C: this is
 * for trying the shape (and for load runs), not for keeping data. With FILES_BUCKET set (and the AWS
 * SDK's environment) the processes use that bucket instead of a local store. In production point DATABASE_URL at
 * your PostgreSQL, FILES_BUCKET at your bucket, and put your own load balancer in front (see docs/operations.md).
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { readConfig } from '../config';
import { startLocalPostgres } from './embeddedPostgres';
import { startLocalObjectStore } from './objectStore';
import { startProcess, type ServerProcess } from './process';

const config = readConfig();
const count = Number(process.env.CLUSTER_PROCESSES ?? 2);
const postgres = await startLocalPostgres();
const url = await postgres.createDatabase('marketplace');
// FILES_BUCKET set: that bucket (with the AWS SDK's environment, which the processes inherit);
// otherwise a local S3-compatible store.
const bucket = config.filesBucket ? undefined : await startLocalObjectStore();
console.log(bucket ? `Files in bucket ${bucket.bucket} at ${bucket.endpoint} (s3rver)` : `Files in bucket ${config.filesBucket}`);
const servers: ServerProcess[] = [];
const dataDirs: string[] = [];
for (let i = 0; i < count; i++) {
  dataDirs.push(fs.mkdtempSync(path.join(os.tmpdir(), `marketplace-api-${i + 1}-`)));
  // Every connection comes from the balancer below, which names the client in X-Forwarded-For as a
  // real one does: the processes trust it by its address (TRUST_PROXY), so the per-address limits
  // count each client, not the balancer. Connections are still the balancer's: no per-address cap.
  servers.push(await startProcess({
    DATABASE_URL: url, DATA_DIR: dataDirs[i], ...bucket?.env, TRUST_PROXY: '127.0.0.1',
    STATIC_DIR: config.staticDir, PUBLIC_URL: config.publicUrl, DEMO: config.demo ? '1' : '0', MAX_CONNECTIONS_PER_ADDRESS: '0',
  }));
  console.log(`API process ${i + 1} at ${servers[i].url.replace(/\/api$/, '')} (pid ${servers[i].child.pid}, DATA_DIR ${dataDirs[i]})`);
}

let next = 0;
const balancer = http.createServer((req, res) => {
  const target = new URL(servers[next++ % servers.length].url);
  const forwarded = [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ');
  const headers = { ...req.headers, 'x-forwarded-for': forwarded, 'x-forwarded-proto': 'http' };
  const upstream = http.request(
    { host: target.hostname, port: target.port, method: req.method, path: req.url, headers },
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
  await Promise.all([postgres.stop(), bucket?.stop()]);
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
