/**
 * The second factor's rules, alone (issue 26; mutation-tested, issue 30): the sealed secret, which
 * time steps a TOTP code belongs to, codes taken once, recovery codes used once, which factors a
 * user has, step-up freshness and the ADMIN_SECOND_FACTOR policy. On a real SQLite in memory.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOTP, Secret } from 'otpauth';
import { callerOf, sha256, type Caller } from '../../server/auth';
import { migrate, openDatabase, type DB, type Database, type Row } from '../../server/db';
import { ApiError } from '../../server/errors';
import {
  RECENT_SIGN_IN_MS, RECOVERY_CODE_COUNT, SIGN_IN_AGAIN, STEP_UP_MESSAGE, STEP_UP_MS, SecondFactorNeeded, factorState, factorsOfUser, kindsOf, looksLikeRecoveryCode, markFresh,
  newTotp, openSecret, pendingTotp, removeFactors, replaceRecoveryCodes, requireFreshSecondFactor, requireRecentAuthentication, sealSecret, spendCode, syncFactors,
  takeTotp, totpCode, totpStep,
} from '../../server/secondFactor';
import { ENROL_FIRST, enrolmentGate, mustEnrol } from '../../server/secondFactorPolicy';

const KEY = 'a key of at least thirty-two characters';
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
/** The start of a 30-second time step, and the step's number. */
const T0 = 1_800_000_000_000 - (1_800_000_000_000 % 30_000);
const STEP = T0 / 30_000;

let database: Database;
let db: DB;
beforeAll(async () => {
  database = openDatabase({});
  db = database.db;
  await migrate(database);
});
afterAll(() => database.close());

let serial = 0;
async function newUser(over: Row = {}): Promise<number> {
  serial++;
  const made = await db
    .insertInto('users')
    .values({ name: `Second ${serial}`, email: `second${serial}@example.com`, phone: `+1555000${serial}`, abilities: '[1,2,3]', granted_accesses: '[]', is_active: 1, ...over })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(made.id);
}
async function withTotp(userId: number, confirmed = true, lastStep: number | null = null) {
  await db.insertInto('second_factors').values({
    user_id: userId, kind: 'totp', secret: sealSecret(KEY, SECRET), confirmed_at: confirmed ? '2026-01-01T00:00:00.000Z' : null, last_step: lastStep, created_at: '2026-01-01T00:00:00.000Z',
  }).execute();
}
const code = (at: number) => totpCode(SECRET, at);

function refusal(check: () => unknown): { status: number; message: string; detail: unknown } | 'passed' {
  try {
    check();
    return 'passed';
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { status: error.statusCode, message: error.message, detail: error.detail };
  }
}
async function refusalOf(check: () => Promise<unknown>) {
  try {
    await check();
    return 'passed';
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { status: error.statusCode, message: error.message };
  }
}

describe('the sealed secret', () => {
  it('opens under its key only, and not when changed, cut short or of another version', () => {
    const sealed = sealSecret(KEY, SECRET);
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain(SECRET);
    expect(openSecret(KEY, sealed)).toBe(SECRET);
    expect(sealSecret(KEY, SECRET)).not.toBe(sealed);
    expect(openSecret('another key of thirty-two characters', sealed)).toBeNull();
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    raw[raw.length - 1] ^= 1;
    expect(openSecret(KEY, `v1.${raw.toString('base64url')}`)).toBeNull();
    expect(openSecret(KEY, `v2.${sealed.slice(3)}`)).toBeNull();
    expect(openSecret(KEY, sealed.slice(3))).toBeNull();
    // 28 bytes of iv and tag and no text: refused before trying; 29 bytes: tried, and wrong.
    expect(openSecret(KEY, `v1.${Buffer.alloc(28).toString('base64url')}`)).toBeNull();
    expect(openSecret(KEY, `v1.${Buffer.alloc(29).toString('base64url')}`)).toBeNull();
    // An empty text seals and opens too (29 bytes is the shortest possible seal of one character).
    expect(openSecret(KEY, sealSecret(KEY, ''))).toBeNull();
    expect(openSecret(KEY, sealSecret(KEY, 'x'))).toBe('x');
  });
});

describe('TOTP', () => {
  it('a new secret is 160 random bits with an otpauth address of 6 digits every 30 seconds (SHA-1)', () => {
    const { secret, uri } = newTotp('ada@example.com');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotp('x').secret).not.toBe(secret);
    const url = new URL(uri);
    expect(url.protocol).toBe('otpauth:');
    expect([url.host, decodeURIComponent(url.pathname)]).toEqual(['totp', '/Marketplace:ada@example.com']);
    expect(Object.fromEntries(url.searchParams)).toEqual({ issuer: 'Marketplace', secret, algorithm: 'SHA1', digits: '6', period: '30' });
  });

  it("a code is the RFC 6238 code of the time's step", () => {
    const reference = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(SECRET) });
    expect(code(T0)).toBe(reference.generate({ timestamp: T0 }));
    expect(code(T0)).toMatch(/^\d{6}$/);
    expect(code(T0 + 29_999)).toBe(code(T0));
    expect(code(T0 + 30_000)).not.toBe(code(T0));
  });

  it('belongs to its step, one step either side of now, never two; six digits only', () => {
    expect(totpStep(SECRET, code(T0), T0)).toBe(STEP);
    expect(totpStep(SECRET, code(T0), T0 + 29_999)).toBe(STEP);
    expect(totpStep(SECRET, code(T0 - 30_000), T0)).toBe(STEP - 1);
    expect(totpStep(SECRET, code(T0 + 30_000), T0)).toBe(STEP + 1);
    expect(totpStep(SECRET, code(T0 - 60_000), T0)).toBeNull();
    expect(totpStep(SECRET, code(T0 + 60_000), T0)).toBeNull();
    for (const wrong of [`${code(T0)}0`, code(T0).slice(1), ` ${code(T0)}`, `${code(T0)}\n`, 'abcdef', '']) {
      expect(totpStep(SECRET, wrong, T0), JSON.stringify(wrong)).toBeNull();
    }
  });

  it('is taken once: the same or an earlier step is refused, a later one taken; the step is kept', async () => {
    const user = await newUser();
    await withTotp(user);
    const stepOf = async () => Number((await db.selectFrom('second_factors').select('last_step').where('user_id', '=', user).executeTakeFirstOrThrow()).last_step);
    expect(await spendCode(db, KEY, user, code(T0), T0)).toBe('totp');
    expect(await stepOf()).toBe(STEP);
    expect(await spendCode(db, KEY, user, code(T0), T0)).toBeNull();
    expect(await spendCode(db, KEY, user, code(T0 - 30_000), T0)).toBeNull();
    expect(await spendCode(db, KEY, user, ` ${code(T0 + 30_000).slice(0, 3)} ${code(T0 + 30_000).slice(3)} `, T0 + 30_000)).toBe('totp');
    expect(await stepOf()).toBe(STEP + 1);
  });

  it('two requests racing with one code: the one that records its step wins', async () => {
    const user = await newUser();
    await withTotp(user);
    const factor = { id: Number((await db.selectFrom('second_factors').select('id').where('user_id', '=', user).executeTakeFirstOrThrow()).id), secret: SECRET, lastStep: -1 };
    expect(await takeTotp(db, factor, code(T0), T0)).toBe(true);
    // The second read the factor before the first recorded its step.
    expect(await takeTotp(db, factor, code(T0), T0)).toBe(false);
    expect(await takeTotp(db, { ...factor, lastStep: STEP }, code(T0 + 30_000), T0 + 30_000)).toBe(true);
    expect(await takeTotp(db, factor, 'nope', T0)).toBe(false);
    // A code of no step is refused by a factor that never took one too.
    const fresh = await newUser();
    await withTotp(fresh);
    const unused = { id: Number((await db.selectFrom('second_factors').select('id').where('user_id', '=', fresh).executeTakeFirstOrThrow()).id), secret: SECRET, lastStep: -1 };
    expect(await takeTotp(db, unused, code(T0 - 90_000), T0)).toBe(false);
    expect(await takeTotp(db, unused, 'nope', T0)).toBe(false);
    expect((await db.selectFrom('second_factors').select('last_step').where('id', '=', unused.id).executeTakeFirstOrThrow()).last_step).toBeNull();
  });

  it('an unconfirmed secret signs nobody in; it is the pending one of a setup', async () => {
    const user = await newUser();
    await withTotp(user, false);
    expect(await spendCode(db, KEY, user, code(T0), T0)).toBeNull();
    expect(await pendingTotp(db, KEY, user)).toMatchObject({ secret: SECRET, lastStep: -1 });
    const confirmed = await newUser();
    await withTotp(confirmed, true, STEP);
    expect(await pendingTotp(db, KEY, confirmed)).toBeNull();
    // A secret sealed under another key opens for nobody.
    expect(await spendCode(db, 'another key of thirty-two characters', confirmed, code(T0 + 30_000), T0 + 30_000)).toBeNull();
    expect(await spendCode(db, KEY, confirmed, code(T0 + 30_000), T0 + 30_000)).toBe('totp');
  });
});

describe('recovery codes', () => {
  it('ten codes of 24 letters in four groups, stored as hashes, replacing any before', async () => {
    const user = await newUser();
    const first = await replaceRecoveryCodes(db, user);
    expect(first).toHaveLength(RECOVERY_CODE_COUNT);
    expect(RECOVERY_CODE_COUNT).toBe(10);
    for (const c of first) expect(c).toMatch(/^[a-km-np-z2-9]{6}-[a-km-np-z2-9]{6}-[a-km-np-z2-9]{6}-[a-km-np-z2-9]{6}$/);
    expect(new Set(first).size).toBe(10);
    const stored = await db.selectFrom('recovery_codes').select(['code_hash', 'used_at']).where('user_id', '=', user).execute();
    expect(stored.map((r) => r.code_hash).sort()).toEqual(first.map((c) => sha256(`recovery:${c.replace(/-/g, '')}`)).sort());
    expect(stored.every((r) => r.used_at === null)).toBe(true);
    const second = await replaceRecoveryCodes(db, user);
    expect(await spendCode(db, KEY, user, first[0], T0)).toBeNull();
    expect((await db.selectFrom('recovery_codes').select('id').where('user_id', '=', user).execute())).toHaveLength(10);
    expect(await spendCode(db, KEY, user, second[0], T0)).toBe('recovery');
  });

  it('each is used once, typed in any case, with or without dashes and spaces; never another user’s', async () => {
    const user = await newUser();
    const other = await newUser();
    const codes = await replaceRecoveryCodes(db, user);
    expect(await spendCode(db, KEY, other, codes[0], T0)).toBeNull();
    expect(await spendCode(db, KEY, user, ` ${codes[0].toUpperCase().replace(/-/g, ' ')} `, T0)).toBe('recovery');
    expect(await spendCode(db, KEY, user, codes[0], T0)).toBeNull();
    expect(await spendCode(db, KEY, user, codes[1].replace(/-/g, ''), T0)).toBe('recovery');
    expect((await factorState(db, user)).recoveryLeft).toBe(8);
    const used = await db.selectFrom('recovery_codes').select('used_at').where('user_id', '=', user).where('used_at', 'is not', null).execute();
    expect(used).toHaveLength(2);
  });

  it('a recovery code that begins or ends with six digits is a recovery code, not an authenticator code', async () => {
    const user = await newUser();
    await withTotp(user);
    const ends = 'abcdefghjkmnpqrs23456789';
    const begins = '234567abcdefghjkmnpqrstu';
    await db.insertInto('recovery_codes').values([ends, begins].map((c) => ({ user_id: user, code_hash: sha256(`recovery:${c}`), used_at: null, created_at: '2026-01-01' }))).execute();
    expect(await spendCode(db, KEY, user, ends, T0)).toBe('recovery');
    expect(await spendCode(db, KEY, user, begins, T0)).toBe('recovery');
  });

  it('looks like one: 24 letters and digits once dashes, spaces and case are set aside', () => {
    expect(looksLikeRecoveryCode('abcdef-ghjkmn-pqrstu-vwxyz2')).toBe(true);
    expect(looksLikeRecoveryCode('ABCDEF GHJKMN PQRSTU VWXYZ2')).toBe(true);
    expect(looksLikeRecoveryCode('abcdef-ghjkmn-pqrstu-vwxyz')).toBe(false);
    expect(looksLikeRecoveryCode('abcdef-ghjkmn-pqrstu-vwxyz23')).toBe(false);
    expect(looksLikeRecoveryCode('abcdef-ghjkmn-pqrstu-vwxyz!')).toBe(false);
  });

  it('a code that is neither six digits nor a recovery code is refused without a query', async () => {
    const user = await newUser();
    await withTotp(user);
    for (const wrong of ['12345', '1234567', 'not a code', '']) expect(await spendCode(db, KEY, user, wrong, T0), wrong).toBeNull();
  });
});

describe('which factors a user has', () => {
  it('counts a confirmed authenticator, passkeys and unused recovery codes; recovery only beside another factor', async () => {
    const user = await newUser();
    expect(await factorState(db, user)).toEqual({ totp: false, passkeys: 0, recoveryLeft: 0 });
    await withTotp(user, false);
    expect((await factorState(db, user)).totp).toBe(false);
    await db.updateTable('second_factors').set({ confirmed_at: '2026-01-01T00:00:00.000Z' }).where('user_id', '=', user).execute();
    await db.insertInto('passkeys').values([{ user_id: user, credential_id: `c${user}a`, public_key: 'k', counter: 0 }, { user_id: user, credential_id: `c${user}b`, public_key: 'k', counter: 0 }]).execute();
    await replaceRecoveryCodes(db, user);
    expect(await factorState(db, user)).toEqual({ totp: true, passkeys: 2, recoveryLeft: 10 });
    expect(await syncFactors(db, user)).toEqual(['totp', 'passkey', 'recovery']);
    const row = await db.selectFrom('users').selectAll().where('id', '=', user).executeTakeFirstOrThrow();
    expect(row.second_factor).toBe('totp,passkey,recovery');
    expect(factorsOfUser(row)).toEqual(['totp', 'passkey', 'recovery']);

    await db.insertInto('sessions').values({ token_hash: sha256(`s${user}`), user_id: user, expires_at: '2999-01-01', created_at: '2026-01-01', second_factor_at: T0 }).execute();
    await removeFactors(db, user);
    expect(await factorState(db, user)).toEqual({ totp: false, passkeys: 0, recoveryLeft: 0 });
    const after = await db.selectFrom('users').select('second_factor').where('id', '=', user).executeTakeFirstOrThrow();
    expect(after.second_factor).toBeNull();
    const session = await db.selectFrom('sessions').select('second_factor_at').where('user_id', '=', user).executeTakeFirstOrThrow();
    expect(session.second_factor_at).toBeNull();
  });

  it('kinds: each factor alone, and recovery codes never alone', () => {
    expect(kindsOf({ totp: false, passkeys: 0, recoveryLeft: 5 })).toEqual([]);
    expect(kindsOf({ totp: true, passkeys: 0, recoveryLeft: 0 })).toEqual(['totp', 'recovery']);
    expect(kindsOf({ totp: false, passkeys: 1, recoveryLeft: 0 })).toEqual(['passkey', 'recovery']);
    expect(kindsOf({ totp: true, passkeys: 3, recoveryLeft: 0 })).toEqual(['totp', 'passkey', 'recovery']);
  });

  it("a user row's factors: its list, or none", () => {
    expect(factorsOfUser({ second_factor: 'totp,recovery' })).toEqual(['totp', 'recovery']);
    expect(factorsOfUser({ second_factor: 'passkey' })).toEqual(['passkey']);
    expect(factorsOfUser({ second_factor: '' })).toEqual([]);
    expect(factorsOfUser({ second_factor: null })).toEqual([]);
    expect(factorsOfUser({ second_factor: ['totp'] })).toEqual([]);
    expect(factorsOfUser({})).toEqual([]);
  });
});

describe('step-up', () => {
  const withFactor = (lastAt: number | null | undefined, factors = 'totp,recovery'): Caller =>
    callerOf({ id: 5, abilities: '[1,2,3]', granted_accesses: '[]', second_factor: factors }, lastAt === undefined ? undefined : { id: 9, second_factor_at: lastAt });
  const outcome = (caller: Caller | null, at: number) => refusalOf(() => requireFreshSecondFactor(caller, at));
  const NEEDED = { status: 403, message: STEP_UP_MESSAGE };

  it('passes a caller without a second factor, and nobody signed in (the gate answers those)', async () => {
    expect(await outcome(null, T0)).toBe('passed');
    expect(await outcome(withFactor(null, ''), T0)).toBe('passed');
    expect(await outcome(withFactor(undefined, ''), T0)).toBe('passed');
  });

  it('passes a factor presented in this session within five minutes, both ends included', async () => {
    expect(STEP_UP_MS).toBe(300_000);
    expect(await outcome(withFactor(T0), T0)).toBe('passed');
    expect(await outcome(withFactor(T0), T0 + STEP_UP_MS)).toBe('passed');
    expect(await outcome(withFactor(T0), T0 + STEP_UP_MS + 1)).toEqual(NEEDED);
    // A time after now (a clock moved back) is not fresh.
    expect(await outcome(withFactor(T0 + 1), T0)).toEqual(NEEDED);
    expect(await outcome(withFactor(null), T0)).toEqual(NEEDED);
    expect(await outcome(withFactor(undefined), T0)).toEqual(NEEDED);
    expect(await outcome(withFactor(0), 0)).toBe('passed');
    // No factor presented in this session is never fresh, even in the first five minutes of the clock.
    expect(await outcome(withFactor(null), 1000)).toEqual(NEEDED);
  });

  it('asks with 403 and the factors the caller can present, marked as a step-up', async () => {
    try {
      await requireFreshSecondFactor(withFactor(null, 'passkey,recovery'), T0);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(SecondFactorNeeded);
      expect((error as ApiError).statusCode).toBe(403);
      expect((error as ApiError).detail).toEqual({ second_factor: ['passkey', 'recovery'], step_up: true });
    }
    const atSignIn = new SecondFactorNeeded('Enter the code', ['totp']);
    expect([atSignIn.statusCode, atSignIn.detail]).toEqual([401, { second_factor: ['totp'] }]);
  });

  it("marks the caller's own session fresh, and nothing without a session", async () => {
    const user = await newUser();
    const made = await db.insertInto('sessions').values({ token_hash: sha256(`fresh${user}`), user_id: user, expires_at: '2999-01-01', created_at: '2026-01-01' }).returning('id').executeTakeFirstOrThrow();
    const other = await db.insertInto('sessions').values({ token_hash: sha256(`other${user}`), user_id: user, expires_at: '2999-01-01', created_at: '2026-01-01' }).returning('id').executeTakeFirstOrThrow();
    await markFresh(db, callerOf({ id: user, abilities: '[1]' }, { id: Number(made.id) }), T0);
    await markFresh(db, callerOf({ id: user, abilities: '[1]' }), T0 + 1);
    const rows = await db.selectFrom('sessions').select(['id', 'second_factor_at']).where('user_id', '=', user).orderBy('id').execute();
    expect(rows.map((r) => [Number(r.id), r.second_factor_at === null ? null : Number(r.second_factor_at)])).toEqual([[Number(made.id), T0], [Number(other.id), null]]);
  });
});

describe('setting up a factor', () => {
  const iso = (at: number) => new Date(at).toISOString();
  const session = (openedAt: number | null, factors = '', lastAt: number | null = null): Caller =>
    callerOf({ id: 5, abilities: '[1,2]', granted_accesses: '[]', second_factor: factors }, { id: 9, created_at: openedAt === null ? null : iso(openedAt), second_factor_at: lastAt });
  const outcome = (caller: Caller | null, at: number) => refusalOf(() => requireRecentAuthentication(caller, at));
  const AGAIN = { status: 403, message: SIGN_IN_AGAIN };

  it('takes a first factor within 15 minutes of signing in, both ends included, and not from a session of the future', async () => {
    expect(RECENT_SIGN_IN_MS).toBe(900_000);
    expect(await outcome(null, T0)).toBe('passed');
    expect(await outcome(session(T0), T0)).toBe('passed');
    expect(await outcome(session(T0), T0 + RECENT_SIGN_IN_MS)).toBe('passed');
    expect(await outcome(session(T0), T0 + RECENT_SIGN_IN_MS + 1)).toEqual(AGAIN);
    expect(await outcome(session(T0 + 1), T0)).toEqual(AGAIN);
    expect(await outcome(session(null), T0)).toEqual(AGAIN);
    expect(await outcome(callerOf({ id: 5, abilities: '[1,2]', second_factor: '' }), T0)).toEqual(AGAIN);
  });

  it('asks a user who has a factor for it, fresh, however recent the sign-in', async () => {
    expect(await outcome(session(T0, 'totp,recovery'), T0)).toEqual({ status: 403, message: STEP_UP_MESSAGE });
    expect(await outcome(session(T0 - RECENT_SIGN_IN_MS * 10, 'totp,recovery', T0), T0 + 1)).toBe('passed');
  });
});

describe('ADMIN_SECOND_FACTOR', () => {
  const required = { adminSecondFactor: 'required' } as Parameters<typeof mustEnrol>[0];
  const optional = { adminSecondFactor: 'optional' } as Parameters<typeof mustEnrol>[0];
  const admin = (factors: string | null) => callerOf({ id: 1, abilities: '[1,2,3]', granted_accesses: '[]', second_factor: factors });
  const seller = callerOf({ id: 2, abilities: '[1,2]', second_factor: null });

  it('only an admin without a factor must enrol, and only when required', () => {
    expect(mustEnrol(required, admin(null))).toBe(true);
    expect(mustEnrol(required, admin('totp,recovery'))).toBe(false);
    expect(mustEnrol(required, seller)).toBe(false);
    expect(mustEnrol(required, null)).toBe(false);
    expect(mustEnrol(optional, admin(null))).toBe(false);
  });

  it('such an admin may set one up or sign out, and nothing else', () => {
    expect(refusal(() => enrolmentGate(required, admin(null), '/api/user/second-factor'))).toBe('passed');
    expect(refusal(() => enrolmentGate(required, admin(null), '/api/user/logout'))).toBe('passed');
    for (const url of ['/api/shops', '/api/user/second-factor/x', '/api/user/logout?x']) {
      expect(refusal(() => enrolmentGate(required, admin(null), url))).toEqual({ status: 403, message: ENROL_FIRST, detail: { enrol_second_factor: true } });
    }
    expect(refusal(() => enrolmentGate(optional, admin(null), '/api/shops'))).toBe('passed');
    expect(refusal(() => enrolmentGate(required, admin('passkey,recovery'), '/api/shops'))).toBe('passed');
  });
});
