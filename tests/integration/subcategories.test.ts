/**
 * Subcategories on their own screen (named route /subcategory): listed with the paginator and the
 * search, renamed and moved by an admin holding 'category', a name unique within its category, every
 * other role refused; the categories' own calls unchanged; absent in strict mode.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../server/registry';
import { ADMIN, demo, startServer, type TestServer } from './harness';

let s: TestServer;
let admin: string;

const keyIndex = registry.entity('subcategories').search!.keyIndex;

beforeAll(async () => {
  s = await startServer();
  admin = await s.login(demo.admin.email, demo.admin.password);
});
afterAll(() => s.close());

/** Makes a category with one subcategory through the categories' own call (SPEC §7.6). */
async function category(name: string, sub: string) {
  const res = await s.post('/category', { name, subcategory_name: sub, serial: 'S-1', commission_currency: 'USD', commission_flat_rate: 2 }, admin);
  expect(res.body).toMatchObject({ status: true, query: 'Category created successfully' });
  const detail = res.body.detail as { id: number; subcategories: { id: number; name: string }[] };
  return { id: detail.id, sub: detail.subcategories.find((c) => c.name === sub)! };
}

describe('the subcategories list', () => {
  it('answers the paginator with each subcategory’s category, newest first, and searches by name', async () => {
    const made = await category('Garden', 'Hoses');
    const total = Number((await s.db.selectFrom('subcategories').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const res = await s.post('/subcategories', { page: 1 }, admin);
    expect(res.http).toBe(200);
    const page = res.body.HLL as { data: { id: number; name: string; category: { id: number; name: string } }[]; total: number; current_page: number };
    expect(page.total).toBe(total);
    expect(page.current_page).toBe(1);
    expect(page.data[0]).toMatchObject({ id: made.sub.id, name: 'Hoses', serial: 'S-1', category_id: made.id, category: { id: made.id, name: 'Garden' } });
    const found = await s.post('/search-dive', { keyIndex, value: 'hose', targets: ['name'] }, admin);
    expect((found.body.HLL as { id: number }[]).map((r) => r.id)).toEqual([made.sub.id]);
  });
});

describe('renaming and moving', () => {
  it('renames a subcategory and moves it to another category', async () => {
    const from = await category('Kitchen', 'Pans');
    const to = await category('Outdoor', 'Tents');
    const renamed = await s.post('/subcategory', { id: from.sub.id, name: 'Skillets' }, admin);
    expect(renamed.body).toMatchObject({ status: true, query: 'Subcategory updated successfully', detail: { id: from.sub.id, name: 'Skillets', category_id: from.id } });
    const moved = await s.post('/subcategory', { id: from.sub.id, category_id: to.id }, admin);
    expect(moved.body).toMatchObject({ detail: { name: 'Skillets', category: { id: to.id, name: 'Outdoor' } } });
    // The categories list shows it under its new category only.
    const categories = (await s.post('/search-dive', { keyIndex: 2, value: '', targets: ['id'] }, admin)).body.HLL as { id: number; subcategories: { name: string }[] }[];
    expect(categories.find((c) => c.id === to.id)!.subcategories.map((c) => c.name).sort()).toEqual(['Skillets', 'Tents']);
    expect(categories.find((c) => c.id === from.id)!.subcategories).toEqual([]);
  });

  it('refuses a name another subcategory of the same category has, whatever its case; allows it in another category', async () => {
    const one = await category('Toys and games', 'Puzzles');
    const added = await s.post('/category', { name: 'Toys and games', subcategory_name: 'Dolls' }, admin);
    const dolls = (added.body.detail as { subcategories: { id: number; name: string }[] }).subcategories.find((c) => c.name === 'Dolls')!;
    const clash = await s.post('/subcategory', { id: dolls.id, name: 'PUZZLES' }, admin);
    expect(clash.http).toBe(409);
    expect(clash.body).toMatchObject({ status: false, query: "The name 'PUZZLES' is already used by another subcategory of Toys and games" });
    const other = await category('Stationery', 'Puzzles');
    const moving = await s.post('/subcategory', { id: other.sub.id, category_id: one.id }, admin);
    expect(moving.http).toBe(409);
    expect((await s.post('/subcategory', { id: dolls.id, name: 'Puzzles', category_id: other.id }, admin)).http).toBe(409);
    // Keeping its own name (another case) is no clash; a new one in another category is fine.
    expect((await s.post('/subcategory', { id: dolls.id, name: 'DOLLS' }, admin)).body.status).toBe(true);
    const created = await s.post('/subcategory', { name: 'Dolls', category_id: other.id }, admin);
    expect(created.body).toMatchObject({ status: true, query: 'Subcategory created successfully', detail: { name: 'Dolls', category_id: other.id } });
    expect((await s.post('/subcategory', { name: 'dolls', category_id: other.id }, admin)).http).toBe(409);
  });

  it('answers readable refusals for an unknown category, an empty name and an unknown subcategory', async () => {
    const { sub } = await category('Music', 'Guitars');
    const unknown = await s.post('/subcategory', { id: sub.id, category_id: 999999 }, admin);
    expect(unknown.http).toBe(400);
    expect(unknown.body).toMatchObject({ status: false, query: 'category id 999999 does not match any category' });
    const empty = await s.post('/subcategory', { id: sub.id, name: '' }, admin);
    expect(empty.http).toBe(400);
    expect(empty.body.status).toBe(false);
    expect(typeof empty.body.query).toBe('string');
    expect((await s.post('/subcategory', { id: 999999, name: 'X' }, admin)).http).toBe(404);
  });

  it('leaves the categories’ own call as it was: a category save still adds its subcategory once', async () => {
    const made = await category('Books', 'Novels');
    const again = await s.post('/category', { name: 'books', subcategory_name: 'novels' }, admin);
    expect(again.body).toMatchObject({ status: true, query: 'Category updated successfully', detail: { id: made.id } });
    expect((again.body.detail as { subcategories: unknown[] }).subcategories).toEqual([{ id: made.sub.id, name: 'Novels', serial: 'S-1' }]);
  });
});

describe('who may use it', () => {
  it('refuses strangers, buyers, sellers and admins without the categories access', async () => {
    const { sub } = await category('Pets', 'Leashes');
    const seller = await s.login(demo.seller.email, demo.seller.password);
    const buyer = await s.login(demo.buyer.email, demo.buyer.password);
    const without = (await s.userWith(ADMIN, ['brands'])).token;
    for (const [token, http] of [[null, 401], [buyer, 403], [seller, 403], [without, 403]] as const) {
      expect((await s.post('/subcategories', { page: 1 }, token)).http).toBe(http);
      expect((await s.post('/search-dive', { keyIndex, value: 'Leash', targets: ['name'] }, token)).http).toBe(http);
      const rename = await s.post('/subcategory', { id: sub.id, name: 'Hacked' }, token);
      expect(rename.http).toBe(http);
      expect(rename.body.status).toBe(false);
      expect((await s.post('/subcategory', { name: 'New', category_id: 1 }, token)).http).toBe(http);
    }
    const row = await s.db.selectFrom('subcategories').select('name').where('id', '=', sub.id).executeTakeFirstOrThrow();
    expect(row.name).toBe('Leashes');
    const allowed = (await s.userWith(ADMIN, ['category'])).token;
    expect((await s.post('/subcategory', { id: sub.id, name: 'Collars' }, allowed)).body.query).toBe('Subcategory updated successfully');
  });
});

describe('strict mode', () => {
  it('has no subcategory calls (they extend the contract)', async () => {
    const strict = await startServer({ strict: true });
    try {
      const token = await strict.login(demo.admin.email, demo.admin.password);
      expect((await strict.post('/subcategories', { page: 1 }, token)).http).toBe(404);
      expect((await strict.post('/subcategory', { id: 1, name: 'X' }, token)).http).toBe(404);
      expect((await strict.post('/search-dive', { keyIndex, value: '', targets: ['id'] }, token)).http).toBe(400);
    } finally {
      await strict.close();
    }
  });
});
