/**
 * A signed-in user's own requests from the account page (issue 25): writing to support and asking for
 * the account's deletion, with the server naming the asker (customer, customer_id, user_id) and their
 * country; one open deletion request at a time, its state readable by its asker only; and the
 * account's address, kept through the user's own edit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPEN_OWN } from '../../server/hooks/deletions';
import { ADMIN, demo, startServer, type TestServer } from './harness';

let s: TestServer;
let admin: string;

beforeAll(async () => {
  s = await startServer();
  admin = await s.login(demo.admin.email, demo.admin.password);
});
afterAll(() => s.close());

const address = { street_name: '4 Ring Road', city: 'Accra', state: 'Greater Accra', country: 'Ghana', zip: 'GA-100' };
const profileOf = async (id: number, token: string) => (await s.post('/users', { id }, token)).body.detail;

describe("the account's address", () => {
  it('is saved by the user’s own edit and read back; another user’s is not theirs to change', async () => {
    const me = await s.userWith([1, 2]);
    const saved = await s.post('/user/edit', { id: me.id, ...address }, me.token);
    expect(saved.body.status).toBe(true);
    expect(await profileOf(me.id, me.token)).toMatchObject(address);
    const other = await s.userWith([1]);
    expect((await s.post('/user/edit', { id: other.id, country: 'Chad' }, me.token)).http).toBe(403);
    expect((await s.post('/user/edit', { id: me.id, street_name: 'x'.repeat(256) }, me.token)).http).toBe(400);
  });
});

describe('writing to support', () => {
  it('takes a title and a message; the server names the writer and their account’s country', async () => {
    const me = await s.userWith([1, 2]);
    await s.post('/user/edit', { id: me.id, ...address }, me.token);
    const res = await s.post('/support', { title: 'Payout late', message: 'My payout has not arrived.', country: 'Elsewhere', user_id: 1 }, me.token);
    expect(res.body).toMatchObject({ status: true, query: 'Support message created successfully', detail: { country: 'Ghana', user_id: me.id } });
    // Admins see it on Support, with the writer's name.
    const listed = await s.post('/search-dive', { keyIndex: 17, value: 'Payout late', targets: ['title'] }, admin);
    const { name } = await s.db.selectFrom('users').select('name').where('id', '=', me.id).executeTakeFirstOrThrow();
    expect(listed.body.HLL).toEqual([expect.objectContaining({ id: res.body.detail.id, user: expect.objectContaining({ name }) })]);
  });

  it('is accepted without a country: an account with no address keeps the one sent, or none', async () => {
    const me = await s.userWith([1]);
    const sent = await s.post('/support', { title: 'Hello', message: 'A question', country: 'Chad' }, me.token);
    expect(sent.body).toMatchObject({ status: true, detail: { country: 'Chad' } });
    const none = await s.post('/support', { title: 'Hello', message: 'Another question' }, me.token);
    expect(none.body.status).toBe(true);
    expect(none.body.detail.country ?? null).toBeNull();
    const missing = await s.post('/support', { title: 'Hello' }, me.token);
    expect(missing.body).toMatchObject({ status: false, query: 'message is required' });
    expect((await s.post('/support', { title: 'Hello', message: 'x' }, null)).http).toBe(401);
  });
});

describe("asking for one's account's deletion", () => {
  it('is accepted without customer or customer id, named by the server', async () => {
    const me = await s.userWith([1, 2]);
    const res = await s.post('/deletion', { feedback: 'I am closing my business.' }, me.token);
    const { name } = await s.db.selectFrom('users').select('name').where('id', '=', me.id).executeTakeFirstOrThrow();
    expect(res.body).toMatchObject({ status: true, detail: { customer_id: me.id, customer: name, deletion_status: 'No action' } });
  });

  it('keeps one open request at a time; once it is answered, another may be made', async () => {
    const me = await s.userWith([1]);
    const first = await s.post('/deletion', { feedback: 'Please' }, me.token);
    expect(first.body.status).toBe(true);
    const again = await s.post('/deletion', { feedback: 'Please, again' }, me.token);
    expect(again.http).toBe(409);
    expect(again.body).toMatchObject({ status: false, query: OPEN_OWN });
    const rejected = await s.post('/deletion', { id: first.body.detail.id, deletion_status: 'Deletion rejected by admin' }, admin);
    expect(rejected.body.status).toBe(true);
    expect((await s.post('/deletion', { feedback: 'Please, once more' }, me.token)).body.status).toBe(true);
  });

  it("shows its asker every request's state, newest first, and nobody else's", async () => {
    const me = await s.userWith([1]);
    const other = await s.userWith([1]);
    const first = await s.post('/deletion', { feedback: 'One' }, me.token);
    await s.post('/deletion', { id: first.body.detail.id, deletion_status: 'Deletion rejected by admin' }, admin);
    const second = await s.post('/deletion', { feedback: 'Two' }, me.token);
    await s.post('/deletion', { feedback: 'Theirs' }, other.token);
    const mine = await s.post('/deletion/mine', {}, me.token);
    expect(mine.body.HLL).toEqual([
      expect.objectContaining({ id: second.body.detail.id, deletion_status: 'No action', feedback: 'Two' }),
      expect.objectContaining({ id: first.body.detail.id, deletion_status: 'Deletion rejected by admin', feedback: 'One' }),
    ]);
    expect((await s.post('/deletion/mine', {}, null)).http).toBe(401);
  });

  it('an admin asking for another user names them by customer id, once while one is open', async () => {
    const asker = await s.userWith(ADMIN, ['deletion-requests']);
    const user = await s.userWith([1]);
    const noId = await s.post('/deletion', { feedback: 'x' }, asker.token);
    expect(noId.body).toMatchObject({ status: false, query: 'customer id is required' });
    const made = await s.post('/deletion', { customer_id: user.id, feedback: 'Asked by phone' }, asker.token);
    const { name } = await s.db.selectFrom('users').select('name').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(made.body).toMatchObject({ status: true, detail: { customer_id: user.id, customer: name } });
    const twice = await s.post('/deletion', { customer_id: user.id, feedback: 'Again' }, asker.token);
    expect(twice.http).toBe(409);
    expect(twice.body.query).toBe(`User ${user.id} already has an open deletion request (#${made.body.detail.id})`);
  });
});
