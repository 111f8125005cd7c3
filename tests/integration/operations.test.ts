/**
 * Running it: slow and half-open connections are cut off, expired sessions and used reset links are
 * purged, the console's pages carry security headers, the database is private to the server's
 * user, and mails go out over SMTP when it is configured.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase, type Database } from '../../server/db';
import { purgeExpired } from '../../server/maintenance';
import { MailWorker, smtpTransport } from '../../server/mail';
import { seedDemo, seedReference } from '../../server/seed';
import { checkedApp, demo } from './harness';
import { startSmtp } from './smtp';

const config = { strict: false, publicUrl: 'http://console.test', demo: true };
let dir: string;
let database: Database;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'marketplace-ops-'));
  database = openDatabase({ file: path.join(dir, 'data', 'ops.sqlite') });
  await migrate(database);
  await seedReference(database.db);
  await seedDemo(database.db);
});
afterAll(async () => {
  await database.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Resolves when the server closes the socket; with what it answered before closing. */
const closed = (socket: net.Socket) =>
  new Promise<string>((resolve) => {
    let answer = '';
    socket.on('data', (d) => (answer += d));
    socket.on('close', () => resolve(answer));
    socket.on('error', () => undefined);
  });

describe('connection timeouts', () => {
  it('cuts off a body sent at 1 byte a second, and headers that never end', async () => {
    const app = await checkedApp({ db: database.db, config }, { timeouts: { request: 1000, headers: 600, checkEvery: 100 } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as AddressInfo).port;
    try {
      const slow = net.connect(port, '127.0.0.1');
      const slowDone = closed(slow);
      slow.write('POST /api/chat HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n');
      const drip = setInterval(() => slow.write(' '), 1000);
      // Cut off at the request limit: were it not, the drip would go on and the test time out.
      const answer = await slowDone;
      clearInterval(drip);
      expect(answer).toMatch(/^HTTP\/1\.1 408/);

      const halfOpen = net.connect(port, '127.0.0.1');
      const halfDone = closed(halfOpen);
      halfOpen.write('GET /api/files/images/x_1.png HTTP/1.1\r\nHost: x\r\n');
      expect(await halfDone).toMatch(/^HTTP\/1\.1 408|^$/);
    } finally {
      await app.close();
    }
  });
});

describe('purging', () => {
  it('deletes expired sessions, used or expired reset links and old attempt counters, and keeps the rest', async () => {
    const db = database.db;
    const at = Date.UTC(2031, 5, 1);
    const iso = (ms: number) => new Date(at + ms).toISOString();
    const hour = 3600_000;
    await db.deleteFrom('sessions').execute();
    await db.deleteFrom('password_resets').execute();
    await db.deleteFrom('rate_limits').execute();
    await db.insertInto('sessions').values([
      { token_hash: 'expired', user_id: 1, expires_at: iso(-1), created_at: iso(-hour) },
      { token_hash: 'live', user_id: 1, expires_at: iso(hour), created_at: iso(-hour) },
    ]).execute();
    await db.insertInto('password_resets').values([
      { token_hash: 'r-expired', user_id: 1, expires_at: iso(-1), used_at: null, created_at: iso(-hour) },
      { token_hash: 'r-used', user_id: 1, expires_at: iso(hour), used_at: iso(-5), created_at: iso(-hour) },
      { token_hash: 'r-live', user_id: 1, expires_at: iso(hour), used_at: null, created_at: iso(-hour) },
    ]).execute();
    await db.insertInto('rate_limits').values([
      { key: 'old', window_start: at - 2 * hour, hits: 3 },
      { key: 'recent', window_start: at - 1000, hits: 3 },
    ]).execute();
    expect(await purgeExpired(db, at)).toEqual({ sessions: 1, resets: 2, limits: 1 });
    expect((await db.selectFrom('sessions').select('token_hash').execute()).map((r) => r.token_hash)).toEqual(['live']);
    expect((await db.selectFrom('password_resets').select('token_hash').execute()).map((r) => r.token_hash)).toEqual(['r-live']);
    expect((await db.selectFrom('rate_limits').select('key').execute()).map((r) => r.key)).toEqual(['recent']);
  });
});

describe('security headers', () => {
  it("the console's pages carry a CSP without inline scripts, no framing, nosniff and no referrer; API answers nosniff", async () => {
    const staticDir = path.join(dir, 'dist');
    fs.mkdirSync(staticDir, { recursive: true });
    fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>x</title><script type="module" src="/assets/x.js"></script>');
    fs.writeFileSync(path.join(staticDir, 'config.json'), JSON.stringify({ apiUrl: 'https://api.example.com/api', directoryUrl: '/directory' }));
    const app = await checkedApp({ db: database.db, config }, { staticDir });
    try {
      for (const url of ['/', '/shops/12', '/config.json']) {
        const res = await app.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(200);
        const csp = String(res.headers['content-security-policy']);
        expect(csp).toContain("script-src 'self';");
        expect(csp).toContain("style-src 'self' 'unsafe-inline'");
        expect(csp).toContain("frame-ancestors 'none'");
        expect(csp).toContain("connect-src 'self' https://api.example.com");
        expect(res.headers).toMatchObject({ 'x-frame-options': 'DENY', 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' });
      }
      const api = await app.inject({ method: 'POST', url: '/api/exchangess' });
      expect(api.headers['x-content-type-options']).toBe('nosniff');
    } finally {
      await app.close();
    }
  });

  it("the console's index.html has no inline script for the CSP to allow", () => {
    const html = fs.readFileSync(path.join(__dirname, '../../index.html'), 'utf8');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\bsrc=/);
      expect(body.trim()).toBe('');
    }
    expect(html).not.toMatch(/\son[a-z]+=/i);
  });
});

describe('file permissions', () => {
  it('keeps the database file 0600 in a folder 0700', () => {
    const file = path.join(dir, 'private', 'deep', 'db.sqlite');
    const db = openDatabase({ file });
    try {
      expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
      for (const f of [file, `${file}-wal`, `${file}-shm`].filter((f) => fs.existsSync(f))) expect(fs.statSync(f).mode & 0o777).toBe(0o600);
    } finally {
      void db.close();
    }
  });
});

describe('SMTP delivery', () => {
  it('sends the reset mail over SMTP when configured', async () => {
    const smtp = await startSmtp();
    const worker = new MailWorker({ db: database.db, transport: smtpTransport(smtp.url), envelopeFrom: 'Marketplace <no-reply@console.test>' });
    const app = await checkedApp({ db: database.db, config });
    try {
      const res = await app.inject({ method: 'POST', url: '/api/user/reset', payload: { email: demo.buyer.email } });
      expect(res.json()).toMatchObject({ status: true });
      expect(await worker.tick()).toEqual({ sent: 1, retrying: 0, failed: 0 });
      expect(smtp.received).toHaveLength(1);
      const [mail] = smtp.received;
      expect(mail.to).toEqual([demo.buyer.email]);
      expect(mail.text).toMatch(/^Subject: Reset your password$/m);
      expect(mail.text).toMatch(/^To: buyer@example\.com$/m);
      expect(mail.text).toContain('http://console.test/forgot-password?token=');
    } finally {
      await app.close();
      await smtp.stop();
    }
  });
});
