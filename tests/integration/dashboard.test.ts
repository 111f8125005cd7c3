/**
 * The dashboard's aggregate endpoint (an extension): scoped by role (SPEC §2.8, DESIGN D2, D9),
 * refused to anonymous callers, absent in strict mode, where the console's search-dive way gives the
 * same numbers on the demo data.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unitRate, type Rate } from '../../contract';
import { ADMIN_ABILITIES, REGISTER_ABILITIES } from '../../contract';
import type { DashboardStats } from '../../contract/dashboard';
import { loadStats, statsBySearch, type Post } from '../../src/dashboard/stats';
import { startServer, demo, newCategory, productBody, shopBody, type TestServer } from './harness';

let s: TestServer;
let strict: TestServer;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** The last 60 days: the orders this file places, and the demo's (placed in the last four weeks). */
const range = { from: day(Date.now() - 60 * 86_400_000), to: day(Date.now()) };
/** Two sellers of the test's own, each with three shops: an order in each, paid, in four currencies. */
let sellers: { email: string; password: string }[] = [];
const SHOPS = 6;

/**
 * Rows of the test's own, the same on both servers (the search-dive way on the strict one is compared
 * with the aggregate): six shops of two new sellers, each with an order the demo buyer placed and an
 * admin marked paid. The numbers below hold whatever else the database holds; these rows make sure
 * there is something in each of them to count.
 */
async function ownOrders(server: TestServer) {
  const admin = await server.login(demo.admin.email, demo.admin.password);
  const buyer = await server.login(demo.buyer.email, demo.buyer.password);
  const category = await newCategory(server, admin, 'Dashboard goods', { commission_flat_rate: 10 });
  const made: { email: string; password: string; token: string }[] = [];
  for (let k = 0; k < 2; k++) {
    const seller = await server.userWith([1, 2]);
    made.push({ email: seller.email, password: 'password123', token: seller.token });
  }
  const address = { street_name: '5 Broad Street', city: 'Monrovia', state: 'Montserrado', country: 'Liberia', zip: '1000' };
  for (const [k, currency] of ['USD', 'EUR', 'GBP', 'NGN', 'USD', 'EUR'].entries()) {
    const seller = made[k % 2];
    const shop = (await server.post('/shop', shopBody(`Dashboard shop ${k}`), seller.token)).body.detail.id;
    const product = await server.post('/product', productBody(shop, category, `Dashboard lamp ${k}`, { currency, price: 10 * (k + 1) }), seller.token);
    const order = await server.post('/order', { shop_id: shop, items: [{ product_id: product.body.detail.id, quantity: 1 }], shipping_address: address }, buyer);
    expect(order.body.status).toBe(true);
    expect((await server.post('/order', { id: order.body.detail.id, paid_total: order.body.detail.total }, admin)).body.status).toBe(true);
  }
  return made.map(({ email, password }) => ({ email, password }));
}

beforeAll(async () => {
  [s, strict] = await Promise.all([startServer(), startServer({ strict: true })]);
  [sellers] = await Promise.all([ownOrders(s), ownOrders(strict)]);
});
afterAll(async () => {
  await Promise.all([s.close(), strict.close()]);
});

/** A console-side caller: the envelope, or a rejection carrying the HTTP status. */
const poster = (server: TestServer, token: string): Post => async (path, body) => {
  const res = await server.post(path, body, token);
  if (res.http >= 300 || !res.body.status) throw Object.assign(new Error(res.body.query), { status: res.http });
  return res.body;
};

async function signIn(server: TestServer, account: { email: string; password: string }) {
  const res = await server.post('/user/terminal', { credential: account.email, password: account.password, source: 'inbuilt', actionType: 'login' });
  const token = res.body.detail.token as string;
  const profile = (await server.db.selectFrom('users').selectAll().where('email', '=', account.email).executeTakeFirstOrThrow()) as Record<string, unknown>;
  return { token, viewer: { id: Number(profile.id), abilities: profile.abilities, granted_accesses: profile.granted_accesses } };
}

const stats = async (server: TestServer, token: string, body: object = range) => {
  const res = await server.post<DashboardStats>('/dashboard', body, token);
  expect(res.http).toBe(200);
  return res.body.detail!;
};

const ratesOf = async (server: TestServer) => (await server.post('/exchangess', {})).body.HLL as Rate[];

/** The demo data's own numbers, counted with plain queries (not through the endpoint). */
async function expected(server: TestServer, scope: { owner?: number; customer?: number } = {}) {
  const db = server.db;
  const count = async (q: { select: (f: (eb: any) => any) => any }) => Number((await q.select((eb: any) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const ownShops = db.selectFrom('shops').select('id').where('owner_id', '=', scope.owner ?? -1);
  let orders = db.selectFrom('orders');
  if (scope.owner !== undefined) orders = orders.where('shop_id', 'in', ownShops);
  if (scope.customer !== undefined) orders = orders.where('customer_id', '=', scope.customer);
  const totals = (await orders.select(['currency', (eb: any) => eb.fn.sum('paid_total_fxws').as('amount')]).groupBy('currency').orderBy('currency').execute())
    .map((r: any) => ({ currency: r.currency, amount: Number(r.amount) }));
  const users = await db.selectFrom('users').select('abilities').execute();
  const { roleOf } = await import('../../contract');
  const roles = users.map((u) => roleOf(u.abilities));
  return {
    shops: await count(scope.owner !== undefined ? db.selectFrom('shops').where('owner_id', '=', scope.owner) : db.selectFrom('shops')),
    products: await count(scope.owner !== undefined ? db.selectFrom('products').where('shop_id', 'in', ownShops) : db.selectFrom('products')),
    orders: await count(orders),
    totals,
    people: { admins: roles.filter((r) => r === 'admin').length, sellers: roles.filter((r) => r === 'seller').length, buyers: roles.filter((r) => r === 'buyer').length },
  };
}

/** The cards both readings share: the Commissions card is the ledger's on this server, commission subscriptions by search. */
const specCards = <T extends { money?: Record<string, unknown> }>(d: T) => ({ ...d, money: d.money && { ...d.money, commission: undefined } });

describe('POST /dashboard', () => {
  it('gives an admin with the money access every row, in numbers of the demo data', async () => {
    const { token } = await signIn(s, demo.admin);
    const d = await stats(s, token);
    const want = await expected(s);
    expect(d).toMatchObject({ role: 'admin', shops: want.shops, products: want.products });
    expect(d.orders!.count).toBe(want.orders);
    expect(d.orders!.totals.map((t) => ({ ...t, amount: Number(t.amount.toFixed(2)) }))).toEqual(want.totals.map((t) => ({ ...t, amount: Number(t.amount.toFixed(2)) })));
    // The test's own orders are in four currencies: each is added up apart.
    for (const currency of ['USD', 'EUR', 'GBP', 'NGN']) expect(d.orders!.totals.map((t) => t.currency)).toContain(currency);
    // Commissions: what the ledger's postings on the marketplace's commission account add up to, per currency
    // (net of refunds); counted by the sales that earned one.
    const posted = await s.db.selectFrom('ledger_postings').select(['currency', 'amount', 'order_id']).where('account', '=', 'commission').execute();
    const earned = new Map<string, number>();
    for (const p of posted) earned.set(String(p.currency), (earned.get(String(p.currency)) ?? 0) + Number(p.amount));
    expect(d.money!.commission.totals).toEqual([...earned].filter(([, n]) => n !== 0).sort(([a], [b]) => a.localeCompare(b)).map(([currency, n]) => ({ currency, amount: n / 100 })));
    expect(d.money!.commission.count).toBe(new Set(posted.filter((p) => p.order_id !== null && Number(p.amount) > 0).map((p) => Number(p.order_id))).size);
    // The test's six paid orders each earned a commission (10% in their category).
    expect(d.money!.commission.count).toBeGreaterThanOrEqual(SHOPS);
    // Premier and adverts are subscription records of their own type (the spec's defect fixed).
    for (const type of ['premier', 'advert'] as const) {
      const rows = await s.db.selectFrom('subscriptions').select(['currency', 'amount']).where('type', '=', type).execute();
      const sums = new Map<string, number>();
      for (const r of rows) sums.set(String(r.currency), (sums.get(String(r.currency)) ?? 0) + Number(r.amount));
      expect(d.money![type].count).toBe(rows.length);
      expect(d.money![type].totals).toEqual([...sums].sort(([a], [b]) => a.localeCompare(b)).map(([currency, amount]) => ({ currency, amount })));
    }
    expect(d.people).toEqual(want.people);
    expect(d.charts!.byStatus.reduce((n, b) => n + b.count, 0)).toBe(want.orders);
    expect(d.charts!.topShops).toHaveLength(5);
    // More shops than the five ranked: the test's own six have orders in the range.
    // The five shops whose orders in the range add up to the most US dollars (one conversion rule,
    // SPEC §9.1), ties by id: every shop ranked here by a plain query and a full sort.
    const rates = await ratesOf(s);
    const perShop = await s.db.selectFrom('orders')
      .select(['shop_id', 'currency', (eb: any) => eb.fn.sum('paid_total_fxws').as('amount')])
      .where('created_at', '>=', range.from).where('created_at', '<', `${range.to}T99`)
      .groupBy(['shop_id', 'currency']).execute();
    const dollars = new Map<number, number>();
    for (const r of perShop) {
      const worth = unitRate((r.currency as string) || 'USD', 'USD', rates) ?? 0;
      dollars.set(Number(r.shop_id), (dollars.get(Number(r.shop_id)) ?? 0) + Number(r.amount ?? 0) * worth);
    }
    expect(dollars.size).toBeGreaterThanOrEqual(SHOPS);
    const ranked = [...dollars].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, 5).map(([id]) => id);
    expect(d.charts!.topShops.map((t) => t.id)).toEqual(ranked);
  });

  it('counts the same as the search-dive way (SPEC §2.8) for admins and sellers', async () => {
    const rates = await ratesOf(s);
    for (const account of [demo.admin, demo.seller, ...sellers]) {
      const { token, viewer } = await signIn(s, account);
      const bySearch = await statsBySearch(poster(s, token), viewer, range, rates);
      expect(specCards(await stats(s, token))).toEqual(specCards(bySearch));
    }
  });

  it("scopes a seller to their shops, their products and their shops' orders (D2)", async () => {
    const { token, viewer } = await signIn(s, sellers[0]);
    const d = await stats(s, token);
    const want = await expected(s, { owner: viewer.id });
    // Their three shops, products and paid orders, and nothing of anyone else's.
    expect(d).toMatchObject({ role: 'seller', shops: 3, products: 3 });
    expect(want).toMatchObject({ shops: 3, products: 3, orders: 3 });
    expect(d.orders!.count).toBe(3);
    // What the admin recorded as paid (paid_total, each order's whole total) is on the card, per currency.
    const paid = await s.db.selectFrom('orders').select(['currency', 'paid_total', 'total'])
      .where('shop_id', 'in', s.db.selectFrom('shops').select('id').where('owner_id', '=', viewer.id)).execute();
    const sums = new Map<string, number>();
    for (const r of paid) {
      expect(Number(r.paid_total)).toBe(Number(r.total));
      sums.set(String(r.currency), (sums.get(String(r.currency)) ?? 0) + Number(r.paid_total));
    }
    expect(d.orders!.totals).toEqual([...sums].sort(([a], [b]) => a.localeCompare(b)).map(([currency, amount]) => ({ currency, amount: Math.round(amount * 100) / 100 })));
    expect(d.orders!.totals.every((t) => t.amount > 0)).toBe(true);
    expect(d.money).toBeUndefined();
    expect(d.people).toBeUndefined();
    const demoSeller = await signIn(s, demo.seller);
    const held = await expected(s, { owner: demoSeller.viewer.id });
    const theirsToo = await stats(s, demoSeller.token);
    expect(theirsToo).toMatchObject({ shops: held.shops, products: held.products });
    expect(theirsToo.orders!.count).toBe(held.orders);
    const other = await signIn(s, sellers[1]);
    const o = await stats(s, other.token);
    const theirs = await expected(s, { owner: other.viewer.id });
    expect(o).toMatchObject({ shops: theirs.shops, products: theirs.products });
    expect(o.orders!.count).toBe(theirs.orders);
  });

  it('gives a buyer their own orders only, and a new buyer nothing (D9)', async () => {
    const { token, viewer } = await signIn(s, demo.buyer);
    const d = await stats(s, token);
    expect(d).toMatchObject({ role: 'buyer', shops: 0, products: 0 });
    const want = await expected(s, { customer: viewer.id });
    expect(d.orders!.count).toBe(want.orders);
    // Among them, the six this file placed.
    expect(want.orders).toBeGreaterThanOrEqual(SHOPS);
    expect(d.money).toBeUndefined();
    expect(d.people).toBeUndefined();
    const stranger = await s.userWith([1]);
    const n = await stats(s, stranger.token);
    expect(n.orders).toEqual({ count: 0, totals: [] });
    expect(n.charts!.perDay).toEqual([]);
  });

  it('leaves the money rows out for an admin without the money access (SPEC §6.2)', async () => {
    const partial = await s.userWith(ADMIN_ABILITIES, ['shops', 'orders']);
    const d = await stats(s, partial.token);
    expect(d.orders).toBeUndefined();
    expect(d.money).toBeUndefined();
    expect(d.charts).toBeUndefined();
    expect(d.people!.admins).toBe((await expected(s)).people.admins);
    const money = await s.userWith(ADMIN_ABILITIES, ['SHIPPING-CLASSES']);
    // SPEC §6.2: a mile-prices, shipping-classes or currencies-exchange access opens the money row, case-insensitively.
    expect(Object.keys((await stats(s, money.token)).money ?? {}).sort()).toEqual(['advert', 'commission', 'premier']);
  });

  it('refuses anonymous callers and bad ranges with a readable query', async () => {
    const anonymous = await s.post('/dashboard', {});
    expect(anonymous.http).toBe(401);
    expect(anonymous.body.status).toBe(false);
    const seller = await s.userWith(REGISTER_ABILITIES);
    for (const [body, query] of [
      [{ from: 'yesterday' }, 'from must be a date written yyyy-MM-dd'],
      [{ from: '2026-02-01', to: '2026-01-01' }, 'from must not be after to'],
      [{ from: '2020-01-01', to: '2026-01-01' }, 'The range may cover at most 366 days'],
      [{ to: { $gt: '' } }, 'to must be a date written yyyy-MM-dd'],
    ] as const) {
      const res = await s.post('/dashboard', body, seller.token);
      expect(res.http).toBe(400);
      expect(res.body).toMatchObject({ status: false, query, detail: null, reset_token: null, HLL: null });
    }
  });

  it('never answers 5xx to any body, and always in the envelope', async () => {
    const seller = await s.userWith(REGISTER_ABILITIES);
    const value = fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)), fc.array(fc.string(), { maxLength: 3 }));
    await fc.assert(
      fc.asyncProperty(fc.record({ from: value, to: value }, { requiredKeys: [] }), async (body) => {
        const res = await s.post('/dashboard', body, seller.token);
        expect(res.http).toBeLessThan(500);
        // The envelope, and outside strict mode the message keys of a refusal (i18n).
        expect(Object.keys(res.body).filter((key) => key !== 'i18n').sort()).toEqual(['HLL', 'detail', 'query', 'reset_token', 'status']);
      }),
      { numRuns: 150 },
    );
  });
});

describe('against a contract-only server', () => {
  it('answers 404, and the console counts through /search-dive with the same numbers', async () => {
    const { token, viewer } = await signIn(strict, demo.admin);
    const missing = await strict.post('/dashboard', range, token);
    expect(missing.http).toBe(404);
    const fallback = await loadStats(poster(strict, token), async () => viewer, range);
    expect(fallback.source).toBe('search');
    const loose = await signIn(s, demo.admin);
    const aggregate = await loadStats(poster(s, loose.token), async () => loose.viewer, range);
    expect(aggregate.source).toBe('aggregate');
    const { charts: a, ...cardsA } = fallback.stats;
    const { charts: b, ...cardsB } = aggregate.stats;
    const { people: peopleA, ...restA } = cardsA;
    const { people: peopleB, ...restB } = cardsB;
    expect(specCards(restA)).toEqual(specCards(restB));
    // The other server holds the users earlier tests made; this one only the demo accounts.
    expect(peopleA).toEqual((await expected(strict)).people);
    expect(peopleB).toEqual((await expected(s)).people);
    expect(a!.byStatus).toEqual(b!.byStatus);
    expect(a!.topShops.map((t) => t.name)).toEqual(b!.topShops.map((t) => t.name));
  });
});

describe("the admins' order counters", () => {
  /** The admin's numbers as the orders table itself gives them. */
  async function fromOrders() {
    const rows = await s.db.selectFrom('orders').select(['currency', 'status', 'paid_total_fxws', 'created_at']).execute();
    const byCurrency = new Map<string, { n: number; amount: number }>();
    const byStatus = new Map<number, number>();
    for (const r of rows) {
      const c = (r.currency as string | null) || 'USD';
      const e = byCurrency.get(c) ?? { n: 0, amount: 0 };
      e.n += 1;
      e.amount += Number(r.paid_total_fxws ?? 0);
      byCurrency.set(c, e);
      const d = String(r.created_at).slice(0, 10);
      if (d >= range.from && d <= range.to) byStatus.set(Number(r.status), (byStatus.get(Number(r.status)) ?? 0) + 1);
    }
    return {
      count: rows.length,
      totals: [...byCurrency].map(([currency, e]) => ({ currency, amount: Math.round(e.amount * 100) / 100 })).sort((a, b) => a.currency.localeCompare(b.currency)),
      byStatus: [...byStatus].filter(([, n]) => n).sort((a, b) => a[0] - b[0]).map(([status, count]) => ({ status, count })),
    };
  }

  async function fromDashboard(token: string) {
    const { detail } = (await s.post('/dashboard', range, token)).body as { detail: DashboardStats };
    return {
      count: detail.orders!.count,
      totals: [...detail.orders!.totals].sort((a, b) => String(a.currency).localeCompare(String(b.currency))),
      byStatus: detail.charts!.byStatus,
    };
  }

  it('follow every write of an order: a new one, a status change, a new total, a delete', async () => {
    const { token } = await signIn(s, demo.admin);
    expect(await fromDashboard(token)).toEqual(await fromOrders());
    const some = await s.db.selectFrom('orders').selectAll().orderBy('id').limit(2).execute();
    const { id: _id, ...copy } = some[0];
    const added = await s.db.insertInto('orders').values({ ...copy, tracking_number: 'COUNTER-1', currency: 'EUR', paid_total_fxws: 12.5 }).returning('id').executeTakeFirstOrThrow();
    await s.db.updateTable('orders').set({ status: 5 }).where('id', '=', some[1].id as number).execute();
    await s.db.updateTable('orders').set({ paid_total_fxws: 99.99 }).where('id', '=', added.id as number).execute();
    expect(await fromDashboard(token)).toEqual(await fromOrders());
    await s.db.deleteFrom('orders').where('id', '=', added.id as number).execute();
    expect(await fromDashboard(token)).toEqual(await fromOrders());
  });
});
