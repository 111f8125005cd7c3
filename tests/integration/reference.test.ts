/**
 * The reference screens' server rules over real HTTP: update-only entities, job expiry dates,
 * deletion requests settled for good with the account anonymised, subscriptions' status calls,
 * distances deleted by id, and the refusals of every role that must not pass.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, demo, startServer, type TestServer } from './harness';

let s: TestServer;
let admin: string;
let seller: string;
let buyer: string;
let adminWithout: string;

beforeAll(async () => {
  s = await startServer();
  admin = await s.login(demo.admin.email, demo.admin.password);
  seller = await s.login(demo.seller.email, demo.seller.password);
  buyer = await s.login(demo.buyer.email, demo.buyer.password);
  adminWithout = (await s.userWith(ADMIN, ['mail-templates'])).token;
});
afterAll(() => s.close());

const first = async (table: string) => Number((await s.db.selectFrom(table).select('id').orderBy('id').limit(1).executeTakeFirstOrThrow()).id);

describe('update-only screens: templates, shipping classes, subscription plans', () => {
  it.each([
    ['/templates', { from_email: 'a@example.com', subject: 'New', message: 'Body' }],
    ['/shipping', { duration: '1 day', currency: 'USD', amount: 5, means: 'Bike' }],
    ['/subcriptionPlan', { amount: 10, currency: 'USD' }],
  ])('%s refuses a new record, even from an admin', async (path, body) => {
    const res = await s.post(path, body, admin);
    expect(res.http).toBe(403);
    expect(res.body).toMatchObject({ status: false, query: 'This operation is not available' });
  });

  it('updates a shipping class in USD only', async () => {
    const id = await first('shippings');
    const ok = await s.post('/shipping', { id, amount: 12, currency: 'USD' }, admin);
    expect(ok.body).toMatchObject({ status: true, query: 'Shipping class updated successfully', detail: { id, amount: 12, currency: 'USD' } });
    const euro = await s.post('/shipping', { id, currency: 'EUR' }, admin);
    expect(euro.http).toBe(400);
    expect(euro.body.status).toBe(false);
  });

  it('updates a template, refusing sellers, buyers, strangers and admins without the access', async () => {
    const id = await first('templates');
    for (const [token, http] of [[null, 401], [buyer, 403], [seller, 403], [(await s.userWith(ADMIN, [])).token, 403]] as const) {
      expect((await s.post('/templates', { id, subject: 'Hacked' }, token)).http).toBe(http);
      expect((await s.post('/templatess', { page: 1 }, token)).http).toBe(http);
    }
    const res = await s.post('/templates', { id, subject: 'Welcome aboard' }, adminWithout);
    expect(res.body).toMatchObject({ status: true, query: 'Template updated successfully', detail: { subject: 'Welcome aboard' } });
  });
});

describe('job posts', () => {
  it("takes 'Before' as a real dd/mm/yyyy date", async () => {
    const job = { title: 'Packer', description: 'Pack', qualification: 'None', details: 'Shifts', country: 'Nigeria', state: 'Lagos' };
    // Not in the declared format (the field's pattern), or in it but no real day (the jobs hook).
    for (const [expiry, words] of [
      ['2027-01-31', 'expiry must be a date written dd/mm/yyyy, such as 31/12/2026'],
      ['1/1/2027', 'expiry must be a date written dd/mm/yyyy, such as 31/12/2026'],
      ['soon', 'expiry must be a date written dd/mm/yyyy, such as 31/12/2026'],
      ['31/02/2027', 'Before must be a date written dd/mm/yyyy, such as 31/12/2026'],
    ]) {
      const res = await s.post('/job', { ...job, expiry }, admin);
      expect(res.http).toBe(400);
      expect(res.body.query).toBe(words);
    }
    const res = await s.post('/job', { ...job, expiry: '29/02/2028' }, admin);
    expect(res.body).toMatchObject({ status: true, detail: { expiry: '29/02/2028', state: 'Lagos', country: 'Nigeria' } });
    const removed = await s.post('/job/status', { tyype: 'clear', id: res.body.detail.id }, admin);
    expect(removed.body).toMatchObject({ status: true, query: 'Job post deleted successfully' });
  });
});

describe('subscriptions and distances', () => {
  it("activates a subscription from the whole record with 'Active' sent as true", async () => {
    const row = await s.db.selectFrom('subscriptions').selectAll().where('is_active', '=', 0).orderBy('id').limit(1).executeTakeFirstOrThrow();
    const res = await s.post('/subcription/status', { ...row, is_active: true }, admin);
    expect(res.body).toMatchObject({ status: true, detail: { id: row.id, amount: row.amount } });
    expect(Number(res.body.detail.is_active)).toBe(1);
    expect((await s.post('/subcription/status', { ...row, is_active: true }, seller)).http).toBe(403);
  });

  it('deletes a custom distance by {id} alone', async () => {
    const made = await s.post('/distance', { location_A: 'A,B,C', location_B: 'D,E,F', distance_km: 3 }, admin);
    const id = made.body.detail.id;
    expect((await s.post('/distance/status', { id }, seller)).http).toBe(403);
    expect((await s.post('/distance/status', { id }, admin)).body).toMatchObject({ status: true, query: 'Custom distance deleted successfully' });
    const list = await s.post('/distances', { page: 1 }, admin);
    expect(Array.isArray(list.body.HLL)).toBe(true);
    expect(list.body.HLL.some((d: { id: number }) => d.id === id)).toBe(false);
  });
});

describe('deletion requests', () => {
  async function leaving() {
    const user = await s.userWith([1, 2]);
    const shop = await s.post('/shop', {
      name: `Leaving shop ${user.id}`, description: 'd', category_id: 1, address: { street_name: 's', zip: 'z', country: 'Nigeria' },
      bank: { bank_name: 'b', bank_country: 'c', account_name: 'n', account_number: '1' },
    }, user.token);
    expect(shop.body.status).toBe(true);
    await s.post('/support', { title: 'Help', message: 'Please', country: 'Ghana' }, user.token);
    await s.post('/applicant', { title: 'Job', cv: 'cv_1.docx', country: 'Ghana' }, user.token);
    const asked = await s.post('/deletion', { customer: 'Someone else', customer_id: 1, feedback: 'Bye', deletion_status: 'Deleted' }, user.token);
    expect(asked.body).toMatchObject({ status: true, query: 'Deletion request created successfully' });
    return { ...user, request: asked.body.detail.id as number, shop: shop.body.detail.id as number };
  }

  it('records a request for the asker only, never settled by them', async () => {
    const user = await leaving();
    const row = await s.db.selectFrom('deletions').selectAll().where('id', '=', user.request).executeTakeFirstOrThrow();
    const { name } = await s.db.selectFrom('users').select('name').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ customer_id: user.id, customer: name, deletion_status: 'No action' });
    expect(Number(row.is_active)).toBe(0);
  });

  it.each([
    ['anonymous', () => null, 401],
    ['a buyer', () => buyer, 403],
    ['a seller', () => seller, 403],
    ['an admin without the access', () => adminWithout, 403],
  ])('refuses %s settling a request', async (_who, token, http) => {
    const user = await leaving();
    for (const [path, body] of [
      ['/deletion', { id: user.request, deletion_status: 'Deleted' }],
      ['/deletion/retrieve', { id: user.request, deletion_status: 'Deleted' }],
      ['/deletions', { page: 1 }],
    ] as const) {
      expect((await s.post(path, body, token())).http).toBe(http);
    }
    expect((await s.db.selectFrom('users').select('name').where('id', '=', user.id).executeTakeFirstOrThrow()).name).not.toBe('Deleted user');
  });

  it("'Deleted' anonymises the account, ends its sessions, keeps its orders, and is final", async () => {
    const user = await leaving();
    const order = await s.db.insertInto('orders').values({
      shop_id: 1, customer_id: user.id, payment_gateway: 'bank', tracking_number: `TRK-${user.id}`, total: 5, paid_total: 5, status: 1, is_active: 1,
    }).returning('id').executeTakeFirstOrThrow();
    const res = await s.post('/deletion', { id: user.request, deletion_status: 'Deleted', is_active: 1 }, admin);
    expect(res.body).toMatchObject({ status: true, query: 'Deletion request updated successfully', detail: { deletion_status: 'Deleted', customer: 'Deleted user' } });
    expect(Number(res.body.detail.is_active)).toBe(1);

    const gone = await s.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(gone).toMatchObject({ name: 'Deleted user', email: `deleted-user-${user.id}@deleted.invalid`, phone: null, granted_accesses: '[]' });
    expect(Number(gone.is_active)).toBe(0);
    expect(await s.db.selectFrom('sessions').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
    expect(await s.db.selectFrom('supports').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
    expect(await s.db.selectFrom('applicants').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
    expect(Number((await s.db.selectFrom('shops').select('is_active').where('id', '=', user.shop).executeTakeFirstOrThrow()).is_active)).toBe(0);
    expect(await s.db.selectFrom('orders').select('id').where('id', '=', order.id).executeTakeFirst()).toEqual({ id: order.id });
    // The old session no longer works, nor does the password.
    expect((await s.post('/support', { title: 'x', message: 'y', country: 'z' }, user.token)).http).toBe(401);
    const login = await s.post('/user/terminal', { credential: user.email, password: 'password123', source: 'inbuilt', actionType: 'login' });
    expect(login.body.status).toBe(false);

    for (const [path, body] of [
      ['/deletion', { id: user.request, deletion_status: 'Deletion rejected by admin' }],
      ['/deletion/retrieve', { id: user.request, deletion_status: 'No action' }],
    ] as const) {
      const again = await s.post(path, body, admin);
      expect(again.http).toBe(400);
      expect(again.body).toMatchObject({ status: false, query: 'This user have been previously deleted' });
    }
  });

  it("'Deletion rejected by admin' leaves the account alone; an admin cannot delete themselves here", async () => {
    const user = await leaving();
    const res = await s.post('/deletion/retrieve', { id: user.request, deletion_status: 'Deletion rejected by admin', is_active: 1 }, admin);
    expect(res.body).toMatchObject({ status: true, detail: { deletion_status: 'Deletion rejected by admin' } });
    expect(Number(res.body.detail.is_active)).toBe(0);
    expect((await s.db.selectFrom('users').select('name').where('id', '=', user.id).executeTakeFirstOrThrow()).name).not.toBe('Deleted user');

    const me = await s.db.selectFrom('users').select('id').where('email', '=', demo.admin.email).executeTakeFirstOrThrow();
    const own = await s.post('/deletion', { customer: 'Ada', customer_id: me.id, feedback: 'x', deletion_status: 'Deleted' }, admin);
    expect(own.http).toBe(403);
    expect(own.body.query).toBe('You cannot delete your own account from here');
  });
});

describe('packages (/packages)', () => {
  const sellerId = async () => Number((await s.db.selectFrom('users').select('id').where('email', '=', demo.seller.email).executeTakeFirstOrThrow()).id);

  it('lists the active plans and the caller’s own subscriptions only', async () => {
    const res = await s.post('/packages', {}, seller);
    expect(res.body.status).toBe(true);
    const active = await s.db.selectFrom('subscriptionPlans').select('id').where('is_active', '=', 1).orderBy('id').execute();
    expect(res.body.HLL.plans.map((p: { id: number }) => p.id).sort((a: number, b: number) => a - b)).toEqual(active.map((p) => Number(p.id)));
    expect(res.body.HLL.plans.every((p: { is_active: number }) => Number(p.is_active) === 1)).toBe(true);
    const own = await s.db.selectFrom('shops').select('id').where('owner_id', '=', await sellerId()).execute();
    const ids = new Set(own.map((r) => Number(r.id)));
    expect(res.body.HLL.subscriptions.every((x: { shop_id: number }) => ids.has(Number(x.shop_id)))).toBe(true);
  });

  it('subscribes an own shop, inactive until an admin activates it, once', async () => {
    const user = await s.userWith([1, 2]);
    const shop = await s.post('/shop', {
      name: `Package shop ${user.id}`, description: 'd', category_id: 1, address: { street_name: 's', zip: 'z', country: 'Ghana' },
      bank: { bank_name: 'b', bank_country: 'c', account_name: 'n', account_number: '1' },
    }, user.token);
    const plan = await s.db.selectFrom('subscriptionPlans').selectAll().where('is_active', '=', 1).orderBy('id').limit(1).executeTakeFirstOrThrow();
    const res = await s.post('/package/subscribe', { plan_id: plan.id, shop_id: shop.body.detail.id }, user.token);
    expect(res.body).toMatchObject({
      status: true,
      query: `Package shop ${user.id} is subscribed; the package starts once an administrator activates it`,
      detail: { shop_id: shop.body.detail.id, type: plan.type, amount: plan.amount, currency: 'USD', payment_gateway: 'none' },
    });
    expect(Number(res.body.detail.is_active)).toBe(0);
    const again = await s.post('/package/subscribe', { plan_id: plan.id, shop_id: shop.body.detail.id }, user.token);
    expect(again.http).toBe(409);
    expect(again.body.query).toBe(`Package shop ${user.id} already has this package waiting for activation`);
    // Only an administrator activates it.
    expect((await s.post('/subcription/status', { ...res.body.detail, is_active: true }, user.token)).http).toBe(403);
    expect((await s.post('/subcription/status', { ...res.body.detail, is_active: true }, admin)).body.status).toBe(true);
    const mine = await s.post('/packages', {}, user.token);
    expect(mine.body.HLL.subscriptions).toMatchObject([{ id: res.body.detail.id, shop_name: `Package shop ${user.id}`, is_active: 1 }]);
  });

  it('refuses a deactivated shop, and subscribes it once it is active again', async () => {
    const user = await s.userWith([1, 2]);
    const shop = await s.post('/shop', {
      name: `Closed shop ${user.id}`, description: 'd', category_id: 1, address: { street_name: 's', zip: 'z', country: 'Ghana' },
      bank: { bank_name: 'b', bank_country: 'c', account_name: 'n', account_number: '1' },
    }, user.token);
    const id = shop.body.detail.id;
    const plan = await s.db.selectFrom('subscriptionPlans').selectAll().where('is_active', '=', 1).orderBy('id').limit(1).executeTakeFirstOrThrow();
    expect((await s.post('/shop/status', { is_active: 0, id }, user.token)).body.status).toBe(true);
    const refused = await s.post('/package/subscribe', { plan_id: plan.id, shop_id: id }, user.token);
    expect(refused).toMatchObject({ http: 400, body: { status: false, query: `Closed shop ${user.id} is deactivated: only an active shop can subscribe to a package` } });
    expect(await s.db.selectFrom('subscriptions').select('id').where('shop_id', '=', id).execute()).toEqual([]);
    expect((await s.post('/shop/status', { is_active: 1, id }, user.token)).body.status).toBe(true);
    expect((await s.post('/package/subscribe', { plan_id: plan.id, shop_id: id }, user.token)).body.status).toBe(true);
  });

  it('refuses strangers, buyers, another seller’s shop, unknown or inactive plans and bad input', async () => {
    const plan = await s.db.selectFrom('subscriptionPlans').select('id').where('is_active', '=', 1).orderBy('id').limit(1).executeTakeFirstOrThrow();
    const othersShop = await s.db.selectFrom('shops').select('id').where('owner_id', '!=', await sellerId()).orderBy('id').limit(1).executeTakeFirstOrThrow();
    const ownShop = await s.db.selectFrom('shops').select('id').where('owner_id', '=', await sellerId()).orderBy('id').limit(1).executeTakeFirstOrThrow();
    const before = await s.db.selectFrom('subscriptions').select('id').execute();
    expect((await s.post('/packages', {}, null)).http).toBe(401);
    expect((await s.post('/packages', {}, buyer)).http).toBe(403);
    expect((await s.post('/package/subscribe', { plan_id: plan.id, shop_id: ownShop.id }, null)).http).toBe(401);
    expect((await s.post('/package/subscribe', { plan_id: plan.id, shop_id: ownShop.id }, buyer)).http).toBe(403);
    const others = await s.post('/package/subscribe', { plan_id: plan.id, shop_id: othersShop.id }, seller);
    expect(others).toMatchObject({ http: 403, body: { status: false, query: 'You can only subscribe your own shops' } });
    // An admin, even holding every access, subscribes only their own shops here.
    expect((await s.post('/package/subscribe', { plan_id: plan.id, shop_id: othersShop.id }, admin)).http).toBe(403);
    expect((await s.post('/package/subscribe', { plan_id: 99999, shop_id: ownShop.id }, seller)).body.query).toBe('This package is not available');
    for (const body of [{}, { plan_id: 'x', shop_id: ownShop.id }, { plan_id: plan.id, shop_id: -1 }, { plan_id: [1], shop_id: {} }]) {
      const bad = await s.post('/package/subscribe', body, seller);
      expect(bad.http).toBe(400);
      expect(bad.body.query).toMatch(/plan_id|shop_id/);
    }
    expect(await s.db.selectFrom('subscriptions').select('id').execute()).toEqual(before);
  });

  it('does not exist in strict contract mode', async () => {
    const strict = await startServer({ strict: true, demo: false });
    try {
      expect((await strict.post('/packages', {})).http).toBe(404);
      expect((await strict.post('/package/subscribe', {})).http).toBe(404);
    } finally {
      await strict.close();
    }
  });
});
