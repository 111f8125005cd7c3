/**
 * Who reads which list, written by hand from SPEC §6 and docs/decisions.md ("Server-side
 * rules", "Buyers"), independent of the registry: a rule loosened by mistake in a resource file fails
 * here, where the generated matrix (matrix.ts) would copy it. Allowed reads assert the real status
 * and that every row answered is the caller's to see.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { MENU_TOKENS } from '../spec';

type Who = 'anonymous' | 'buyer' | 'seller' | 'otherSeller' | 'partialAdmin' | 'grantedAdmin' | 'fullAdmin';
/** A status, or a scope the rows must keep to: the caller's shops, their purchases, or everything. */
type Expect = 401 | 403 | 200 | 'own' | 'bought' | 'all';

const signedInReference = { anonymous: 401, buyer: 200, seller: 200, otherSeller: 200, partialAdmin: 200, grantedAdmin: 200, fullAdmin: 200 } as const;
const publicReference = { ...signedInReference, anonymous: 200 } as const;
const adminOnly = { anonymous: 401, buyer: 403, seller: 403, otherSeller: 403, partialAdmin: 403, grantedAdmin: 200, fullAdmin: 200 } as const;
const owned = { anonymous: 401, buyer: 403, seller: 'own', otherSeller: 'own', partialAdmin: 'own', grantedAdmin: 'all', fullAdmin: 'all' } as const;

/** List call (SPEC §7) → the access token that opens it to an admin (SPEC §6.2) and who reads what. */
const TABLE: Record<string, { token: string; who: Record<Who, Expect> }> = {
  '/shops': { token: 'shops', who: owned },
  '/products': { token: 'products', who: owned },
  '/orders': { token: 'orders', who: { ...owned, buyer: 'bought' } },
  '/brands': { token: 'brands', who: signedInReference },
  '/categories': { token: 'category', who: signedInReference },
  '/orderStatuss': { token: 'order-status', who: signedInReference },
  '/miles': { token: 'mile-prices', who: signedInReference },
  '/shippings': { token: 'shipping-classes', who: signedInReference },
  '/subcriptionPlans': { token: 'subscription-plans', who: signedInReference },
  '/distances': { token: 'custom-distances', who: signedInReference },
  '/exchangess': { token: 'currencies-exchange', who: publicReference },
  '/jobs': { token: 'job-posts', who: publicReference },
  '/supports': { token: 'support', who: adminOnly },
  '/applicants': { token: 'job-applicants', who: adminOnly },
  '/deletions': { token: 'deletion-requests', who: adminOnly },
  '/chats': { token: 'chat-logs', who: adminOnly },
  '/templatess': { token: 'mail-templates', who: adminOnly },
  '/subcriptions': { token: 'subscriptions', who: adminOnly },
};

let s: TestServer;
const tokens: Partial<Record<Who, string>> = {};
const ids: Partial<Record<Who, number>> = {};
/** Each seller-like caller's own shops. */
const shopsOf = new Map<number, number[]>();

beforeAll(async () => {
  s = await startServer();
  const make = async (who: Who, abilities: number[], granted: string[] = []) => {
    const user = await s.userWith(abilities, granted);
    tokens[who] = user.token;
    ids[who] = user.id;
  };
  await make('buyer', [1]);
  await make('seller', [1, 2]);
  await make('otherSeller', [1, 2]);
  await make('partialAdmin', [1, 2, 3]);
  await make('fullAdmin', [1, 2, 3], [...MENU_TOKENS]);
  // Rows of their own for every seller-like caller: a shop, a product, and an order the buyer placed.
  const stamp = new Date().toISOString();
  for (const who of ['seller', 'otherSeller', 'partialAdmin', 'fullAdmin'] as const) {
    const [shop] = await s.db.insertInto('shops').values({ name: `Shop of ${who}`, owner_id: ids[who]!, category_id: 1, is_active: 1, created_at: stamp, updated_at: stamp }).returning('id').execute();
    shopsOf.set(ids[who]!, [Number(shop.id)]);
    await s.db.insertInto('products').values({ name: `Product of ${who}`, shop_id: shop.id, created_at: stamp, updated_at: stamp }).execute();
    await s.db.insertInto('orders').values({ shop_id: shop.id, customer_id: ids.buyer!, tracking_number: `T-${who}`, created_at: stamp, updated_at: stamp }).execute();
  }
});
afterAll(() => s.close());

const rowsOf = (hll: unknown): Record<string, unknown>[] =>
  Array.isArray(hll) ? hll : ((hll as { data?: Record<string, unknown>[] } | null)?.data ?? []);

describe.each(Object.entries(TABLE))('%s', (path, { token, who }) => {
  it.each(Object.entries(who) as [Who, Expect][])('as %s: %s', async (caller, expected) => {
    let bearer = tokens[caller];
    if (caller === 'grantedAdmin') bearer = (await s.userWith([1, 2, 3], [token])).token;
    const res = await s.post(path, { page: 1, per_page: 100 }, caller === 'anonymous' ? null : bearer);
    if (expected === 401 || expected === 403) {
      expect(res.http).toBe(expected);
      expect(res.body).toMatchObject({ status: false, HLL: null });
      return;
    }
    expect(res.http).toBe(200);
    expect(res.body.status).toBe(true);
    const rows = rowsOf(res.body.HLL);
    if (expected === 200) return;
    const me = ids[caller]!;
    if (expected === 'all') {
      // Everyone's rows: at least two sellers' own.
      const shopKey = path === '/shops' ? 'id' : 'shop_id';
      const seen = new Set(rows.map((r) => Number(r[shopKey] ?? (r.shop as { id?: number } | undefined)?.id)));
      expect(rows.length).toBeGreaterThan(1);
      expect(seen.size).toBeGreaterThan(1);
      return;
    }
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      if (expected === 'bought') expect(Number(row.customer_id), JSON.stringify(row)).toBe(me);
      else if (path === '/shops') expect(Number(row.owner_id)).toBe(me);
      else expect(shopsOf.get(me)).toContain(Number(row.shop_id ?? (row.shop as { id?: number } | undefined)?.id));
    }
  });
});

/**
 * Who writes where, by hand from SPEC §6 and docs/decisions.md, independent of the registry. A caller
 * let through meets the next check, the payload's: an empty new record answers 400 (a required field
 * is missing, or a field is of the wrong kind) and a status change of a record that does not exist answers 404; a refused caller gets
 * 401 or 403 before the body is read. So an access rule loosened in a resource file turns a refusal
 * into 400 or 404 here.
 */
type Write = 401 | 403 | 'passes';
const ownerWrite = { anonymous: 401, buyer: 403, seller: 'passes', otherSeller: 'passes', partialAdmin: 'passes', grantedAdmin: 'passes', fullAdmin: 'passes' } as const;
const adminWrite = { anonymous: 401, buyer: 403, seller: 403, otherSeller: 403, partialAdmin: 403, grantedAdmin: 'passes', fullAdmin: 'passes' } as const;
const userWrite = { anonymous: 401, buyer: 'passes', seller: 'passes', otherSeller: 'passes', partialAdmin: 'passes', grantedAdmin: 'passes', fullAdmin: 'passes' } as const;
const anyoneWrite = { ...userWrite, anonymous: 'passes' } as const;
const nobody = { anonymous: 403, buyer: 403, seller: 403, otherSeller: 403, partialAdmin: 403, grantedAdmin: 403, fullAdmin: 403 } as const;

/** Save call (SPEC §7) → the admin screen's token, who may create; status call → who may change. */
const WRITES: { path: string; token: string; create: Record<Who, Write>; status: string; update: Record<Who, Write>; invalid?: object }[] = [
  { path: '/shop', token: 'shops', create: ownerWrite, status: '/shop/status', update: ownerWrite },
  { path: '/product', token: 'products', create: ownerWrite, status: '/product/status', update: ownerWrite },
  { path: '/order', token: 'orders', create: userWrite, status: '/order/status', update: ownerWrite },
  { path: '/subcriptionPlan', token: 'subscription-plans', create: nobody, status: '/subcriptionPlan/status', update: adminWrite },
  { path: '/subcription', token: 'subscriptions', create: adminWrite, status: '/subcription/status', update: adminWrite },
  { path: '/category', token: 'category', create: adminWrite, status: '/category/status', update: adminWrite },
  { path: '/support', token: 'support', create: userWrite, status: '/support/status', update: adminWrite },
  { path: '/job', token: 'job-posts', create: adminWrite, status: '/job/status', update: adminWrite },
  { path: '/applicant', token: 'job-applicants', create: userWrite, status: '/applicant/status', update: adminWrite },
  { path: '/brand', token: 'brands', create: adminWrite, status: '/brand/status', update: adminWrite },
  { path: '/templates', token: 'mail-templates', create: nobody, status: '/templates/status', update: adminWrite },
  { path: '/orderStatus', token: 'order-status', create: adminWrite, status: '/orderStatus/status', update: adminWrite },
  { path: '/exchanges', token: 'currencies-exchange', create: adminWrite, status: '/exchanges/status', update: adminWrite },
  { path: '/shipping', token: 'shipping-classes', create: nobody, status: '/shipping/status', update: adminWrite },
  { path: '/mile', token: 'mile-prices', create: adminWrite, status: '/mile/status', update: adminWrite },
  { path: '/distance', token: 'custom-distances', create: adminWrite, status: '/distance/status', update: adminWrite },
  { path: '/deletion', token: 'deletion-requests', create: userWrite, status: '/deletion/retrieve', update: adminWrite },
  // A chat needs no field (a visitor opens one empty): a field of the wrong kind is what is refused.
  { path: '/chat', token: 'chat-logs', create: anyoneWrite, status: '/chat/status', update: adminWrite, invalid: { chats: 'x'.repeat(5001) } },
];

async function bearerOf(caller: Who, token: string) {
  if (caller === 'anonymous') return null;
  return caller === 'grantedAdmin' ? (await s.userWith([1, 2, 3], [token])).token : tokens[caller]!;
}

describe.each(WRITES)('$path', ({ path, token, create, status, update, invalid = {} }) => {
  it.each(Object.entries(create) as [Who, Write][])('a new record as %s: %s', async (caller, expected) => {
    const res = await s.post(path, invalid, await bearerOf(caller, token));
    expect(res.http).toBe(expected === 'passes' ? 400 : expected);
    expect(res.body).toMatchObject({ status: false, detail: null });
    if (expected === 'passes') expect(res.body.query).toMatch(/ is required| longer than /);
  });

  it.each(Object.entries(update) as [Who, Write][])(`${status} as %s: %s`, async (caller, expected) => {
    const res = await s.post(status, { id: 424242 }, await bearerOf(caller, token));
    expect(res.http).toBe(expected === 'passes' ? 404 : expected);
    expect(res.body).toMatchObject({ status: false, detail: null });
  });
});
