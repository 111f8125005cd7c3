/**
 * Passwords as received and session tokens (the ASVS level 1 items of SECURITY.md not proved elsewhere).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

describe('passwords', () => {
  it('takes a 64-character password of any characters exactly as sent, never trimmed or truncated', async () => {
    const password = ` ${'pässwörd 🔑 '.repeat(5)}ok-64-long `.slice(0, 64);
    expect(password).toHaveLength(64);
    const reg = await s.post('/user', { name: 'Long', email: 'long@example.com', phone: '+15550009999', password, abilities: '[1,2]' });
    expect(reg.body.status).toBe(true);
    expect(await s.login('long@example.com', password)).toEqual(expect.any(String));
    expect((await s.post('/user/terminal', { credential: 'long@example.com', password: password.trim() })).http).toBe(401);
    expect((await s.post('/user/terminal', { credential: 'long@example.com', password: password.slice(0, 63) })).http).toBe(401);
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
    const row = await s.db.selectFrom('users').selectAll().where('email', '=', 'long@example.com').executeTakeFirstOrThrow();
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
