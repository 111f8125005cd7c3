/**
 * Issue 22, item 1: an admin holding one access cannot change a fuller user through any path. Every
 * call that changes another user (the Users screen's calls and the REST face's user, a deletion
 * request settled as 'Deleted' whether created, updated or re-pointed, another's sessions, another's
 * shop subscribed) is walked by an admin holding each assignable access alone (read from the
 * registry); the full admin they aim at is untouched and still signs in. A deletion request's
 * customer is fixed when it is made.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../server/registry';
import { startServer, ADMIN, type TestServer } from './harness';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

const userRow = (id: number) => s.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** A request for a buyer's account, as the buyer makes it. */
async function buyersRequest(): Promise<{ id: number; buyer: number }> {
  const buyer = await s.userWith([1]);
  const res = await s.post('/deletion', { customer: 'x', customer_id: buyer.id, feedback: 'Bye' }, buyer.token);
  expect(res.body.status).toBe(true);
  return { id: res.body.detail.id, buyer: buyer.id };
}

describe('an admin holding one access', () => {
  it.each(registry.assignable.map((token) => [token]))('holding only %s, changes no fuller user by any path', async (token) => {
    const target = await s.userWith(ADMIN, [...registry.assignable]);
    const shop = await s.post('/shop', {
      name: `Target shop ${target.id}`, description: 'd', category_id: 1, address: { street_name: 's', zip: 'z', country: 'Nigeria' },
      bank: { bank_name: 'b', bank_country: 'c', account_name: 'n', account_number: '1' },
    }, target.token);
    expect(shop.body.status).toBe(true);
    const [session] = await s.db.selectFrom('sessions').select('id').where('user_id', '=', target.id).execute();
    const plan = await s.db.selectFrom('subscriptionPlans').select('id').where('is_active', '=', 1).executeTakeFirstOrThrow();
    const before = await userRow(target.id);
    const partial = await s.userWith(ADMIN, [token]);
    const request = await buyersRequest();

    const attempts: [string, string, Record<string, unknown>][] = [
      ['POST', '/user/edit', { id: target.id, email: `taken-${target.id}@example.com` }],
      ['POST', '/user/edit', { id: target.id, abilities: '[1]' }],
      ['POST', '/user/edit', { id: target.id, is_active: 0 }],
      ['POST', '/user/status', { id: target.id, is_active: 0 }],
      ['POST', '/user/assign-role', { id: target.id, granted_accesses: [token] }],
      ['PUT', `/rest/users/${target.id}`, { email: `taken-${target.id}@example.com` }],
      ['POST', '/deletion', { id: request.id, customer_id: target.id, deletion_status: 'Deleted' }],
      ['PUT', `/rest/deletions/${request.id}`, { customer_id: target.id, deletion_status: 'Deleted' }],
      ['POST', '/user/sessions/end', { id: Number(session.id) }],
      ['POST', '/package/subscribe', { plan_id: Number(plan.id), shop_id: shop.body.detail.id }],
    ];
    for (const [method, path, body] of attempts) {
      const res = await s.send(method, path, body, partial.token);
      expect(res.body?.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(false);
      expect([403, 404], `${method} ${path}`).toContain(res.http);
    }
    // The status call changes the status only: at most it settles the buyer's own request (with the access).
    const status = await s.post('/deletion/retrieve', { id: request.id, customer_id: target.id, deletion_status: 'Deleted' }, partial.token);
    expect(status.http).toBe(token === 'deletion-requests' ? 200 : 403);
    // Anyone may ask for an account's deletion: without the access, the request is the caller's own, unsettled
    // (and, one open request at a time, the second ask finds the first still open: 409).
    const asks: [string, string][] = [['POST', '/deletion'], ['POST', '/rest/deletions']];
    for (const [k, [method, path]] of asks.entries()) {
      const res = await s.send(method, path, { customer: 'Target', customer_id: target.id, feedback: 'x', deletion_status: 'Deleted' }, partial.token);
      if (res.body.status === false || res.http >= 400) expect(k ? [403, 404, 409] : [403, 404], path).toContain(res.http);
      else expect(res.body.detail ?? res.body, path).toMatchObject({ customer_id: partial.id, deletion_status: 'No action' });
    }
    expect(await userRow(target.id)).toEqual(before);
    expect((await s.post('/users', { id: target.id }, target.token)).http).toBe(200);
    expect(await s.login(target.email, 'password123')).toEqual(expect.any(String));
    expect(await s.db.selectFrom('subscriptions').select('id').where('shop_id', '=', shop.body.detail.id).execute()).toEqual([]);
    // The buyer's request was not re-pointed.
    const row = await s.db.selectFrom('deletions').selectAll().where('id', '=', request.id).executeTakeFirstOrThrow();
    expect(Number(row.customer_id)).toBe(request.buyer);
  });
});

describe('a deletion request names its customer for good', () => {
  it("refuses a changed customer, even to a buyer, from an admin holding every access; the same value passes", async () => {
    const full = await s.userWith(ADMIN, [...registry.assignable]);
    const request = await buyersRequest();
    const other = await s.userWith([1]);
    for (const [method, path, body] of [
      ['POST', '/deletion', { id: request.id, customer_id: other.id, deletion_status: 'No action' }],
      ['POST', '/deletion', { id: request.id, customer: 'Someone else', deletion_status: 'No action' }],
      ['PUT', `/rest/deletions/${request.id}`, { customer_id: other.id }],
    ] as const) {
      const res = await s.send(method, path, body, full.token);
      expect(res.http, path).toBe(403);
      expect(res.body.query).toBe('The customer of a deletion request is set when it is made and cannot be changed');
    }
    const row = await s.db.selectFrom('deletions').selectAll().where('id', '=', request.id).executeTakeFirstOrThrow();
    expect(Number(row.customer_id)).toBe(request.buyer);
    // The console's form sends them back unchanged with the new status: settled, the buyer erased.
    const settled = await s.post('/deletion', { id: request.id, customer: row.customer, customer_id: request.buyer, feedback: 'Bye', deletion_status: 'Deleted' }, full.token);
    expect(settled.body).toMatchObject({ status: true, detail: { deletion_status: 'Deleted' } });
    expect((await userRow(request.buyer)).name).toBe('Deleted user');
    expect((await userRow(other.id)).name).not.toBe('Deleted user');
  });

  it('an admin holding deletion-requests still erases the users it may manage, never a fuller admin', async () => {
    const partial = await s.userWith(ADMIN, ['deletion-requests']);
    const peer = await s.userWith(ADMIN, ['deletion-requests']);
    const fuller = await s.userWith(ADMIN, ['deletion-requests', 'users']);
    const refused = await s.post('/deletion', { customer: 'F', customer_id: fuller.id, feedback: 'x', deletion_status: 'Deleted' }, partial.token);
    expect(refused.http).toBe(403);
    expect(refused.body.query).toBe('You can only manage users whose accesses you hold yourself');
    // A request the fuller admin made for their own account: settling it is refused too, by either call.
    const own = await s.post('/deletion', { customer: 'F', customer_id: fuller.id, feedback: 'Bye' }, fuller.token);
    expect(own.body.status).toBe(true);
    for (const [method, path, body] of [
      ['POST', '/deletion/retrieve', { id: own.body.detail.id, deletion_status: 'Deleted' }],
      ['POST', '/deletion', { id: own.body.detail.id, deletion_status: 'Deleted' }],
      ['PUT', `/rest/deletions/${own.body.detail.id}`, { deletion_status: 'Deleted' }],
    ] as const) {
      const res = await s.send(method, path, body, partial.token);
      expect(res.http, path).toBe(403);
    }
    expect((await userRow(fuller.id)).name).not.toBe('Deleted user');
    const done = await s.post('/deletion', { customer: 'P', customer_id: peer.id, feedback: 'x', deletion_status: 'Deleted' }, partial.token);
    expect(done.body).toMatchObject({ status: true, detail: { deletion_status: 'Deleted' } });
    expect((await userRow(peer.id)).name).toBe('Deleted user');
  });
});
