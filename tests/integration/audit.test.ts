/**
 * The audit log: writes, status changes, deletes, role and blacklist changes and sign-ins are
 * recorded with who, what and the fields before and after; only administrators granted `audit`
 * read it; it is an extension, absent in strict mode. Deletes keep what other records use.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, demo, newCategory, productBody, shopBody, startServer, type TestServer } from './harness';

let s: TestServer;
let admin: string;
let seller: string;

beforeAll(async () => {
  s = await startServer();
  admin = await s.login(demo.admin.email, demo.admin.password);
  seller = await s.login(demo.seller.email, demo.seller.password);
});
afterAll(() => s.close());

const entries = async (token: string, value: string, targets = ['entity']) =>
  (await s.post('/search-dive', { keyIndex: (await keyIndex()), value, targets, page: 1, per_page: 100 }, token)).body;
const keyIndex = async () => {
  const { registry } = await import('../../server/registry');
  return registry.entity('auditLogs').search!.keyIndex;
};

describe('the audit log', () => {
  it('records a create, an update and a status change with the fields before and after', async () => {
    const made = await s.post('/brand', { name: 'Audited', type: 'popular' }, admin);
    const id = made.body.detail.id;
    await s.post('/brand', { id, name: 'Audited twice', type: 'popular' }, admin);
    await s.post('/brand/status', { id, is_active: 0 }, admin);
    const rows = await s.db.selectFrom('auditLogs').selectAll().where('entity', '=', 'brands').where('record_id', '=', id).orderBy('id').execute();
    expect(rows.map((r) => r.action)).toEqual(['create', 'update', 'status']);
    expect(rows.map((r) => r.user_name)).toEqual([demo.admin.name, demo.admin.name, demo.admin.name]);
    expect(JSON.parse(String(rows[1].before))).toEqual({ name: 'Audited' });
    expect(JSON.parse(String(rows[1].after))).toEqual({ name: 'Audited twice' });
    expect(JSON.parse(String(rows[2].after))).toEqual({ is_active: 0 });
  });

  it('records sign-ins, role and blacklist changes, and never a password hash', async () => {
    const other = await s.userWith([1, 2], []);
    expect((await s.post('/user/assign-role', { id: other.id, granted_accesses: [] }, admin)).body.status).toBe(true);
    expect((await s.post('/user/status', { id: other.id, is_active: 0 }, admin)).body.status).toBe(true);
    const rows = await s.db.selectFrom('auditLogs').selectAll().where('entity', '=', 'users').execute();
    expect(rows.filter((r) => Number(r.record_id) === other.id).map((r) => r.action)).toEqual(['sign-in', 'roles', 'blacklist']);
    expect(rows.some((r) => String(r.after ?? '').includes('password') || String(r.before ?? '').includes('password'))).toBe(false);
  });

  it('writes nothing for a refused call', async () => {
    const count = async () => Number((await s.db.selectFrom('auditLogs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    expect((await s.post('/brand', { name: '' }, admin)).http).toBe(400);
    expect((await s.post('/category', { name: 'X', commission_currency: 'USD', commission_flat_rate: 1 }, seller)).http).toBe(403);
    expect(await count()).toBe(before);
  });

  it('is read by administrators granted audit only', async () => {
    expect((await s.post('/brand', { name: 'Audit read', type: 'popular' }, admin)).body.status).toBe(true);
    const listed = await s.post('/audit-logs', { page: 1 }, admin);
    expect(listed.http).toBe(200);
    const count = async (entity?: string) => {
      let q = s.db.selectFrom('auditLogs');
      if (entity) q = q.where('entity', '=', entity);
      return Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    };
    expect(listed.body.HLL.total).toBe(await count());
    const brandEntries = (await entries(admin, 'brands')).HLL as { entity: string }[];
    expect(brandEntries.map((e) => e.entity)).toEqual(Array(await count('brands')).fill('brands'));
    const without = (await s.userWith(ADMIN, ['shops'])).token;
    for (const token of [null, seller, without]) {
      const res = await s.post('/audit-logs', { page: 1 }, token);
      expect([401, 403]).toContain(res.http);
    }
    expect((await s.post('/audit-log', { action: 'create', entity: 'x' }, admin)).http).toBe(403);
  });

  it('is absent from the strict contract', async () => {
    const strict = await startServer({ strict: true });
    try {
      const token = await strict.login(demo.admin.email, demo.admin.password);
      expect((await strict.post('/audit-logs', { page: 1 }, token)).http).toBe(404);
    } finally {
      await strict.close();
    }
  });
});

describe('deletes keep what other records use', () => {
  it('refuses deleting a shop that still has products and orders, and says so', async () => {
    const category = await newCategory(s, admin, 'Kept shop things');
    const shop = (await s.post('/shop', shopBody('Kept shop'), seller)).body.detail;
    expect((await s.post('/product', productBody(shop.id, category, 'Kept product'), seller)).body.status).toBe(true);
    const res = await s.post('/shop/status', { id: shop.id, tyype: 'clear' }, admin);
    expect(res.http).toBe(409);
    expect(res.body.query).toMatch(/^This shop is still used by 1 product\b/);
    expect(await s.db.selectFrom('shops').select('id').where('id', '=', shop.id).executeTakeFirst()).toEqual({ id: shop.id });
  });

  it('deletes an unused category with its subcategories; refuses one whose subcategory a product uses', async () => {
    const made = await s.post('/category', { name: 'Seasonal', subcategory_name: 'Lanterns', commission_currency: 'USD', commission_flat_rate: 2 }, admin);
    const id = made.body.detail.id;
    expect((await s.post('/category/status', { id, tyype: 'clear' }, admin)).body.query).toBe('Category deleted successfully');
    expect(await s.db.selectFrom('subcategories').select('id').where('category_id', '=', id).execute()).toEqual([]);
    const used = await newCategory(s, admin, 'Used things');
    const shop = (await s.post('/shop', shopBody('Shop of used things'), seller)).body.detail;
    expect((await s.post('/product', productBody(shop.id, used, 'Used thing'), seller)).body.status).toBe(true);
    const refused = await s.post('/category/status', { id: used.id, tyype: 'clear' }, admin);
    expect(refused.http).toBe(409);
    expect(await s.db.selectFrom('categories').select('id').where('id', '=', used.id).executeTakeFirst()).toEqual({ id: used.id });
  });

  it('refuses emptying a status field', async () => {
    const brand = (await s.post('/brand', { name: 'Never empty', type: 'popular' }, admin)).body.detail;
    const res = await s.post('/brand/status', { id: brand.id, is_active: null }, admin);
    expect(res.http).toBe(400);
    expect(res.body.query).toBe('is active cannot be left empty');
  });

  it('refuses negative prices and amounts', async () => {
    const category = await newCategory(s, admin, 'Priced things');
    const shop = (await s.post('/shop', shopBody('Priced shop'), seller)).body.detail;
    const product = (await s.post('/product', productBody(shop.id, category, 'Priced thing'), seller)).body.detail;
    const res = await s.post('/product', { id: product.id, price: -5, sale_price: -1 }, admin);
    expect(res.http).toBe(400);
    expect(res.body.query).toBe('price must be at least 0; sale price must be at least 0');
    const negative = await s.post('/category', { name: 'Negative', subcategory_name: 'X', commission_currency: 'USD', commission_flat_rate: 150 }, admin);
    expect(negative.body.query).toBe('commission flat rate must be at most 100');
  });
});
