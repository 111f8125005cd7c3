/**
 * Answers kept while the database is unchanged (sessions, list pages), on both databases: reading
 * never moves the generation they are kept under, any write does, wherever it comes from, and a
 * kept page is never served after a write. (Writes by another API process: processes.test.ts.)
 */
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generationOf, oneReading, openDatabase, outsideRequest } from '../../server/db';
import { DEMO_ACCOUNTS } from '../../resources/users/demo';
import { dialect, startServer, type TestServer } from './harness';

describe(`answers kept between writes on ${dialect}`, () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startServer();
    token = await server.login(DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password);
  });
  afterAll(() => server.close());

  it('reads leave the generation alone, so a page and a session asked again are answered from what was kept', async () => {
    const first = await server.post('/shops', { page: 1 }, token);
    // PostgreSQL's generation is the cluster's snapshot, which a write in another database of the
    // cluster (another test file's) moves too: the reads are tried again then, up to three times. A
    // read that wrote would move it every time.
    const moved: boolean[] = [];
    for (let attempt = 0; attempt < 3 && !moved.includes(false); attempt++) {
      const generation = await generationOf(server.db);
      expect(generation).toEqual(expect.any(String));
      expect((await server.post('/shops', { page: 1 }, token)).body).toEqual(first.body);
      await server.post('/products', { page: 1 }, token);
      await server.post('/search-dive', { keyIndex: 10, value: 'shop', targets: ['id', 'name'] }, token);
      moved.push((await generationOf(server.db)) !== generation);
    }
    expect(moved).toContain(false);
    // SQLite's generation is this database's alone: exact.
    if (dialect === 'sqlite') expect(moved).toEqual([false]);
  });

  it('a write through the server moves it, and the next page shows the write', async () => {
    const before = (await server.post('/shops', { page: 1 }, token)).body.HLL;
    const generation = await generationOf(server.db);
    const id = before.data[0].id;
    expect((await server.post('/shop/status', { id, is_active: before.data[0].is_active ? 0 : 1 }, token)).body).toMatchObject({ status: true });
    expect(await generationOf(server.db)).not.toBe(generation);
    expect((await server.post('/shops', { page: 1 }, token)).body.HLL.data[0].is_active).toBe(before.data[0].is_active ? 0 : 1);
  });

  it('a write made beside the server (another connection, an import) is seen at once', async () => {
    const before = (await server.post('/shops', { page: 1 }, token)).body.HLL;
    await server.db.updateTable('shops').set({ name: 'Renamed beside the server' }).where('id', '=', before.data[0].id).execute();
    const after = (await server.post('/shops', { page: 1 }, token)).body.HLL;
    expect(after.data[0]).toMatchObject({ id: before.data[0].id, name: 'Renamed beside the server' });
    // A session ended beside the server is ended for the next call.
    await server.db.deleteFrom('sessions').execute();
    expect((await server.post('/shops', { page: 1 }, token)).http).toBe(401);
  });
});

describe(`one reading of the generation per request on ${dialect}`, () => {
  it("is reused until the request writes, and is never older than the request", async () => {
    const server = await startServer();
    try {
      // A commit made before the request began is seen by it (the request's reading is not older
      // than the request). Asserted as a move, which a write elsewhere in PostgreSQL's cluster
      // cannot undo, rather than as an equality it could break.
      const before = await generationOf(server.db);
      await server.db.updateTable('shops').set({ name: 'Written before the request' }).where('id', '=', 1).execute();
      await oneReading(async () => {
        const first = await generationOf(server.db);
        expect(first).not.toBe(before);
        expect(await generationOf(server.db)).toBe(first);
        // The request writes: the next reading is taken again, after the write.
        await server.db.updateTable('shops').set({ name: 'Written by the request' }).where('id', '=', 1).execute();
        const after = await generationOf(server.db);
        expect(after).not.toBe(first);
        expect(await generationOf(server.db)).toBe(after);
      });
      // A write by another connection (another process) during the request is not the request's to
      // see; work that outlives the request (outsideRequest) reads anew and sees it.
      const other = openDatabase(server.databaseUrl ? { url: server.databaseUrl } : { file: path.join(server.dataDir, 'test.sqlite') });
      try {
        await oneReading(async () => {
          const first = await generationOf(server.db);
          await other.db.updateTable('shops').set({ name: 'Written by another process' }).where('id', '=', 1).execute();
          expect(await generationOf(server.db)).toBe(first);
          expect(await outsideRequest(() => generationOf(server.db))).not.toBe(first);
        });
      } finally {
        await other.close();
      }
      // Outside a request every reading is new: a write made meanwhile shows.
      await server.db.updateTable('shops').set({ name: 'Written again' }).where('id', '=', 1).execute();
      expect(await generationOf(server.db)).not.toBe(before);
    } finally {
      await server.close();
    }
  });
});

describe(`a kept page compressed once per encoding on ${dialect}`, () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startServer();
    token = await server.login(DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password);
  });
  afterAll(() => server.close());

  /** POST a page of shops (or GET a REST path) as a browser does, the answer's bytes as they came (not decompressed). */
  const raw = (body: unknown, acceptEncoding?: string, restPath?: string) =>
    new Promise<{ headers: http.IncomingHttpHeaders; bytes: Buffer }>((resolve, reject) => {
      const headers: Record<string, string> = { authorization: `Bearer ${token}`, ...(restPath ? {} : { 'content-type': 'application/json' }) };
      if (acceptEncoding !== undefined) headers['accept-encoding'] = acceptEncoding;
      const req = http.request(`${server.url}${restPath ?? '/shops'}`, { method: restPath ? 'GET' : 'POST', headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ headers: res.headers, bytes: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end(restPath ? undefined : JSON.stringify(body));
    });

  it('sends the same answer in each encoding the client accepts, compressing it once it is kept', async () => {
    const page = { page: 1, per_page: 15 };
    const plain = await raw(page);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const answer = JSON.parse(plain.bytes.toString('utf8'));
    expect(answer.HLL.data.length).toBeGreaterThan(0);
    expect(plain.bytes.length).toBeGreaterThan(1024);

    const brotli = vi.spyOn(zlib, 'brotliCompressSync');
    const gzip = vi.spyOn(zlib, 'gzipSync');
    // PostgreSQL's generation is the cluster's snapshot: a write in another database of the cluster
    // (another test file's, running meanwhile) moves it too, and the page is then read, and
    // compressed, again: a page is kept from its second ask at one generation, so each move seen
    // around a request allows two more compressions. On SQLite, and on a quiet cluster, there are none.
    let generation = await generationOf(server.db);
    let moves = 0;
    const seen = async () => {
      const now = await generationOf(server.db);
      if (now !== generation) moves++;
      generation = now;
    };
    try {
      for (let i = 0; i < 3; i++) {
        const br = await raw(page, 'gzip, deflate, br, zstd');
        await seen();
        expect(br.headers).toMatchObject({ 'content-encoding': 'br', vary: 'accept-encoding', 'content-length': String(br.bytes.length) });
        expect(JSON.parse(zlib.brotliDecompressSync(br.bytes).toString('utf8'))).toEqual(answer);
      }
      expect(brotli.mock.calls.length).toBeGreaterThanOrEqual(1);
      expect(brotli.mock.calls.length).toBeLessThanOrEqual(1 + 2 * moves);
      if (dialect === 'sqlite') expect(moves).toBe(0);
      // gzip when brotli is refused or not offered; '*' reads as gzip.
      for (const accepted of ['br;q=0, gzip', 'gzip', '*']) {
        const gz = await raw(page, accepted);
        await seen();
        expect(gz.headers['content-encoding']).toBe('gzip');
        expect(JSON.parse(zlib.gunzipSync(gz.bytes).toString('utf8'))).toEqual(answer);
      }
      expect(gzip.mock.calls.length).toBeGreaterThanOrEqual(1);
      expect(gzip.mock.calls.length).toBeLessThanOrEqual(1 + 2 * moves);
      // Nothing the server offers: the text as it is.
      for (const accepted of ['identity', 'deflate', '']) {
        const none = await raw(page, accepted);
        expect(none.headers['content-encoding']).toBeUndefined();
        expect(none.bytes.equals(plain.bytes)).toBe(true);
      }
      // A write makes a new page, showing the write. It is kept from its second ask (GenerationCache):
      // read and compressed for the first two, sent as kept bytes from the third on.
      const first = answer.HLL.data[0];
      const flipped = first.is_active ? 0 : 1;
      const before = brotli.mock.calls.length;
      expect((await server.post('/shop/status', { id: first.id, is_active: flipped }, token)).body).toMatchObject({ status: true });
      await seen();
      const movesBefore = moves;
      for (let i = 0; i < 4; i++) {
        const after = await raw(page, 'br');
        await seen();
        expect(JSON.parse(zlib.brotliDecompressSync(after.bytes).toString('utf8')).HLL.data[0]).toMatchObject({ id: first.id, is_active: flipped });
      }
      expect(brotli.mock.calls.length).toBeGreaterThanOrEqual(before + 2);
      expect(brotli.mock.calls.length).toBeLessThanOrEqual(before + 2 + 2 * (moves - movesBefore));
    } finally {
      brotli.mockRestore();
      gzip.mockRestore();
    }
  });

  it("keeps the REST face's list the same way, with its range headers", async () => {
    const path = '/rest/shops?range=[0,14]&sort=["id","DESC"]';
    const plain = await raw(undefined, undefined, path);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const rows = JSON.parse(plain.bytes.toString('utf8'));
    expect(rows.length).toBeGreaterThan(0);
    expect(plain.bytes.length).toBeGreaterThan(1024);
    const brotli = vi.spyOn(zlib, 'brotliCompressSync');
    try {
      for (let i = 0; i < 3; i++) {
        const br = await raw(undefined, 'gzip, deflate, br, zstd', path);
        expect(br.headers).toMatchObject({ 'content-encoding': 'br', 'content-range': plain.headers['content-range'], 'x-total-count': plain.headers['x-total-count'] });
        expect(JSON.parse(zlib.brotliDecompressSync(br.bytes).toString('utf8'))).toEqual(rows);
      }
      expect(brotli).toHaveBeenCalledTimes(1);
    } finally {
      brotli.mockRestore();
    }
  });
});
