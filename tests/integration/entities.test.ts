/**
 * Entities round-trip over HTTP: shops through their whole life as an admin and as a seller,
 * categories with subcategories, brands, and a search for every keyIndex of SPEC §9.4.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../server/registry';
import { startServer, demo, type TestServer } from './harness';

let s: TestServer;
let admin: string;
let seller: string;
/** A category of the test's own, for the shops it makes. */
let category: { id: number; name: string };
beforeAll(async () => {
  s = await startServer();
  admin = await s.login(demo.admin.email, demo.admin.password);
  seller = await s.login(demo.seller.email, demo.seller.password);
  category = (await s.post('/category', { name: 'Fishing', commission_currency: 'USD', commission_flat_rate: 3 }, admin)).body.detail;
});
afterAll(() => s.close());

const shop = (name: string) => ({
  owner_id: 999, name, description: 'Nets and boats', category_id: category.id,
  address: { street_name: '4 Quay Road', zip: '100271', city: 'Ikeja', state: 'Lagos', country: 'Nigeria', country_details: { country_code: 'NG' } },
  bank: { bank_name: 'Harbour Bank', bank_country: 'Nigeria', swift_code: '', sort_code: '', account_name: 'Harbour', account_number: '001' },
  paypal: { paypal_email: 'pay@example.com', name_of_seller: 'Sam Seller' },
  price: 0, premier: 'no', product_id: 0, serial: null,
});

describe.each([['admin'], ['seller']])('a shop through its life, as %s', (who) => {
  it('is created, read, updated, deactivated, reactivated and deleted', async () => {
    const token = who === 'admin' ? admin : seller;
    const created = await s.post('/shop', shop(`Harbour ${who}`), token);
    expect(created.body).toMatchObject({ status: true, query: 'Shop created successfully' });
    const id = created.body.detail.id;
    const email = who === 'admin' ? demo.admin.email : demo.seller.email;
    const me = await s.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    expect(created.body.detail).toMatchObject({
      owner_id: Number(me.id), is_active: 1, category: { id: category.id, name: 'Fishing' },
      address: { city: 'Ikeja', country_details: { country_code: 'NG' } },
      paypal: { paypal_email: 'pay@example.com', name_of_seller: 'Sam Seller' },
    });

    const updated = await s.post('/shop', { ...created.body.detail, name: `Harbour ${who} 2`, address: { ...created.body.detail.address, zip: '100272' } }, token);
    expect(updated.body).toMatchObject({ query: 'Shop updated successfully', detail: { name: `Harbour ${who} 2`, address: { zip: '100272' } } });

    expect((await s.post('/shop/status', { is_active: 0, id }, token)).body.detail.is_active).toBe(0);
    expect((await s.post('/shop/status', { is_active: 1, id }, token)).body.detail.is_active).toBe(1);
    const found = await s.post('/search-dive', { keyIndex: 10, value: String(id), targets: ['id'] }, token);
    expect(found.body.HLL).toEqual([expect.objectContaining({ id, name: `Harbour ${who} 2` })]);

    const deleted = await s.post('/shop/status', { tyype: 'clear', id }, token);
    expect(deleted.body).toMatchObject({ status: true, query: 'Shop deleted successfully' });
    expect((await s.post('/search-dive', { keyIndex: 10, value: String(id), targets: ['id'] }, token)).body.HLL).toEqual([]);
  });
});

describe('categories and brands', () => {
  it('round-trip a category with its subcategories, named from the Name picker', async () => {
    const created = await s.post('/category', { name: 'Toys', category_name: 'Toys', subcategory_name: 'Dolls', serial: null, commission_currency: 'NGN', commission_flat_rate: 3, commission_monthly: 10 }, admin);
    expect(created.body).toMatchObject({ query: 'Category created successfully', detail: { name: 'Toys', commission_currency: 'NGN', subcategories: [{ name: 'Dolls', serial: null }] } });
    const id = created.body.detail.id;
    // Picking the existing name adds to it; the same subcategory is not added twice.
    await s.post('/category', { name: 'toys', subcategory_name: 'Kites', serial: 'TOY-2', commission_currency: 'NGN', commission_flat_rate: 3 }, admin);
    await s.post('/category', { id, name: 'Toys', subcategory_name: 'dolls', commission_currency: 'NGN', commission_flat_rate: 3 }, admin);
    const page = await s.post('/categories', { page: 1 }, seller);
    const toys = page.body.HLL.data.find((c: { id: number }) => c.id === id);
    expect(toys.subcategories).toEqual([{ id: expect.any(Number), name: 'Dolls', serial: null }, { id: expect.any(Number), name: 'Kites', serial: 'TOY-2' }]);
    expect(page.body.HLL.data.filter((c: { name: string }) => c.name.toLowerCase() === 'toys')).toHaveLength(1);
    // A status call changes its status fields and nothing else: no subcategory comes with it.
    expect((await s.post('/category/status', { id, is_active: 1, subcategory_name: 'Yo-yos' }, admin)).body.status).toBe(true);
    const after = (await s.post('/categories', { page: 1 }, seller)).body.HLL.data.find((c: { id: number }) => c.id === id);
    expect(after.subcategories.map((sub: { name: string }) => sub.name)).toEqual(['Dolls', 'Kites']);
  });

  it('keeps commissions for admins', async () => {
    const res = await s.post('/category', { id: category.id, name: category.name, commission_flat_rate: 1 }, seller);
    expect(res.http).toBe(403);
    const kept = await s.db.selectFrom('categories').select('commission_flat_rate').where('id', '=', category.id).executeTakeFirstOrThrow();
    expect(Number(kept.commission_flat_rate)).toBe(3);
  });

  it('lists only plain brands with the product_id filter and deletes with tyype', async () => {
    const made = await s.post('/brand', { name: 'Orbit', type: 'popular', product_id: 0 }, admin);
    await s.db.insertInto('brands').values({ name: 'Attached', type: 'popular', product_id: 7, is_active: 1 }).execute();
    const plain = await s.post('/brands', { page: 1, filter: { product_id: 0 } }, admin);
    expect(plain.body.HLL.data.map((b: { name: string }) => b.name)).toContain('Orbit');
    expect(plain.body.HLL.data.map((b: { name: string }) => b.name)).not.toContain('Attached');
    expect((await s.post('/brand/status', { tyype: 'clear', id: made.body.detail.id }, admin)).body.query).toBe('Brand deleted successfully');
  });
});

describe('/search-dive answers every keyIndex of SPEC §9.4 from its own list', () => {
  const searchable = registry.entities.filter((e) => e.search);
  it.each(searchable.map((e) => [e.search!.keyIndex, e.name, e] as const))('keyIndex %i reads %s', async (keyIndex, _name, entity) => {
    const all = await s.post('/search-dive', { keyIndex, value: '', targets: ['id'] }, admin);
    expect(all.http).toBe(200);
    const count = Number((await s.db.selectFrom(entity.name).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    expect(all.body.HLL).toHaveLength(count);
    expect(count).toBeGreaterThan(0);
    const first = all.body.HLL[0];
    const one = await s.post('/search-dive', { keyIndex, value: String(first.id), targets: ['id'] }, admin);
    expect(one.body.HLL).toEqual([first]);
    for (const target of entity.search!.targets.filter((t) => t !== 'id')) {
      const none = await s.post('/search-dive', { keyIndex, value: 'zz-no-such-value', targets: [target] }, admin);
      expect(none.body.HLL, target).toEqual([]);
      const part = String(first[target] ?? '').slice(1, 12);
      if (part.trim().length < 2) continue;
      const some = await s.post('/search-dive', { keyIndex, value: part.toUpperCase(), targets: [target] }, admin);
      expect(some.body.HLL.map((r: { id: number }) => r.id), `${target} ~ ${part}`).toContain(first.id);
    }
  });
});
