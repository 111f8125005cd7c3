import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, demo, ADMIN, type TestServer } from './harness';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

const register = (over: Record<string, unknown> = {}) =>
  s.post('/user', {
    name: 'New Seller', email: `new${Math.random().toString(36).slice(2)}@example.com`, phone: `+1555${Math.floor(Math.random() * 1e7)}`,
    password: 'secret-pass', abilities: '[1,2]', source: 'inbuilt', ...over,
  });

describe('accounts over HTTP', () => {
  it('registers, signs in, reads itself and lists its shops', async () => {
    const reg = await register({ email: 'flow@example.com', phone: '+15550001111' });
    expect(reg.http).toBe(200);
    expect(reg.body.status).toBe(true);
    expect(reg.body.detail).toMatchObject({ id: expect.any(Number), token: expect.any(String) });

    const token = await s.login('flow@example.com', 'secret-pass');
    const login = await s.post('/user/terminal', { credential: '+15550001111', password: 'secret-pass', source: 'inbuilt', actionType: 'login' });
    expect(login.body.status).toBe(true);

    const me = await s.post('/users', { id: reg.body.detail.id }, token, { permission: '3' });
    expect(me.body.detail).toMatchObject({ id: reg.body.detail.id, name: 'New Seller', email: 'flow@example.com', abilities: '[1,2]', granted_accesses: '[]', shops: [] });
    expect(me.body.detail).not.toHaveProperty('password_hash');

    const created = await s.post('/shop', {
      name: 'Flow Shop', description: 'Things', category_id: 1,
      address: { street_name: '1 Road', zip: '1000', country: 'Liberia', city: 'Monrovia', state: 'Montserrado' },
      bank: { bank_name: 'Bank', bank_country: 'Liberia', account_name: 'Flow', account_number: '123' },
      paypal: { paypal_email: '', name_of_seller: '' }, is_active: 1,
    }, token);
    expect(created.body.query).toBe('Shop created successfully');
    const list = await s.post('/shops', { page: 1 }, token);
    expect(list.body.HLL).toMatchObject({ total: 1, from: 1, to: 1, current_page: 1, last_page: 1 });
    expect(list.body.HLL.data[0]).toMatchObject({
      name: 'Flow Shop', owner_id: reg.body.detail.id, address: { city: 'Monrovia', zip: '1000' },
      bank: { bank_name: 'Bank' }, seller: { name: 'New Seller' }, category: { id: 1 },
    });
  });

  it('takes the multipart users call that the console sends', async () => {
    const token = await s.login(demo.admin.email, demo.admin.password);
    const form = new FormData();
    form.set('page', '1');
    const res = await fetch(`${s.url}/users`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, permission: '3' }, body: form });
    const body = await res.json();
    expect(res.status).toBe(200);
    const held = Number((await s.db.selectFrom('users').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    expect(body.HLL.total).toBe(held);
    expect(body.HLL.data).toHaveLength(Math.min(15, held));
    expect(body.HLL.per_page).toBe(15);
    expect(body.HLL.data[0]).not.toHaveProperty('password_hash');
  });

  it('refuses a wrong password, a short password and a duplicate email with readable messages', async () => {
    const wrong = await s.post('/user/terminal', { credential: demo.admin.email, password: 'nope-nope', source: 'inbuilt', actionType: 'login' });
    expect(wrong.http).toBe(401);
    expect(wrong.body).toMatchObject({ status: false, query: 'The email, phone number or password is not correct' });
    const short = await register({ password: 'short' });
    expect(short.http).toBe(400);
    expect(short.body.query).toBe('Your password must be minimum 8 digits');
    const dup = await register({ email: demo.admin.email });
    expect(dup.http).toBe(409);
    expect(dup.body.query).toBe('This email is already registered');
  });

  it('takes a password of exactly 8 characters and refuses 7 (SPEC §9.3), on registering and on changing it', async () => {
    const seven = await register({ password: 'Qz7kLm2' });
    expect(seven.http).toBe(400);
    expect(seven.body.query).toBe('Your password must be minimum 8 digits');
    const email = `eight${Math.random().toString(36).slice(2)}@example.com`;
    const eight = await register({ email, password: 'Qz7kLm2x' });
    expect(eight.http).toBe(200);
    expect(eight.body.status).toBe(true);
    const token = await s.login(email, 'Qz7kLm2x');
    const shorter = await s.post('/user/update', { current_password: 'Qz7kLm2x', password: 'Pw9rTy4' }, token);
    expect(shorter.http).toBe(400);
    expect(shorter.body.query).toBe('Your password must be minimum 8 digits');
    const changed = await s.post('/user/update', { current_password: 'Qz7kLm2x', password: 'Pw9rTy4u' }, token);
    expect(changed.http).toBe(200);
    expect(await s.login(email, 'Pw9rTy4u')).toEqual(expect.any(String));
  });

  it('never registers an administrator', async () => {
    const res = await register({ abilities: '[1,2,3]' });
    expect(res.http).toBe(403);
    expect(res.body.status).toBe(false);
  });

  it('answers a bad or missing token with 401 and the envelope', async () => {
    const bad = await s.post('/shops', { page: 1 }, 'not-a-token');
    expect(bad.http).toBe(401);
    expect(bad.body).toMatchObject({ status: false, query: 'Your session has expired; please sign in again', HLL: null });
  });

  it('blacklisting blocks sign-in and ends the sessions of that user', async () => {
    const admin = await s.login(demo.admin.email, demo.admin.password);
    const victim = await s.userWith([1, 2]);
    expect((await s.post('/shops', { page: 1 }, victim.token)).http).toBe(200);
    const res = await s.post('/user/status', { id: victim.id, is_active: 0 }, admin);
    expect(res.body).toMatchObject({ status: true, query: 'User blacklisted' });
    expect((await s.post('/shops', { page: 1 }, victim.token)).http).toBe(401);
    const login = await s.post('/user/terminal', { credential: victim.email, password: 'password123', source: 'inbuilt', actionType: 'login' });
    expect(login.http).toBe(403);
    expect(login.body.query).toBe('This account has been deactivated; please contact support');
    await s.post('/user/status', { id: victim.id }, admin); // toggles back
    expect((await s.post('/user/terminal', { credential: victim.email, password: 'password123' })).body.status).toBe(true);
  });

  it('resets a password with a single-use token mailed to the outbox', async () => {
    const user = await s.userWith([1]);
    const asked = await s.post('/user/reset', { email: user.email });
    expect(asked.body).toMatchObject({ status: true, reset_token: null });
    const unknown = await s.post('/user/reset', { email: 'nobody@example.com' });
    expect(unknown.body.query).toBe(asked.body.query);
    const [mail] = await s.mails(user.email);
    const token = /token=([\w-]+)/.exec(mail.body)![1];
    const outbox = await s.db.selectFrom('mail_outbox').selectAll().where('to_email', '=', user.email).execute();
    expect(outbox).toHaveLength(1);

    const changed = await s.post('/user/update', { reset_token: token, password: 'brand-new-pass' });
    expect(changed.body).toMatchObject({ status: true });
    expect((await s.post('/shops', {}, user.token)).http).toBe(401); // old sessions ended
    expect(await s.login(user.email, 'brand-new-pass')).toEqual(expect.any(String));
    const again = await s.post('/user/update', { reset_token: token, password: 'another-pass' });
    expect(again.http).toBe(400);
    expect(again.body.query).toBe('This reset link is not valid any more; please ask for a new one');
  });

  it('signs out by ending the session', async () => {
    const user = await s.userWith([1, 2]);
    expect((await s.post('/user/logout', {}, user.token)).body.status).toBe(true);
    expect((await s.post('/shops', {}, user.token)).http).toBe(401);
  });

  it('lets nobody raise their own abilities or grant themselves accesses', async () => {
    const seller = await s.userWith([1, 2]);
    const raise = await s.post('/user/edit', { id: seller.id, name: 'Me', email: seller.email, phone: '', abilities: '[1,2,3]', is_active: 1 }, seller.token);
    expect(raise.http).toBe(403);
    expect(raise.body.query).toBe('You cannot change your own abilities');
    const selfGrant = await s.post('/user/assign-role', { id: seller.id, granted_accesses: ['users'] }, seller.token);
    expect(selfGrant.http).toBe(403);

    const limited = await s.userWith(ADMIN, ['users']);
    const selfAdmin = await s.post('/user/assign-role', { id: limited.id, granted_accesses: ['users', 'shops'] }, limited.token);
    expect(selfAdmin.body.query).toBe('You cannot grant accesses to yourself');
    const beyond = await s.post('/user/assign-role', { id: seller.id, granted_accesses: ['shops'] }, limited.token);
    expect(beyond.http).toBe(403);
    expect(beyond.body.query).toBe('You can only grant accesses you hold yourself: shops');
    const mine = await s.post('/user/assign-role', { id: seller.id, granted_accesses: ['USERS'] }, limited.token);
    expect(mine.body).toMatchObject({ status: true, query: 'Roles assigned successfully', detail: { granted_accesses: '["users"]' } });
    const notAssignable = await s.post('/user/assign-role', { id: seller.id, granted_accesses: ['my-shops'] }, limited.token);
    expect(notAssignable.http).toBe(400);
  });

  it('lets an admin make a user an admin through /user/edit', async () => {
    const admin = await s.login(demo.admin.email, demo.admin.password);
    const user = await s.userWith([1]);
    const res = await s.post('/user/edit', { id: user.id, abilities: [1, 2, 3], applications: '', email: user.email, is_active: 1, name: 'Promoted', phone: '' }, admin);
    expect(res.body).toMatchObject({ status: true, detail: { abilities: '[1,2,3]', name: 'Promoted' } });
  });
});
