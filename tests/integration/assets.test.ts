/**
 * The console's files over HTTP: hashed build files pre-compressed and cached for a year,
 * index.html and config.json revalidated on every load, large API answers compressed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, demo, type TestServer } from './harness';

let s: TestServer;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'marketplace-static-'));
const script = `console.log(${JSON.stringify('x'.repeat(5000))});\n`.repeat(4);

/** A raw GET: headers and the undecoded body. */
function get(p: string, encoding?: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.get(s.origin + p, { headers: encoding ? { 'Accept-Encoding': encoding } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
  });
}

beforeAll(async () => {
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), `<!doctype html><script src="/assets/index-3f9a1c.js"></script>${' '.repeat(2000)}`);
  fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ apiUrl: '/api' }));
  fs.writeFileSync(path.join(dir, 'assets', 'index-3f9a1c.js'), script);
  // As the build leaves them (vite.config.ts writes .br and .gz beside each file).
  const file = path.join(dir, 'assets', 'index-3f9a1c.js');
  fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(script));
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(script));
  s = await startServer({ staticDir: dir });
});
afterAll(async () => {
  await s.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("the console's files", () => {
  it('serves the build\'s pre-compressed copies of hashed files and caches them for a year', async () => {
    const br = await get('/assets/index-3f9a1c.js', 'br, gzip');
    expect(br.headers).toMatchObject({ 'content-encoding': 'br', 'cache-control': 'public, max-age=31536000, immutable' });
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(zlib.brotliDecompressSync(br.body).toString()).toBe(script);
    expect(br.body.length).toBeLessThan(script.length / 10);
    const gz = await get('/assets/index-3f9a1c.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.body).toString()).toBe(script);
    const plain = await get('/assets/index-3f9a1c.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
  });

  it('never serves index.html or config.json stale', async () => {
    for (const p of ['/', '/index.html', '/config.json', '/shops/12']) {
      const res = await get(p, 'br, gzip');
      expect([p, res.status, res.headers['cache-control']]).toEqual([p, 200, 'no-cache']);
    }
  });

  it("answers a console route with the page, and a build file that is not there with 404, not the page", async () => {
    const route = await get('/products/12');
    expect([route.status, route.headers['content-type']]).toEqual([200, expect.stringMatching(/^text\/html/)]);
    // A page of an earlier build asks for its own files, which a new build has replaced.
    for (const p of ['/assets/index-0b1d2e.js', '/assets/ProductsScreen-Zx9.js', '/assets/nested/gone.css']) {
      const gone = await get(p, 'br, gzip');
      expect([p, gone.status, gone.headers['content-type']]).toEqual([p, 404, expect.stringMatching(/^application\/json/)]);
      expect(JSON.parse(gone.body.toString())).toMatchObject({ status: false, query: 'Not found' });
    }
  });

  it('compresses large API answers', async () => {
    const admin = await s.login(demo.admin.email, demo.admin.password);
    const res = await fetch(`${s.url}/products`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${admin}`, 'Accept-Encoding': 'gzip' },
      body: JSON.stringify({ page: 1 }),
    });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    const held = Number((await s.db.selectFrom('products').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    expect((await res.json()).HLL.data).toHaveLength(Math.min(15, held));
  });
});
