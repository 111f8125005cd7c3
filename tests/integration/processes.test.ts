/**
 * The server as real processes: killed with SIGKILL in the middle of writes, every write it had
 * acknowledged is there after a restart; and two API processes on one database share their
 * writes and their sessions (on SQLite each keeps pages and sessions while the database is
 * unchanged: a write through the other process is seen at once).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db';
import { dialect, freshDatabase, demo } from './harness';
import { startProcess, type ServerProcess } from '../../server/dev/process';

const started: ServerProcess[] = [];
const start = async (env: Record<string, string>) => {
  const server = await startProcess(env);
  started.push(server);
  return server;
};
afterAll(async () => {
  await Promise.all(started.map((s) => s.stop()));
});

const shop = (name: string) => ({
  name, description: 'Durable goods', category_id: 1,
  address: { street_name: '1 Test Road', zip: '1000', country: 'Nigeria' },
  bank: { bank_name: 'Bank', bank_country: 'Nigeria', account_name: 'Test', account_number: '1' },
});

/** Where a server process keeps its data: DATA_DIR for SQLite, DATABASE_URL for PostgreSQL. */
async function storage() {
  const fresh = await freshDatabase();
  await fresh.database.close();
  const env: Record<string, string> = fresh.url ? { DATABASE_URL: fresh.url } : { DATA_DIR: fresh.dir };
  const read = async (ids: number[]) => {
    const database = fresh.url ? openDatabase({ url: fresh.url }) : openDatabase({ file: `${fresh.dir}/marketplace.sqlite` });
    try {
      return await database.db.selectFrom('shops').select(['id', 'name']).where('id', 'in', ids).execute();
    } finally {
      await database.close();
    }
  };
  return { env, read, drop: fresh.drop };
}

describe(`durability on ${dialect}`, () => {
  it('keeps every acknowledged write when the server is killed (SIGKILL) during writes', async () => {
    const store = await storage();
    const server = await start(store.env);
    const token = await server.login(demo.admin.email, demo.admin.password);
    const acknowledged = new Map<number, string>();
    let reached!: () => void;
    const enough = new Promise<void>((resolve) => (reached = resolve));
    let sent = 0;
    const writer = async (w: number) => {
      for (let i = 0; ; i++) {
        const name = `durable ${w}-${i}`;
        sent++;
        let answer;
        try {
          answer = await server.post('/shop', shop(name), token);
        } catch {
          return; // the connection died with the server: this write was never acknowledged
        }
        expect(answer.body).toMatchObject({ status: true });
        acknowledged.set(Number(answer.body.detail.id), name);
        if (acknowledged.size >= 150) reached();
      }
    };
    const writers = Array.from({ length: 8 }, (_, w) => writer(w));
    await enough;
    expect(await server.kill()).toBe('SIGKILL');
    await Promise.all(writers);
    expect(sent).toBeGreaterThan(acknowledged.size); // writes were in flight when it died

    const ids = [...acknowledged.keys()];
    const rows = await store.read(ids);
    expect(new Map(rows.map((r) => [Number(r.id), r.name]))).toEqual(acknowledged);

    // The restarted server answers for them too.
    const again = await start(store.env);
    const admin = await again.login(demo.admin.email, demo.admin.password);
    const last = Math.max(...ids);
    const found = await again.post('/search-dive', { keyIndex: 10, value: String(last), targets: ['id'] }, admin);
    expect(found.body.HLL).toEqual([expect.objectContaining({ id: last, name: acknowledged.get(last) })]);
    await again.stop();
    await store.drop();
  }, 120_000);
});

describe(`two API processes on one ${dialect} database`, () => {
  it('lose no write made through either, and a session opened on one works on the other', async () => {
    const store = await storage();
    const a = await start(store.env);
    const b = await start(store.env);
    const signedIn = await a.post('/user/terminal', { credential: demo.admin.email, password: demo.admin.password, source: 'inbuilt', actionType: 'login' });
    const onA = signedIn.body.detail.token as string;
    const adminId = signedIn.body.detail.id as number;
    const seller = await b.login(demo.seller.email, demo.seller.password);
    const me = await b.post('/users', { id: adminId }, onA);
    expect(me.body).toMatchObject({ status: true, detail: { id: adminId, email: demo.admin.email } });
    // Both have read (and may keep) the first page before the writes.
    const before = await a.post('/shops', { page: 1 }, onA);
    expect((await b.post('/shops', { page: 1 }, onA)).body).toEqual(before.body);
    const sellersBefore = (await b.post('/shops', { page: 1 }, seller)).body.HLL.total as number;

    const acknowledged = new Map<number, string>();
    await Promise.all(
      [a, b, a, b, a, b].map(async (server, w) => {
        for (let i = 0; i < 20; i++) {
          const name = `both ${w}-${i}`;
          const answer = await server.post('/shop', shop(name), w % 2 ? seller : onA);
          expect(JSON.stringify({ w, i, ...answer.body })).toContain(`"status":true`);
          acknowledged.set(Number(answer.body.detail.id), name);
        }
      }),
    );
    expect(acknowledged.size).toBe(120);
    const rows = await store.read([...acknowledged.keys()]);
    expect(new Map(rows.map((r) => [Number(r.id), r.name]))).toEqual(acknowledged);
    // Each process sees what the other wrote: the seller's own list, through A with B's session.
    const mine = await a.post('/shops', { page: 1, per_page: 100 }, seller);
    expect(mine.body.HLL.total).toBe(sellersBefore + 60);
    const newest = Math.max(...acknowledged.keys());
    for (const server of [a, b]) {
      const after = (await server.post('/shops', { page: 1 }, onA)).body.HLL;
      expect(after.total).toBe(before.body.HLL.total + 120);
      expect(after.data[0]).toMatchObject({ id: newest, name: acknowledged.get(newest) });
    }
    // A change made through one process shows in the page the other has just served.
    const renamed = await a.post('/shop', { ...shop('renamed through A'), id: newest }, onA);
    expect(renamed.body).toMatchObject({ status: true });
    expect((await b.post('/shops', { page: 1 }, onA)).body.HLL.data[0]).toMatchObject({ id: newest, name: 'renamed through A' });
    // Signing out on one ends the session on the other.
    expect((await a.post('/user/logout', {}, onA)).body).toMatchObject({ status: true });
    expect((await b.post('/users', { id: adminId }, onA)).http).toBe(401);
    await Promise.all([a.stop(), b.stop()]);
    await store.drop();
  }, 120_000);
});

