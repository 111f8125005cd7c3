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
