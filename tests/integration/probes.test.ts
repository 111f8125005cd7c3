/**
 * The operator's probes and metrics: /api/health and /api/ready for the load balancer (open, kept in
 * strict mode, 503 with the reason when the database, its tables, the file storage or the process
 * is not ready), and /metrics in Prometheus' text format, refused without METRICS_TOKEN.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkedApp, freshDatabase, startServer, type TestServer } from './harness';

const TOKEN = 'metrics-secret-1234';
let s: TestServer;
let stopping = false;
beforeAll(async () => {
  s = await startServer({ demo: false, ops: { metricsToken: TOKEN, stopping: () => stopping } });
});
afterAll(() => s.close());

const metrics = (authorization?: string) =>
  fetch(`${s.origin}/metrics`, { headers: authorization === undefined ? {} : { Authorization: authorization } });

describe('the probes', () => {
  it('/api/health and /api/ready answer 200 without a session, and are described in the API document', async () => {
    expect(await s.get('/api/health')).toMatchObject({ http: 200, body: { status: true } });
    const ready = await s.get('/api/ready');
    expect(ready).toMatchObject({ http: 200, body: { status: true, query: 'Ready' } });
    expect(ready.headers.get('cache-control')).toBe('no-store');
    const doc = (await s.get('/api/openapi.json')).body;
    expect(doc.paths['/health'].get['x-roles']).toEqual(['anyone']);
    expect(doc.paths['/ready'].get.responses['503']).toBeDefined();
  });

  it('/api/ready answers 503 with the reason once the process is stopping; /api/health still 200', async () => {
    stopping = true;
    try {
      expect(await s.get('/api/ready')).toMatchObject({ http: 503, body: { status: false, query: 'Not ready: the process is stopping' } });
      expect((await s.get('/api/health')).http).toBe(200);
    } finally {
      stopping = false;
    }
    expect((await s.get('/api/ready')).http).toBe(200);
  });

  it('/api/ready answers 503 when the tables are not migrated, the database is gone, or the storage is not writable', async () => {
    const fresh = await freshDatabase();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'marketplace-ready-'));
    const start = async (dir: string) => {
      const app = await checkedApp({ db: fresh.database.db, config: { strict: true, publicUrl: 'http://console.test', demo: false, dataDir: dir } });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const ready = async () => {
        const res = await fetch(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/ready`);
        return { http: res.status, body: (await res.json()) as { status: boolean; query: string } };
      };
      return { app, ready };
    };
    try {
      // An empty database: nothing migrated (strict mode keeps the probes).
      const empty = await start(dataDir);
      const answer = await empty.ready();
      expect(answer.http).toBe(503);
      expect(answer.body.query).toMatch(/^Not ready: the database is not migrated \(missing /);
      await empty.app.close();

      const { migrate } = await import('../../server/db');
      await migrate(fresh.database);
      const storage = path.join(dataDir, 'storage');
      const missingDir = await start(storage);
      expect((await missingDir.ready()).http).toBe(200);
      fs.rmSync(storage, { recursive: true });
      expect(await missingDir.ready()).toMatchObject({ http: 503, body: { query: 'Not ready: the file storage (DATA_DIR) is missing or not writable' } });
      await missingDir.app.close();

      const good = await start(dataDir);
      expect((await good.ready()).http).toBe(200);
      await fresh.database.close();
      const gone = await good.ready();
      expect(gone.http).toBe(503);
      expect(gone.body.query).toMatch(/^Not ready: the database cannot be reached/);
      await good.app.close();
    } finally {
      await fresh.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('the metrics', () => {
  it('are refused without the token or with another, and off (404) without METRICS_TOKEN', async () => {
    for (const authorization of [undefined, '', `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, TOKEN, `Basic ${TOKEN}`]) {
      const res = await metrics(authorization);
      expect(res.status, String(authorization)).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(await res.json()).toMatchObject({ status: false, query: 'Metrics need Authorization: Bearer <METRICS_TOKEN>' });
    }
    const off = await startServer({ demo: false });
    try {
      const res = await fetch(`${off.origin}/metrics`, { headers: { Authorization: 'Bearer ' } });
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ status: false, query: 'Metrics are off: set METRICS_TOKEN to read them' });
    } finally {
      await off.close();
    }
  });

  it('count and time requests by route and status, in Prometheus text format, with the process and database gauges', async () => {
    const count = async (route: string, status: string) => {
      const text = await (await metrics(`Bearer ${TOKEN}`)).text();
      const line = text.split('\n').find((l) => l.startsWith('http_request_duration_seconds_count{') && l.includes(`route="${route}"`) && l.includes(`status="${status}"`));
      return line ? Number(line.split(' ').pop()) : 0;
    };
    const before = await count('/api/shops', '401');
    for (let i = 0; i < 3; i++) expect((await s.post('/shops', { page: 1 })).http).toBe(401);
    expect(await count('/api/shops', '401')).toBe(before + 3);

    const res = await metrics(`Bearer ${TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain; version=0.0.4');
    const text = await res.text();
    expect(text).toMatch(/^# TYPE http_request_duration_seconds histogram$/m);
    expect(text).toMatch(/^http_request_duration_seconds_bucket\{le="0\.005",method="POST",route="\/api\/shops",status="401"\} \d+$/m);
    for (const name of [
      'nodejs_eventloop_lag_seconds', 'process_resident_memory_bytes', 'nodejs_heap_size_used_bytes', 'marketplace_db_connections_in_use',
      'marketplace_db_connections_open', 'marketplace_event_streams_open', 'marketplace_mails_waiting', 'marketplace_api_processes',
    ]) {
      expect(text, name).toMatch(new RegExp(`^${name} \\d`, 'm'));
    }
  });

  it('count the mails waiting in the outbox', async () => {
    const waiting = async () => Number(/^marketplace_mails_waiting (\d+)$/m.exec(await (await metrics(`Bearer ${TOKEN}`)).text())![1]);
    const before = await waiting();
    await s.db.insertInto('mail_outbox').values({ to_email: 'someone@example.com', subject: 'Hello', body: 'Hi', created_at: new Date().toISOString() }).execute();
    expect(await waiting()).toBe(before + 1);
  });
});
