/**
 * A second factor (issue 26, ASVS 5.0 level 2, V6.5): authenticator codes with recovery codes, the
 * sign-in that asks for them, step-up, an admin's reset and the ADMIN_SECOND_FACTOR policy. Time is
 * the server's injected clock: a code's step, drift and the step-up window move with `t`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, demo, shopBody, startServer, type TestServer } from './harness';
import { RECENT_SIGN_IN_MS, SIGN_IN_AGAIN, STEP_UP_MS, openSecret, totpCode } from '../../server/secondFactor';
import { DEFAULT_LIMITS } from '../../server/throttle';

const KEY = 'a test key of thirty-two characters!';
let t = Date.UTC(2026, 10, 24, 12, 0, 10);
const clock = () => t;
let s: TestServer;
beforeAll(async () => {
  s = await startServer({ clock, config: { mfaKey: KEY } });
});
afterAll(() => s.close());

const STEP = 30_000;
const login = (email: string, extra: Record<string, unknown> = {}) =>
  s.post('/user/terminal', { credential: email, password: 'password123', ...extra });
const factor = (token: string, body: Record<string, unknown>) => s.post('/user/second-factor', body, token);

/** A fresh user with authenticator codes on: its secret and recovery codes. */
async function enrolled(abilities: number[] = [1, 2], granted: string[] = []) {
  const user = await s.userWith(abilities, granted);
  const begin = await factor(user.token, { action: 'totp-begin' });
  const { secret } = begin.body.detail as { secret: string };
  const confirm = await factor(user.token, { action: 'totp-confirm', code: totpCode(secret, t) });
  expect(confirm.body.status).toBe(true);
  t += STEP; // the confirming code is spent; the tests' next code is the next step's
  return { ...user, secret, recovery: confirm.body.detail.recovery_codes as string[] };
}

describe('turning authenticator codes on', () => {
  it('sets up a first factor only within 15 minutes of signing in (ASVS 7.5.1): a session left open cannot', async () => {
    const user = await s.userWith([1, 2]);
    t += RECENT_SIGN_IN_MS; // exactly 15 minutes after signing in: still recent
    expect((await factor(user.token, { action: 'totp-begin' })).body.status).toBe(true);
    t += 1;
    for (const action of ['totp-begin', 'passkey-begin']) {
      expect(await factor(user.token, { action })).toMatchObject({ http: 403, body: { status: false, query: SIGN_IN_AGAIN } });
    }
    const again = await s.login(user.email, 'password123');
    expect((await factor(again, { action: 'totp-begin' })).body.status).toBe(true);
    expect((await factor(again, { action: 'passkey-begin' })).body.status).toBe(true);
  });

  it('answers a base32 secret and its otpauth address, then 10 recovery codes for a right code', async () => {
    const user = await s.userWith([1, 2]);
    const begin = await factor(user.token, { action: 'totp-begin' });
    expect(begin.body).toMatchObject({ status: true, detail: { secret: expect.stringMatching(/^[A-Z2-7]{32}$/) } });
    const { secret, uri } = begin.body.detail;
    expect(uri).toMatch(new RegExp(`^otpauth://totp/.*secret=${secret}`));
    expect(uri).toContain(encodeURIComponent(user.email));
    const wrong = await factor(user.token, { action: 'totp-confirm', code: totpCode(secret, t + 5 * STEP) });
    expect(wrong).toMatchObject({ http: 403, body: { status: false, query: 'The code is not correct; please try again' } });
    const right = await factor(user.token, { action: 'totp-confirm', code: totpCode(secret, t) });
    expect(right.body.status).toBe(true);
    const codes = right.body.detail.recovery_codes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{6}(-[a-z2-9]{6}){3}$/);
    const status = await factor(user.token, { action: 'status' });
    expect(status.body.detail).toMatchObject({ totp: true, recovery_left: 10, second_factor: ['totp', 'recovery'] });
    expect(JSON.stringify(status.body)).not.toContain(secret);
    // The profile shows that a factor is on, never the secret.
    const profile = await s.post('/users', { id: user.id }, user.token);
    expect(profile.body.detail.second_factor).toBe('totp,recovery');
    expect(JSON.stringify(profile.body)).not.toContain(secret);
  });

  it('stores the secret sealed with MFA_KEY and the recovery codes only as hashes', async () => {
    const user = await enrolled();
    const row = await s.db.selectFrom('second_factors').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(String(row.secret)).not.toContain(user.secret);
    expect(openSecret(KEY, String(row.secret))).toBe(user.secret);
    expect(openSecret('another key', String(row.secret))).toBeNull();
    const hashes = await s.db.selectFrom('recovery_codes').select('code_hash').where('user_id', '=', user.id).execute();
    expect(hashes).toHaveLength(10);
    for (const code of user.recovery) expect(hashes.map((h) => h.code_hash).join()).not.toContain(code.replace(/-/g, ''));
  });

  it('refuses a second setup while codes are on, and anonymous or malformed calls', async () => {
    const user = await enrolled();
    expect((await factor(user.token, { action: 'totp-begin' })).http).toBe(403);
    expect((await s.post('/user/second-factor', { action: 'status' })).http).toBe(401);
    // Who may call comes before what the body says.
    expect((await s.post('/user/second-factor', { action: 'nonsense' })).http).toBe(401);
    const bad = await factor(user.token, { action: 'nonsense' });
    expect(bad.http).toBe(400);
    expect(bad.body.query).toMatch(/^action must be one of status, totp-begin/);
    expect((await factor(user.token, { action: 'verify' })).body.query).toBe('code is required');
  });
});

describe('signing in with a second factor', () => {
  it('asks for the factor after the right password, with no token', async () => {
    const user = await enrolled();
    const sessions = async () => (await s.db.selectFrom('sessions').select('id').where('user_id', '=', user.id).execute()).length;
    const before = await sessions();
    const res = await login(user.email);
    expect(res.http).toBe(401);
    expect(res.body).toMatchObject({
      status: false,
      query: 'Enter the code from your authenticator app or a recovery code, or use your passkey',
      detail: { second_factor: ['totp', 'recovery'] },
    });
    expect(res.body.detail).not.toHaveProperty('token');
    expect(await sessions()).toBe(before);
    // A wrong password still says only that.
    const wrong = await s.post('/user/terminal', { credential: user.email, password: 'wrong-password', otp: totpCode(user.secret, t) });
    expect(wrong.body.query).toBe('The email, phone number or password is not correct');
  });

  it('takes a current code once: the same code again is refused, the next step works', async () => {
    const user = await enrolled();
    const code = totpCode(user.secret, t);
    const first = await login(user.email, { otp: code });
    expect(first.body).toMatchObject({ status: true, detail: { token: expect.any(String) } });
    const replay = await login(user.email, { otp: code });
    expect(replay).toMatchObject({ http: 401, body: { status: false, query: 'The code is not correct; please try again', detail: { second_factor: ['totp', 'recovery'] } } });
    t += STEP;
    expect((await login(user.email, { otp: totpCode(user.secret, t) })).body.status).toBe(true);
  });

  it('accepts one step of drift either side, not two', async () => {
    const user = await enrolled();
    t += 10 * STEP;
    // The step before (a slow phone) and after (a fast one) are accepted; each once, in order.
    expect((await login(user.email, { otp: totpCode(user.secret, t - STEP) })).body.status).toBe(true);
    expect((await login(user.email, { otp: totpCode(user.secret, t + STEP) })).body.status).toBe(true);
    t += 10 * STEP;
    expect((await login(user.email, { otp: totpCode(user.secret, t - 2 * STEP) })).http).toBe(401);
    expect((await login(user.email, { otp: totpCode(user.secret, t + 2 * STEP) })).http).toBe(401);
  });

  it('takes a recovery code once, typed in any case with or without dashes', async () => {
    const user = await enrolled();
    const [code] = user.recovery;
    expect((await login(user.email, { otp: code.toUpperCase().replace(/-/g, ' ') })).body.status).toBe(true);
    expect((await login(user.email, { otp: code })).http).toBe(401);
    const status = await factor(await s.post('/user/terminal', { credential: user.email, password: 'password123', otp: user.recovery[1] }).then((r) => r.body.detail.token), { action: 'status' });
    expect(status.body.detail.recovery_left).toBe(8);
  });

  it('counts wrong codes as failed sign-ins of the account (429 after the limit)', async () => {
    const user = await enrolled();
    for (let n = 0; n < DEFAULT_LIMITS.loginAccount.max; n++) expect((await login(user.email, { otp: '000000' })).http).toBe(401);
    const blocked = await login(user.email, { otp: totpCode(user.secret, t) });
    expect(blocked.http).toBe(429);
    t += 60_000;
    expect((await login(user.email, { otp: totpCode(user.secret, t) })).body.status).toBe(true);
  });

  it('counts wrong codes, signed in or at sign-in, with wrong passwords by phone number in one counter of the account', async () => {
    const user = await enrolled();
    const phone = `+1555${String(t).slice(-7)}`;
    await s.db.updateTable('users').set({ phone }).where('id', '=', user.id).execute();
    for (let n = 0; n < 2; n++) expect((await factor(user.token, { action: 'verify', code: '000000' })).http).toBe(403);
    for (let n = 0; n < 2; n++) expect((await login(phone, { otp: '000000' })).http).toBe(401);
    expect((await s.post('/user/terminal', { credential: phone, password: 'wrong-password' })).http).toBe(401);
    expect((await login(user.email, { otp: totpCode(user.secret, t) })).http).toBe(429);
    t += 60_000;
    expect((await login(phone, { otp: totpCode(user.secret, t) })).body.status).toBe(true);
  });

  it('still asks for the factor after a password reset (a mailed link is no way around it)', async () => {
    const user = await enrolled();
    await s.post('/user/reset', { email: user.email });
    const token = /token=([\w-]+)/.exec((await s.mails(user.email)).at(-1)!.body)![1];
    expect((await s.post('/user/update', { reset_token: token, password: 'another-pass-42' })).body.status).toBe(true);
    const res = await s.post('/user/terminal', { credential: user.email, password: 'another-pass-42' });
    expect(res).toMatchObject({ http: 401, body: { detail: { second_factor: ['totp', 'recovery'] } } });
  });

  it('refuses an assertion that is no passkey of the account', async () => {
    const user = await enrolled();
    const forged = { id: 'AAAA', rawId: 'AAAA', type: 'public-key', response: { clientDataJSON: 'e30', authenticatorData: 'AAAA', signature: 'AAAA' }, clientExtensionResults: {} };
    const res = await login(user.email, { passkey: forged });
    expect(res).toMatchObject({ http: 401, body: { query: 'The code is not correct; please try again' } });
    const finish = await factor(user.token, { action: 'passkey-finish', credential: forged, name: 'Fake' });
    expect(finish).toMatchObject({ http: 403, body: { query: 'The passkey was not accepted; please try again' } });
    expect((await factor(user.token, { action: 'passkey-finish', credential: 'text' })).http).toBe(400);
  });

  it('holds in strict contract mode too', async () => {
    const strict = await startServer({ strict: true, clock, config: { mfaKey: KEY } });
    try {
      const user = await strict.userWith([1, 2]);
      const { secret } = (await strict.post('/user/second-factor', { action: 'totp-begin' }, user.token)).body.detail;
      await strict.post('/user/second-factor', { action: 'totp-confirm', code: totpCode(secret, t) }, user.token);
      const asked = await strict.post('/user/terminal', { credential: user.email, password: 'password123' });
      expect(asked.body).toMatchObject({ status: false, detail: { second_factor: ['totp', 'recovery'] } });
      t += STEP;
      const done = await strict.post('/user/terminal', { credential: user.email, password: 'password123', otp: totpCode(secret, t) });
      expect(done.body.status).toBe(true);
    } finally {
      await strict.close();
    }
  });
});

describe('turning codes off', () => {
  it('needs a current code; then sign-in needs the password only', async () => {
    const user = await enrolled();
    expect((await factor(user.token, { action: 'totp-off', code: '123456' })).http).toBe(403);
    expect((await login(user.email)).http).toBe(401);
    const off = await factor(user.token, { action: 'totp-off', code: totpCode(user.secret, t) });
    expect(off.body).toMatchObject({ status: true, detail: { totp: false, recovery_left: 0, second_factor: [] } });
    expect((await login(user.email)).body.status).toBe(true);
  });
});

describe('step-up', () => {
  /** A seller with codes on, a shop of theirs and a session opened with the password and a code at `t`. */
  async function sellerWithShop() {
    const user = await enrolled();
    const shop = await s.post('/shop', shopBody(`Step-up ${user.id}`), user.token);
    expect(shop.body.status).toBe(true);
    return { ...user, shopId: Number(shop.body.detail.id) };
  }
  const bank = (shopId: number, account: string) => ({ id: shopId, ...shopBody('x'), name: undefined, bank: { bank_name: 'Bank', bank_country: 'Nigeria', account_name: 'Test', account_number: account } });

  it('bank details change only within 5 minutes of presenting the factor', async () => {
    const user = await sellerWithShop();
    const token = (await login(user.email, { otp: totpCode(user.secret, t) })).body.detail.token as string;
    t += STEP_UP_MS; // exactly 5 minutes later: still fresh
    const inside = await s.post('/shop', bank(user.shopId, '111'), token);
    expect(inside.body.status).toBe(true);
    t += 1; // a moment past the window
    const outside = await s.post('/shop', bank(user.shopId, '222'), token);
    expect(outside).toMatchObject({ http: 403, body: { status: false, query: 'Confirm with your second factor to continue', detail: { second_factor: ['totp', 'recovery'], step_up: true } } });
    const row = await s.db.selectFrom('shops').select('account_number').where('id', '=', user.shopId).executeTakeFirstOrThrow();
    expect(row.account_number).toBe('111');
    // A shop edit that leaves the payout details alone needs no step-up.
    expect((await s.post('/shop', { ...bank(user.shopId, '111'), description: 'Only the words change' }, token)).body.status).toBe(true);
    expect((await factor(token, { action: 'verify', code: totpCode(user.secret, t) })).body.status).toBe(true);
    expect((await s.post('/shop', bank(user.shopId, '222'), token)).body.status).toBe(true);
  });

  it('a user without a second factor changes bank details with the password session alone', async () => {
    const seller = await s.userWith([1, 2]);
    const shop = await s.post('/shop', shopBody(`No factor ${seller.id}`), seller.token);
    t += 4 * STEP_UP_MS; // long past any step-up window, within the session's idle time
    expect((await s.post('/shop', bank(Number(shop.body.detail.id), '333'), seller.token)).body.status).toBe(true);
  });

  it('roles, creating admins and blacklisting ask an admin with a factor for a fresh one', async () => {
    const admin = await enrolled(ADMIN, ['users', 'shops']);
    const token = (await login(admin.email, { otp: totpCode(admin.secret, t) })).body.detail.token as string;
    t += STEP_UP_MS + 1;
    const target = await s.userWith([1, 2]);
    const calls: [string, Record<string, unknown>][] = [
      ['/user/assign-role', { id: target.id, granted_accesses: ['shops'] }],
      ['/user/status', { id: target.id, is_active: 0 }],
      ['/user/edit', { id: target.id, abilities: [1, 2, 3] }],
      ['/user/edit', { id: target.id, is_active: 0 }],
    ];
    for (const [path, body] of calls) {
      const res = await s.post(path, body, token);
      expect(res.http, path).toBe(403);
      expect(res.body.detail, path).toMatchObject({ step_up: true });
    }
    // A plain edit (a name) needs none.
    expect((await s.post('/user/edit', { id: target.id, name: 'Renamed' }, token)).body.status).toBe(true);
    t += STEP;
    await factor(token, { action: 'verify', code: totpCode(admin.secret, t) });
    for (const [path, body] of calls.slice(0, 3)) expect((await s.post(path, body, token)).body.status, path).toBe(true);
  });

  it('a payout asks an admin with a factor for a fresh one, before any money moves', async () => {
    const admin = await enrolled(ADMIN, ['payouts']);
    const token = (await login(admin.email, { otp: totpCode(admin.secret, t) })).body.detail.token as string;
    t += STEP_UP_MS + 1;
    const shop = await s.db.selectFrom('shops').select('id').orderBy('id').executeTakeFirstOrThrow();
    const stale = await s.post('/payout', { shop_id: Number(shop.id), currency: 'ZZZ' }, token);
    expect(stale).toMatchObject({ http: 403, body: { detail: { step_up: true } } });
    t += STEP;
    await factor(token, { action: 'verify', code: totpCode(admin.secret, t) });
    // Past the step-up, the payout's own rules answer (nothing in that currency to pay out).
    const fresh = await s.post('/payout', { shop_id: Number(shop.id), currency: 'ZZZ' }, token);
    expect(fresh).toMatchObject({ http: 400, body: { query: expect.stringContaining('nothing available to pay out') } });
  });

  it('adding a passkey beside authenticator codes asks for a fresh factor too', async () => {
    const user = await enrolled();
    t += STEP_UP_MS + 1;
    const stale = await factor(user.token, { action: 'passkey-begin' });
    expect(stale).toMatchObject({ http: 403, body: { detail: { step_up: true } } });
    await factor(user.token, { action: 'verify', code: user.recovery[0] });
    const fresh = await factor(user.token, { action: 'passkey-begin' });
    expect(fresh.body).toMatchObject({ status: true, detail: { challenge: expect.any(String), rp: { id: 'console.test' } } });
  });

  it('an admin without a second factor is not asked (the policy makes them have one)', async () => {
    const admin = await s.userWith(ADMIN, ['users']);
    const target = await s.userWith([1, 2]);
    expect((await s.post('/user/status', { id: target.id, is_active: 0 }, admin.token)).body.status).toBe(true);
  });
});

describe("an admin's reset of another user's factor", () => {
  it('removes it under the rule of managing that user, needs a fresh factor of the admin, and is audited', async () => {
    const seller = await enrolled();
    const partial = await s.userWith(ADMIN, ['users']);
    const fuller = await enrolled(ADMIN, ['users', 'shops']);
    // A buyer, a seller and an admin without 'users' are turned away before the body is read.
    for (const who of [await s.userWith([1]), await s.userWith([1, 2]), await s.userWith(ADMIN, ['shops'])]) {
      expect((await s.post('/user/second-factor/reset', { id: 'x' }, who.token)).http).toBe(403);
    }
    expect((await s.post('/user/second-factor/reset', { id: seller.id })).http).toBe(401);
    expect((await s.post('/user/second-factor/reset', { id: fuller.id }, partial.token)).http).toBe(403);
    expect((await s.post('/user/second-factor/reset', { id: partial.id }, partial.token)).http).toBe(403);
    expect(await s.post('/user/second-factor/reset', { id: 999_999 }, partial.token)).toMatchObject({ http: 404, body: { status: false, query: 'No user has id 999999' } });
    const res = await s.post('/user/second-factor/reset', { id: seller.id }, partial.token);
    expect(res.body).toMatchObject({ status: true });
    // The user's sessions end with it (a lost device may hold one).
    expect((await s.post('/users', { id: seller.id }, seller.token)).http).toBe(401);
    expect((await login(seller.email)).body.status).toBe(true);
    const entry = await s.db.selectFrom('auditLogs').selectAll().where('record_id', '=', seller.id).where('action', '=', 'second-factor').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(entry.user_id).toBe(partial.id);
    // The Users list shows who has a factor.
    const list = await s.post('/users', { page: 1, per_page: 100, filter: { id: fuller.id } }, partial.token);
    expect(list.body.HLL.data[0].second_factor).toBe('totp,recovery');
  });
});

describe('without MFA_KEY in production', () => {
  it('answers 503 to setting up authenticator codes (as the API document lists), and passkeys still work', async () => {
    const bare = await startServer({ clock, config: { demo: false } });
    try {
      const admin = await bare.userWith(ADMIN);
      const res = await bare.post('/user/second-factor', { action: 'totp-begin' }, admin.token);
      expect(res).toMatchObject({ http: 503, body: { status: false, query: 'Authenticator codes are not set up on this server: the operator must set MFA_KEY' } });
      expect((await bare.post('/user/second-factor', { action: 'passkey-begin' }, admin.token)).http).toBe(200);
    } finally {
      await bare.close();
    }
  });
});

describe('ADMIN_SECOND_FACTOR=required', () => {
  it('lets an admin without a factor only set one up, then everything opens', async () => {
    const strictAdmins = await startServer({ clock, config: { mfaKey: KEY, adminSecondFactor: 'required' } });
    try {
      const admin = await strictAdmins.login(demo.admin.email, demo.admin.password);
      const signIn = await strictAdmins.post('/user/terminal', { credential: demo.admin.email, password: demo.admin.password });
      expect(signIn.body.detail).toMatchObject({ enrol_second_factor: true });
      // Calls anyone may make too (the exchange rates): with the admin's token, refused as well (the API document lists it).
      for (const [path, body] of [['/users', { page: 1 }], ['/shops', { page: 1 }], ['/user/edit', { id: 1, name: 'x' }], ['/dashboard', {}], ['/user/sessions', {}], ['/exchangess', {}]] as const) {
        const res = await strictAdmins.post(path, body, admin);
        expect(res.http, path).toBe(403);
        expect(res.body, path).toMatchObject({ status: false, query: 'Set up a second factor before anything else', detail: { enrol_second_factor: true } });
      }
      // Sellers and buyers are not held.
      const seller = await strictAdmins.login(demo.seller.email, demo.seller.password);
      expect((await strictAdmins.post('/dashboard', {}, seller)).http).toBe(200);
      const { secret } = (await strictAdmins.post('/user/second-factor', { action: 'totp-begin' }, admin)).body.detail;
      const done = await strictAdmins.post('/user/second-factor', { action: 'totp-confirm', code: totpCode(secret, t) }, admin);
      expect(done.body.status).toBe(true);
      expect((await strictAdmins.post('/shops', { page: 1 }, admin)).http).toBe(200);
    } finally {
      await strictAdmins.close();
    }
  });

  it('is off by default', async () => {
    const admin = await s.login(demo.admin.email, demo.admin.password);
    expect((await s.post('/shops', { page: 1 }, admin)).http).toBe(200);
  });
});

describe('SELLER_SECOND_FACTOR=required (ASVS 6.3.3)', () => {
  it('holds a seller without a factor, at sign-in and from registering, until one is set up; buyers and admins are not held by it', async () => {
    const held = await startServer({ clock, config: { mfaKey: KEY, sellerSecondFactor: 'required' } });
    try {
      const signIn = await held.post('/user/terminal', { credential: demo.seller.email, password: demo.seller.password });
      expect(signIn.body.detail).toMatchObject({ enrol_second_factor: true });
      const registered = await held.post('/user', { name: 'Held Seller', email: `held-${t}@example.com`, phone: `+4477009${String(t).slice(-5)}`, password: 'wren-pass-4417', abilities: '[1,2]' });
      expect(registered.body.detail).toMatchObject({ enrol_second_factor: true });
      for (const token of [signIn.body.detail.token as string, registered.body.detail.token as string]) {
        for (const [path, body] of [['/shopz', {}], ['/dashboard', {}], ['/user/sessions', {}], ['/user/edit', { id: 1, name: 'x' }]] as const) {
          const res = await held.post(path, body, token);
          expect(res, path).toMatchObject({ http: 403, body: { status: false, query: 'Set up a second factor before anything else', detail: { enrol_second_factor: true } } });
        }
      }
      // Buyers are not held; neither are admins (ADMIN_SECOND_FACTOR is their own setting).
      const buyer = await held.post('/user/terminal', { credential: demo.buyer.email, password: demo.buyer.password });
      expect(buyer.body.detail.enrol_second_factor).toBeUndefined();
      expect((await held.post('/dashboard', {}, buyer.body.detail.token)).http).toBe(200);
      const admin = await held.login(demo.admin.email, demo.admin.password);
      expect((await held.post('/shops', { page: 1 }, admin)).http).toBe(200);
      // Setting one up opens everything.
      const seller = signIn.body.detail.token as string;
      const { secret } = (await held.post('/user/second-factor', { action: 'totp-begin' }, seller)).body.detail;
      expect((await held.post('/user/second-factor', { action: 'totp-confirm', code: totpCode(secret, t) }, seller)).body.status).toBe(true);
      expect((await held.post('/shopz', {}, seller)).http).toBe(200);
    } finally {
      await held.close();
    }
  });

  it('is off by default: a seller without a factor is answered', async () => {
    const seller = await s.login(demo.seller.email, demo.seller.password);
    expect((await s.post('/shopz', {}, seller)).http).toBe(200);
  });
});

describe('re-authentication for a new phone number or email (ASVS 7.5.1)', () => {
  it('takes, from a user with a factor, a factor presented within 5 minutes instead of the password; asks for it after', async () => {
    const user = await enrolled();
    const token = (await login(user.email, { otp: totpCode(user.secret, t) })).body.detail.token as string;
    t += STEP;
    const fresh = await s.post('/user/edit', { id: user.id, phone: `+4477009${String(user.id).padStart(5, '0')}` }, token);
    expect(fresh.body).toMatchObject({ status: true });
    t += STEP_UP_MS + 1;
    const stale = await s.post('/user/edit', { id: user.id, phone: `+4477008${String(user.id).padStart(5, '0')}` }, token);
    expect(stale).toMatchObject({ http: 403, body: { status: false, query: 'Confirm with your second factor to continue', detail: { step_up: true } } });
    const email = await s.post('/user/edit', { id: user.id, email: `moved-${user.id}@example.com` }, token);
    expect(email).toMatchObject({ http: 403, body: { detail: { step_up: true } } });
    // The current password still does.
    expect((await s.post('/user/edit', { id: user.id, email: `moved-${user.id}@example.com`, current_password: 'password123' }, token)).body.status).toBe(true);
  });
});

describe('a passkey instead of the password', () => {
  it('hands out single-use challenges to anyone (throttled per address) and refuses an assertion of no stored passkey', async () => {
    const options = await s.post('/user/passkey-options', {});
    expect(options.body).toMatchObject({ status: true, detail: { challenge: expect.any(String), userVerification: 'required' } });
    const forged = { id: 'AAAA', rawId: 'AAAA', type: 'public-key', response: { clientDataJSON: 'e30', authenticatorData: 'AAAA', signature: 'AAAA' }, clientExtensionResults: {} };
    const res = await s.post('/user/terminal', { passkey: forged });
    expect(res).toMatchObject({ http: 401, body: { status: false, query: 'The passkey was not accepted; please try again' } });
    expect(res.body.detail).toBeNull();
    // Without a passkey, the credential and the password are still required.
    expect((await s.post('/user/terminal', {})).body.query).toBe('credential is required');
  });

  it('is absent from the strict contract', async () => {
    const strict = await startServer({ strict: true });
    try {
      expect((await strict.post('/user/passkey-options', {})).http).toBe(404);
      expect((await strict.post('/user/terminal', { passkey: { id: 'AAAA' } })).body.query).toBe('credential is required');
    } finally {
      await strict.close();
    }
  });
});
