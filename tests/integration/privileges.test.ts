/**
 * Privileges between admins (issue: takeover by a partial admin): an admin manages only users whose
 * accesses are a subset of their own; a demotion clears granted accesses; one's own email or
 * password changes only with the current password; reset tokens are single-use and all of a user's
 * outstanding tokens die when the password changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, demo, ADMIN, type TestServer } from './harness';

let s: TestServer;
let full: string;
beforeAll(async () => {
  s = await startServer();
  full = await s.login(demo.admin.email, demo.admin.password);
});
afterAll(() => s.close());

const userRow = (id: number) => s.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const tokenFrom = async (email: string) => /token=([\w-]+)/.exec((await s.mails(email)).at(-1)!.body)![1];

describe('an admin holding only some accesses', () => {
  it("cannot take over a fuller admin: no email change, reset, demotion, blacklisting or grants", async () => {
    const partial = await s.userWith(ADMIN, ['users']);
    const fuller = await s.userWith(ADMIN, ['users', 'shops']);
    const before = await userRow(fuller.id);
    const attempts: [string, Record<string, unknown>][] = [
      ['/user/edit', { id: fuller.id, email: 'attacker@example.com' }],
      ['/user/edit', { id: fuller.id, name: before.name, email: before.email, phone: '', abilities: '[1]', is_active: 1 }],
      ['/user/edit', { id: fuller.id, is_active: 0 }],
      ['/user/status', { id: fuller.id, is_active: 0 }],
      ['/user/assign-role', { id: fuller.id, granted_accesses: ['users'] }],
    ];
    for (const [path, body] of attempts) {
      const res = await s.post(path, body, partial.token);
      expect(res.http, path).toBe(403);
      expect(res.body).toMatchObject({ status: false, query: 'You can only manage users whose accesses you hold yourself' });
    }
    expect(await userRow(fuller.id)).toEqual(before);
    // The demo admin holds every access, so the partial admin cannot touch it either.
    const adminId = Number((await s.db.selectFrom('users').select('id').where('email', '=', demo.admin.email).executeTakeFirstOrThrow()).id);
    const demoAdmin = await s.post('/user/edit', { id: adminId, email: 'attacker@example.com' }, partial.token);
    expect(demoAdmin.http).toBe(403);
    expect((await userRow(adminId)).email).toBe(demo.admin.email);
  });

  it('still manages buyers, sellers and admins whose accesses it holds', async () => {
    const partial = await s.userWith(ADMIN, ['users', 'shops']);
    const seller = await s.userWith([1, 2]);
    const peer = await s.userWith(ADMIN, ['shops']);
    const edited = await s.post('/user/edit', { id: seller.id, name: 'Renamed' }, partial.token);
    expect(edited.body).toMatchObject({ status: true, detail: { name: 'Renamed' } });
    const blacklisted = await s.post('/user/status', { id: peer.id, is_active: 0 }, partial.token);
    expect(blacklisted.body).toMatchObject({ status: true, query: 'User blacklisted' });
  });

  it('a promotion never grants more than the promoting admin holds', async () => {
    const partial = await s.userWith(ADMIN, ['users']);
    const buyer = await s.userWith([1]);
    await s.db.updateTable('users').set({ granted_accesses: '["shops"]' }).where('id', '=', buyer.id).execute();
    const res = await s.post('/user/edit', { id: buyer.id, abilities: [1, 2, 3] }, partial.token);
    expect(res.http).toBe(403);
    expect((await userRow(buyer.id)).abilities).toBe('[1]');
  });
});

describe('demotion', () => {
  it('clears granted accesses, so a later promotion starts from none', async () => {
    const admin = await s.userWith(ADMIN, ['shops', 'orders']);
    const demoted = await s.post('/user/edit', { id: admin.id, abilities: '[1]' }, full);
    expect(demoted.body).toMatchObject({ status: true, detail: { abilities: '[1]', granted_accesses: '[]' } });
    const promoted = await s.post('/user/edit', { id: admin.id, abilities: '[1,2,3]' }, full);
    expect(promoted.body.detail).toMatchObject({ abilities: '[1,2,3]', granted_accesses: '[]' });
    expect((await s.post('/shops', { page: 1 }, admin.token)).body.HLL.data.length).toBe(0);
  });
});

describe('changing one\'s own email or password', () => {
  it('needs the current password for a new email, not for a new name', async () => {
    const user = await s.userWith([1, 2]);
    const name = await s.post('/user/edit', { id: user.id, name: 'Only the name', email: user.email }, user.token);
    expect(name.body).toMatchObject({ status: true, detail: { name: 'Only the name' } });
    const missing = await s.post('/user/edit', { id: user.id, email: 'mine@example.com' }, user.token);
    expect(missing.http).toBe(400);
    expect(missing.body.query).toBe('Enter your current password to change your email');
    const wrong = await s.post('/user/edit', { id: user.id, email: 'mine@example.com', current_password: 'not-it-at-all' }, user.token);
    expect(wrong.http).toBe(403);
    expect(wrong.body.query).toBe('The current password is not correct');
    expect((await userRow(user.id)).email).toBe(user.email);
    const right = await s.post('/user/edit', { id: user.id, email: 'Mine@example.com', current_password: 'password123' }, user.token);
    expect(right.body).toMatchObject({ status: true, detail: { email: 'mine@example.com' } });
  });

  it('needs the current password for a new phone number (ASVS 7.5.1), not for the same one sent again', async () => {
    const user = await s.userWith([1, 2]);
    const same = await s.post('/user/edit', { id: user.id, name: 'Same phone', phone: '' }, user.token);
    expect(same.body).toMatchObject({ status: true, detail: { name: 'Same phone' } });
    const missing = await s.post('/user/edit', { id: user.id, phone: '+447700900555' }, user.token);
    expect(missing).toMatchObject({ http: 400, body: { status: false, query: 'Enter your current password to change your phone number' } });
    const wrong = await s.post('/user/edit', { id: user.id, phone: '+447700900555', current_password: 'not-it-at-all' }, user.token);
    expect(wrong).toMatchObject({ http: 403, body: { query: 'The current password is not correct' } });
    expect((await userRow(user.id)).phone ?? '').toBe('');
    const right = await s.post('/user/edit', { id: user.id, phone: '+447700900555', current_password: 'password123' }, user.token);
    expect(right.body).toMatchObject({ status: true, detail: { phone: '+447700900555' } });
    // An admin changing another user's phone is held by the rules of managing that user, not by a password.
    expect((await s.post('/user/edit', { id: user.id, phone: '+447700900556' }, full)).body.status).toBe(true);
  });

  it('changes the password with the current one, ends other sessions and outstanding reset links', async () => {
    const user = await s.userWith([1]);
    const other = await s.login(user.email, 'password123');
    await s.post('/user/reset', { email: user.email });
    const mailed = await tokenFrom(user.email);
    const wrong = await s.post('/user/update', { current_password: 'not-it-at-all', password: 'a-new-password' }, user.token);
    expect(wrong.http).toBe(403);
    const missing = await s.post('/user/update', { password: 'a-new-password' }, user.token);
    expect(missing.http).toBe(400);
    const changed = await s.post('/user/update', { current_password: 'password123', password: 'a-new-password' }, user.token);
    expect(changed.body).toMatchObject({ status: true, query: 'Your password has been changed' });
    expect((await s.post('/users', { id: user.id }, user.token)).http).toBe(200); // this session goes on
    expect((await s.post('/users', { id: user.id }, other)).http).toBe(401); // the others end
    const reused = await s.post('/user/update', { reset_token: mailed, password: 'attacker-pass' });
    expect(reused.http).toBe(400);
    expect(await s.login(user.email, 'a-new-password')).toEqual(expect.any(String));
  });
});

describe('reset tokens', () => {
  it('all outstanding tokens of a user die when one of them is used', async () => {
    const user = await s.userWith([1]);
    await s.post('/user/reset', { email: user.email });
    const first = await tokenFrom(user.email);
    await s.post('/user/reset', { email: user.email });
    const second = await tokenFrom(user.email);
    expect(second).not.toBe(first);
    expect((await s.post('/user/update', { reset_token: second, password: 'from-second-link' })).body.status).toBe(true);
    const stale = await s.post('/user/update', { reset_token: first, password: 'from-first-link' });
    expect(stale.http).toBe(400);
    expect(await s.login(user.email, 'from-second-link')).toEqual(expect.any(String));
  });

  it('a token is single-use even when two requests race', async () => {
    const user = await s.userWith([1]);
    await s.post('/user/reset', { email: user.email });
    const token = await tokenFrom(user.email);
    const answers = await Promise.all(['race-password-1', 'race-password-2'].map((password) => s.post('/user/update', { reset_token: token, password })));
    expect(answers.filter((a) => a.body.status).length).toBe(1);
  });

  it('an email changed by an admin kills reset links mailed to the old address', async () => {
    const user = await s.userWith([1]);
    await s.post('/user/reset', { email: user.email });
    const token = await tokenFrom(user.email);
    expect((await s.post('/user/edit', { id: user.id, email: `moved-${user.id}@example.com` }, full)).body.status).toBe(true);
    expect((await s.post('/user/update', { reset_token: token, password: 'some-password' })).http).toBe(400);
  });
});
