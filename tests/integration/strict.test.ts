/** CONTRACT_STRICT: only the contract. Extension endpoints answer 404, extension fields are ignored. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, demo, shopBody, type TestServer } from './harness';

let s: TestServer;
let admin: string;
beforeAll(async () => {
  s = await startServer({ strict: true });
  admin = await s.login(demo.admin.email, demo.admin.password);
});
afterAll(() => s.close());

describe('strict contract mode', () => {
  it('has no extension endpoints', async () => {
    const res = await s.post('/user/logout', {}, admin);
    expect(res.http).toBe(404);
    expect(res.body.status).toBe(false);
  });

  it('ignores per_page, sort and filter: pages of 15, newest first, as the paginator says', async () => {
    // Enough shops for two pages of 15, whatever the demo holds.
    const owner = await s.userWith([1, 2]);
    for (let i = 0; i < 16; i++) expect((await s.post('/shop', shopBody(`Strict ${i}`), owner.token)).body.status).toBe(true);
    const total = Number((await s.db.selectFrom('shops').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const res = await s.post('/shops', { page: 2, per_page: 5, sort: 'name', order: 'ASC', filter: { owner_id: 999 } }, admin);
    expect(res.body.HLL).toMatchObject({ per_page: 15, current_page: 2, from: 16, to: Math.min(30, total), total, last_page: Math.ceil(total / 15) });
    // The sort asked for is ignored: newest first, as without it.
    expect(res.body.HLL.data.map((r: { id: number }) => r.id)).toEqual([...res.body.HLL.data.map((r: { id: number }) => r.id)].sort((a, b) => b - a));
  });

  it('answers searches and array lists whole, with no total', async () => {
    const matching = await s.db.selectFrom('shops').select('id').where('name', 'like', '%Store%').execute();
    expect(matching.length).toBeGreaterThan(5);
    const search = await s.post('/search-dive', { keyIndex: 10, value: 'Store', targets: ['name'], page: 1, per_page: 5 }, admin);
    expect(search.body.HLL).toHaveLength(matching.length);
    expect(search.body).not.toHaveProperty('total');
    const allRates = await s.db.selectFrom('exchanges').select('id').execute();
    expect(allRates.length).toBeGreaterThan(2);
    const rates = await s.post('/exchangess', { page: 1, per_page: 2 }, admin);
    expect(rates.body.HLL).toHaveLength(allRates.length);
    expect(rates.body).not.toHaveProperty('total');
  });
});

describe('extensions outside strict mode', () => {
  it('pages array lists and searches when per_page is sent, with the total', async () => {
    const loose = await startServer();
    try {
      const token = await loose.login(demo.admin.email, demo.admin.password);
      const rates = await loose.post('/exchangess', { page: 2, per_page: 2 }, token);
      expect(rates.body.HLL).toHaveLength(2);
      expect(rates.body.total).toBe(Number((await loose.db.selectFrom('exchanges').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n));
      const brands = await loose.post('/brands', { page: 1, filter: { is_active: 0 } }, token);
      expect(brands.body.HLL.data.map((b: { name: string }) => b.name)).toEqual(['Zenith']);
      const sorted = await loose.post('/shops', { page: 1, per_page: 3, sort: 'name', order: 'ASC' }, token);
      expect(sorted.body.HLL.data.map((r: { name: string }) => r.name)).toEqual(["Olu's Store 13", "Olu's Store 14", "Olu's Store 15"]);
    } finally {
      await loose.close();
    }
  });
});
