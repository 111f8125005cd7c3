/**
 * Defects of the first screens, kept fixed: defaults belong to their entity (no product `state` in
 * shops or jobs); adding a subcategory to a category picked by name leaves its commission alone;
 * category names are unique, case-insensitively.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo, startServer, type TestServer } from './harness';

let s: TestServer;
let admin: string;

beforeAll(async () => {
  s = await startServer();
  admin = await s.login(demo.admin.email, demo.admin.password);
});
afterAll(() => s.close());

describe('defects that stay fixed', () => {
  it("a new job post has no product 'state': its state is the place it names", async () => {
    const job = await s.post('/job', { title: 'Packer', description: 'Packs', qualification: 'None', details: 'On site', expiry: '31/12/2027', country: 'Ghana' }, admin);
    expect(job.body.status).toBe(true);
    expect(job.body.detail.state).toBeNull();
  });

  it('adding a subcategory to a category picked by name keeps its commission', async () => {
    const made = await s.post('/category', { name: 'Optics', subcategory_name: 'Lenses', commission_currency: 'GBP', commission_flat_rate: 6.5, commission_monthly: 12 }, admin);
    expect(made.body.status).toBe(true);
    const before = await s.db.selectFrom('categories').selectAll().where('id', '=', made.body.detail.id).executeTakeFirstOrThrow();
    const res = await s.post('/category', { name: 'optics', subcategory_name: 'Cameras', commission_currency: null, commission_flat_rate: null, commission_monthly: null }, admin);
    expect(res.body).toMatchObject({ status: true, query: 'Category updated successfully' });
    const after = await s.db.selectFrom('categories').selectAll().where('id', '=', before.id).executeTakeFirstOrThrow();
    expect([after.commission_flat_rate, after.commission_currency, after.commission_monthly]).toEqual([before.commission_flat_rate, before.commission_currency, before.commission_monthly]);
    expect([Number(after.commission_flat_rate), after.commission_currency, Number(after.commission_monthly)]).toEqual([6.5, 'GBP', 12]);
    expect(res.body.detail).toMatchObject({ id: before.id });
    expect(res.body.detail.subcategories.map((c: { name: string }) => c.name)).toEqual(['Lenses', 'Cameras']);
  });

  it('refuses renaming a category to a name another one has', async () => {
    const taken = await s.post('/category', { name: 'Gardening', commission_currency: 'USD', commission_flat_rate: 5 }, admin);
    const other = await s.post('/category', { name: 'Pottery', commission_currency: 'USD', commission_flat_rate: 5 }, admin);
    expect([taken.body.status, other.body.status]).toEqual([true, true]);
    const res = await s.post('/category', { id: other.body.detail.id, name: 'GARDENING', commission_currency: 'USD', commission_flat_rate: 5 }, admin);
    expect(res.http).toBe(409);
    expect(res.body.query).toBe("The name 'GARDENING' is already used by another category");
    expect((await s.db.selectFrom('categories').select('name').where('id', '=', other.body.detail.id).executeTakeFirstOrThrow()).name).toBe('Pottery');
  });
});
