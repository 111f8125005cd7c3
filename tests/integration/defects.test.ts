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
    const before = await s.db.selectFrom('categories').selectAll().where('name', '=', 'Electronics').executeTakeFirstOrThrow();
    const res = await s.post('/category', { name: 'electronics', subcategory_name: 'Cameras', commission_currency: null, commission_flat_rate: null, commission_monthly: null }, admin);
    expect(res.body).toMatchObject({ status: true, query: 'Category updated successfully' });
    const after = await s.db.selectFrom('categories').selectAll().where('id', '=', before.id).executeTakeFirstOrThrow();
    expect([after.commission_flat_rate, after.commission_currency, after.commission_monthly]).toEqual([before.commission_flat_rate, before.commission_currency, before.commission_monthly]);
    expect(res.body.detail.subcategories.map((c: { name: string }) => c.name)).toContain('Cameras');
  });

  it('refuses renaming a category to a name another one has', async () => {
    const fashion = await s.db.selectFrom('categories').select('id').where('name', '=', 'Fashion').executeTakeFirstOrThrow();
    const res = await s.post('/category', { id: fashion.id, name: 'ELECTRONICS', commission_currency: 'USD', commission_flat_rate: 5 }, admin);
    expect(res.http).toBe(409);
    expect(res.body.query).toBe("The name 'ELECTRONICS' is already used by another category");
  });
});
