/**
 * Passwords as received and session tokens (the ASVS level 1 items of SECURITY.md not proved elsewhere).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { SESSION_IDLE_MINUTES, SESSION_TOUCH_MS, SESSION_TTL_MS } from '../../server/auth';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

describe('passwords', () => {
  it('takes a 64-character password of any characters exactly as sent, never trimmed or truncated', async () => {
    const password = ` ${'pässwörd 🔑 '.repeat(5)}ok-64-long `.slice(0, 64);
    expect(password).toHaveLength(64);
    const reg = await s.post('/user', { name: 'Lengthy', email: 'lengthy@example.com', phone: '+15550009999', password, abilities: '[1,2]' });
    expect(reg.body.status).toBe(true);
    expect(await s.login('lengthy@example.com', password)).toEqual(expect.any(String));
    expect((await s.post('/user/terminal', { credential: 'lengthy@example.com', password: password.trim() })).http).toBe(401);
    expect((await s.post('/user/terminal', { credential: 'lengthy@example.com', password: password.slice(0, 63) })).http).toBe(401);
  });

  it('refuses a common password, whatever its case, when registering, resetting or changing one (ASVS 6.2.4)', async () => {
    for (const password of ['password123', 'Password123', 'QWERTY123', 'iloveyou']) {
      const reg = await s.post('/user', { name: 'Common', email: 'common@example.com', phone: '+15550008888', password, abilities: '[1,2]' });
      expect(reg.http).toBe(400);
      expect(reg.body.query).toBe('This password is too common; please choose another one');
    }
    const user = await s.userWith([1, 2]);
    const change = await s.post('/user/update', { current_password: 'password123', password: 'letmein1' }, user.token);
    expect(change.http).toBe(400);
    expect(change.body.query).toBe('This password is too common; please choose another one');
    expect(await s.login(user.email, 'password123')).toEqual(expect.any(String));
  });

  it('stores only a salted scrypt hash', async () => {
    const row = await s.db.selectFrom('users').selectAll().where('email', '=', 'lengthy@example.com').executeTakeFirstOrThrow();
    expect(String(row.password_hash)).toMatch(/^scrypt\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{88}$/);
  });
});

describe('session tokens', () => {
  it('are new, random 256-bit values on every sign-in, stored only as hashes', async () => {
    const user = await s.userWith([1]);
    const tokens = await Promise.all([1, 2, 3].map(() => s.login(user.email, 'password123')));
    expect(new Set(tokens).size).toBe(3);
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stored = await s.db.selectFrom('sessions').select('token_hash').where('user_id', '=', user.id).execute();
    for (const token of tokens) expect(stored.map((r) => r.token_hash)).not.toContain(token);
  });

  it('stop working once expired', async () => {
    const user = await s.userWith([1]);
    expect((await s.post('/users', { id: user.id }, user.token)).http).toBe(200);
    await s.db.updateTable('sessions').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('user_id', '=', user.id).execute();
    const res = await s.post('/users', { id: user.id }, user.token);
    expect(res.http).toBe(401);
    expect(res.body.query).toBe('Your session has expired; please sign in again');
  });
});

describe('an unused session (ASVS 7.3.1)', () => {
  const MINUTE = 60_000;
  const IDLE = SESSION_IDLE_MINUTES * MINUTE;
  let t = Date.UTC(2026, 10, 25, 9, 0, 0);
  let c: TestServer;
  beforeAll(async () => {
    c = await startServer({ clock: () => t });
  });
  afterAll(() => c.close());
  const own = async (user: { id: number }, token: string) => c.post('/users', { id: user.id }, token);

  it('is refused with the expiry words once unused for SESSION_IDLE_MINUTES, and not a millisecond before', async () => {
    const user = await c.userWith([1]);
    const opened = t;
    t = opened + IDLE;
    expect((await own(user, user.token)).http).toBe(200);
    // That call moved the deadline on: the idle time counts from it again.
    t += IDLE;
    expect((await own(user, user.token)).http).toBe(200);
    t += IDLE + 1;
    const idle = await own(user, user.token);
    expect(idle.http).toBe(401);
    expect(idle.body).toMatchObject({ status: false, query: 'Your session has expired; please sign in again' });
  });

  it('writes its last use at most once a minute: calls within the minute write nothing', async () => {
    const user = await c.userWith([1]);
    const stored = async () => String((await c.db.selectFrom('sessions').select('expires_at').where('user_id', '=', user.id).executeTakeFirstOrThrow()).expires_at);
    const first = await stored();
    t += SESSION_TOUCH_MS - 1;
    expect((await own(user, user.token)).http).toBe(200);
    expect(await stored()).toBe(first);
    t += 1;
    expect((await own(user, user.token)).http).toBe(200);
    expect(await stored()).toBe(new Date(t + IDLE).toISOString());
  });

  it('follows SESSION_IDLE_MINUTES, and never lives past 7 days however often it is used', async () => {
    const short = await startServer({ clock: () => t, config: { sessionIdleMinutes: 2 } });
    try {
      const user = await short.userWith([1]);
      t += 2 * MINUTE;
      expect((await short.post('/users', { id: user.id }, user.token)).http).toBe(200);
      t += 2 * MINUTE + 1;
      expect((await short.post('/users', { id: user.id }, user.token)).http).toBe(401);
    } finally {
      await short.close();
    }
    const user = await c.userWith([1]);
    const opened = t;
    while (t + IDLE < opened + SESSION_TTL_MS) {
      t += IDLE;
      expect((await own(user, user.token)).http).toBe(200);
    }
    t = opened + SESSION_TTL_MS;
    expect((await own(user, user.token)).http).toBe(200);
    t += 1;
    expect((await own(user, user.token)).http).toBe(401);
  });

  it('refuses a session whose deadline lies beyond the idle time (opened before the timeout existed)', async () => {
    const user = await c.userWith([1]);
    const far = (ms: number) => c.db.updateTable('sessions').set({ expires_at: new Date(t + ms).toISOString() }).where('user_id', '=', user.id).execute();
    await far(IDLE + SESSION_TOUCH_MS);
    expect((await own(user, user.token)).http).toBe(200);
    await far(IDLE + SESSION_TOUCH_MS + 1);
    expect((await own(user, user.token)).http).toBe(401);
  });
});
