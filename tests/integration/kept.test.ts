/**
 * Answers kept while the database is unchanged (sessions, list pages), on both databases: reading
 * never moves the generation they are kept under, any write does, wherever it comes from, and a
 * kept page is never served after a write. (Writes by another API process: processes.test.ts.)
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    const generation = await generationOf(server.db);
    expect(generation).toEqual(expect.any(String));
    expect((await server.post('/shops', { page: 1 }, token)).body).toEqual(first.body);
    await server.post('/products', { page: 1 }, token);
    await server.post('/search-dive', { keyIndex: 10, value: 'shop', targets: ['id', 'name'] }, token);
    expect(await generationOf(server.db)).toBe(generation);
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
      const before = await generationOf(server.db);
      await oneReading(async () => {
        const first = await generationOf(server.db);
        // Read after the request began, so not older than it: a commit made before is seen.
        expect(first).toBe(before);
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
