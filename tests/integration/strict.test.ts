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
    // More matching shops than the page size asked for, under a word no other row holds.
    const owner = await s.userWith([1, 2]);
    const word = `Whole${owner.id}`;
    const made: number[] = [];
    for (let i = 0; i < 7; i++) made.push((await s.post('/shop', shopBody(`${word} shop ${i}`), owner.token)).body.detail.id);
    const search = await s.post('/search-dive', { keyIndex: 10, value: word, targets: ['name'], page: 1, per_page: 5 }, admin);
    expect(search.body.HLL.map((r: { id: number }) => r.id).sort((a: number, b: number) => a - b)).toEqual(made);
    expect(search.body).not.toHaveProperty('total');
    for (const code of ['XTA', 'XTB', 'XTC']) {
      expect((await s.post('/exchanges', { code, country: 'Nowhere', currency: code, currency_symbol: '¤', value_per_dollar: 2 }, admin)).body.status).toBe(true);
    }
    const allRates = await s.db.selectFrom('exchanges').select('code').execute();
    const rates = await s.post('/exchangess', { page: 1, per_page: 2 }, admin);
    expect(rates.body.HLL.map((r: { code: string }) => r.code).sort()).toEqual(allRates.map((r) => r.code).sort());
    expect(rates.body).not.toHaveProperty('total');
  });
});

describe('extensions outside strict mode', () => {
  it('pages array lists and searches when per_page is sent, with the total; filters and sorts lists', async () => {
    const loose = await startServer();
    try {
      const token = await loose.login(demo.admin.email, demo.admin.password);
      for (const code of ['XTA', 'XTB', 'XTC', 'XTD']) {
        expect((await loose.post('/exchanges', { code, country: 'Nowhere', currency: code, currency_symbol: '¤', value_per_dollar: 2 }, token)).body.status).toBe(true);
      }
      const held = await loose.db.selectFrom('exchanges').select('id').orderBy('id', 'desc').execute();
      const rates = await loose.post('/exchangess', { page: 2, per_page: 2 }, token);
      expect(rates.body.HLL.map((r: { id: number }) => r.id)).toEqual(held.slice(2, 4).map((r) => r.id));
      expect(rates.body.total).toBe(held.length);

      // Brands of the test's own, one of them inactive: the filter answers exactly the inactive rows.
      for (const [name, active] of [['Filter Lit', 1], ['Filter Dark', 0]] as const) {
        const made = await loose.post('/brand', { name, type: 'popular', product_id: 0 }, token);
        if (!active) expect((await loose.post('/brand/status', { id: made.body.detail.id, is_active: 0 }, token)).body.status).toBe(true);
      }
      const inactive = await loose.db.selectFrom('brands').select('name').where('is_active', '=', 0).orderBy('id', 'desc').execute();
      const brands = await loose.post('/brands', { page: 1, per_page: 100, filter: { is_active: 0 } }, token);
      expect(brands.body.HLL.data.map((b: { name: string }) => b.name)).toEqual(inactive.map((b) => b.name));
      expect(inactive.map((b) => b.name)).toContain('Filter Dark');
      expect(inactive.map((b) => b.name)).not.toContain('Filter Lit');

      // A new seller's shops, made out of name order: sorted by name either way, a page at a time.
      const owner = await loose.userWith([1, 2]);
      for (const name of ['Sort B', 'Sort D', 'Sort A', 'Sort C']) expect((await loose.post('/shop', shopBody(name), owner.token)).body.status).toBe(true);
      const sorted = async (order: string) =>
        (await loose.post('/shops', { page: 1, per_page: 3, sort: 'name', order, filter: { owner_id: owner.id } }, token)).body.HLL.data.map((r: { name: string }) => r.name);
      expect(await sorted('ASC')).toEqual(['Sort A', 'Sort B', 'Sort C']);
      expect(await sorted('DESC')).toEqual(['Sort D', 'Sort C', 'Sort B']);
    } finally {
      await loose.close();
    }
  });
});
