/**
 * The account page's session calls (extensions): a user lists and ends only their own sessions;
 * 'sign out everywhere else' keeps the caller's; strict mode has no such endpoints. Also the calls
 * the account page and the users screen send, as they send them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, demo, ADMIN, type TestServer } from './harness';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

const sessionsOf = async (token: string) => (await s.post('/user/sessions', {}, token)).body.HLL as { id: number; current: boolean }[];

describe('own sessions', () => {
  it('lists the caller’s sessions, newest first, the current one marked, and never a token', async () => {
    const seller = await s.userWith([1, 2]);
    const second = await s.login(seller.email, 'password123');
    const res = await s.post('/user/sessions', {}, second);
    expect(res.http).toBe(200);
    expect(res.body.HLL).toHaveLength(2);
    expect(res.body.HLL[0]).toMatchObject({ current: true });
    expect(res.body.HLL[1]).toMatchObject({ current: false });
    expect(JSON.stringify(res.body)).not.toMatch(/token_hash|password/);
  });

  it('signs out everywhere else, keeping the caller’s session', async () => {
    const user = await s.userWith([1]);
    const other1 = await s.login(user.email, 'password123');
    await s.login(user.email, 'password123');
    const res = await s.post('/user/sessions/end', { others: true }, user.token);
    expect(res.body).toMatchObject({ status: true, query: 'Signed out of 2 other sessions' });
    expect((await s.post('/user/sessions', {}, other1)).http).toBe(401);
    expect(await sessionsOf(user.token)).toEqual([expect.objectContaining({ current: true })]);
  });

  it('ends one session by id, not the one in use', async () => {
    const user = await s.userWith([1, 2]);
    const other = await s.login(user.email, 'password123');
    const [newest, older] = await sessionsOf(user.token);
    expect(newest.current).toBe(false);
    const self = await s.post('/user/sessions/end', { id: older.id }, user.token);
    expect(self).toMatchObject({ http: 400, body: { status: false } });
    const res = await s.post('/user/sessions/end', { id: newest.id }, user.token);
    expect(res.body).toMatchObject({ status: true, query: 'Session signed out' });
    expect((await s.post('/user/sessions', {}, other)).http).toBe(401);
  });

  it('refuses the wrong callers: anonymous, another seller, a buyer and an admin, on another user’s sessions', async () => {
    const seller = await s.userWith([1, 2]);
    const [mine] = await sessionsOf(seller.token);
    expect((await s.post('/user/sessions', {})).http).toBe(401);
    expect((await s.post('/user/sessions/end', { others: true })).http).toBe(401);
    const others = [
      (await s.userWith([1, 2])).token,
      (await s.userWith([1])).token,
      (await s.userWith(ADMIN, ['users'])).token,
      await s.login(demo.admin.email, demo.admin.password),
    ];
    for (const token of others) {
      const res = await s.post('/user/sessions/end', { id: mine.id }, token);
      expect(res).toMatchObject({ http: 404, body: { status: false } });
      expect((await sessionsOf(token)).map((x) => x.id)).not.toContain(mine.id);
    }
    expect((await s.post('/user/sessions', {}, seller.token)).http).toBe(200);
  });

  it('answers bad input in the envelope', async () => {
    const user = await s.userWith([1]);
    for (const body of [{}, { id: 'x' }, { id: -1 }, { id: { a: 1 } }, { others: 'yes' }]) {
      const res = await s.post('/user/sessions/end', body, user.token);
      expect(res.http).toBe(400);
      expect(res.body).toMatchObject({ status: false, query: expect.any(String) });
    }
  });

  it('does not exist in strict contract mode', async () => {
    const strict = await startServer({ strict: true });
    try {
      const token = await strict.login(demo.seller.email, demo.seller.password);
      expect((await strict.post('/user/sessions', {}, token)).http).toBe(404);
      expect((await strict.post('/user/sessions/end', { others: true }, token)).http).toBe(404);
    } finally {
      await strict.close();
    }
  });
});

describe('what the account page sends', () => {
  it('changes the own email only with the current password, and the password with /user/update', async () => {
    const user = await s.userWith([1, 2]);
    const base = { id: user.id, name: 'Renamed', email: user.email };
    expect((await s.post('/user/edit', base, user.token)).body).toMatchObject({ status: true });
    const noPassword = await s.post('/user/edit', { ...base, email: `new-${user.email}` }, user.token);
    expect(noPassword.http).toBe(400);
    const withPassword = await s.post('/user/edit', { ...base, email: `new-${user.email}`, current_password: 'password123' }, user.token);
    expect(withPassword.body).toMatchObject({ status: true, detail: { email: `new-${user.email}` } });
    const change = await s.post('/user/update', { current_password: 'password123', password: 'another-pass-1' }, user.token);
    expect(change.body).toMatchObject({ status: true, query: 'Your password has been changed' });
    expect(await s.login(`new-${user.email}`, 'another-pass-1')).toEqual(expect.any(String));
    await expect(s.login(`new-${user.email}`, 'password123')).rejects.toThrow('login failed');
  });
});

describe('the users screen’s calls refuse a seller', () => {
  it.each([
    ['/users', { page: 1 }],
    ['/user/edit', { id: 0, abilities: '[1,2,3]' }],
    ['/user/status', { id: 0, is_active: 0 }],
    ['/user/assign-role', { id: 0, granted_accesses: ['brands'] }],
  ] as const)('%s', async (path, body) => {
    const victim = await s.userWith([1, 2]);
    const seller = await s.userWith([1, 2]);
    const before = await s.db.selectFrom('users').selectAll().where('id', '=', victim.id).executeTakeFirst();
    const res = await s.post(path, { ...body, ...('id' in body ? { id: victim.id } : {}) }, seller.token);
    expect(res).toMatchObject({ http: 403, body: { status: false } });
    expect(await s.db.selectFrom('users').selectAll().where('id', '=', victim.id).executeTakeFirst()).toEqual(before);
  });
});
