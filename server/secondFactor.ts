/**
 * Second factors (issue 26, ASVS 5.0 level 2, V6.5): authenticator codes (TOTP, RFC 6238) with
 * single-use recovery codes, and passkeys (server/passkeys.ts). What lives here:
 * - the TOTP secret, sealed with AES-256-GCM under a key from the environment (MFA_KEY), never
 *   logged nor answered after setup;
 * - codes accepted once (a code's time step is remembered, so the same or an earlier step is
 *   refused), with ±1 step of clock drift;
 * - recovery codes (120 random bits each) stored as SHA-256 hashes, each used once;
 * - which factors a user has, copied to `users.second_factor` for the Users screen and the policy;
 * - step-up: `requireFreshSecondFactor`, the one check a sensitive call makes.
 */
import crypto from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import type { Caller } from './auth';
import { sha256 } from './auth';
import { now, type DB, type Row } from './db';
import { ApiError, forbidden } from './errors';

/** The kinds of second factor a user may present, as the sign-in answer lists them. */
export type FactorKind = 'totp' | 'passkey' | 'recovery';

/** A step-up is good for 5 minutes after the factor was presented. */
export const STEP_UP_MS = 5 * 60_000;
/** How recent a sign-in must be to set up a first second factor (ASVS 7.5.1). */
export const RECENT_SIGN_IN_MS = 15 * 60_000;
export const RECOVERY_CODE_COUNT = 10;
const PERIOD = 30;
const ISSUER = 'Marketplace';

/**
 * The answer of a call that needs a second factor, with the factors the user can present in
 * `detail`: 401 at sign-in (no session yet); 403 for a step-up (the session stays good, and a client
 * that ends sessions on 401 must not sign the user out).
 */
export class SecondFactorNeeded extends ApiError {
  constructor(message: string, factors: FactorKind[], extra: Row = {}, status = 401) {
    super(status, message, {}, { second_factor: factors, ...extra });
  }
}

// --- the sealed secret ----------------------------------------------------------------------

/** A 256-bit key from MFA_KEY's text (any length; operators give at least 32 random characters). */
const keyOf = (text: string) => crypto.createHash('sha256').update(`mfa-key:${text}`).digest();

/** 'v1.' + base64url(iv 12 bytes | tag 16 bytes | ciphertext). */
export function sealSecret(keyText: string, plain: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', keyOf(keyText), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
}

/** The secret back, or null when it was sealed under another key or tampered with. */
export function openSecret(keyText: string, sealed: string): string | null {
  const raw = Buffer.from(sealed.replace(/^v1\./, ''), 'base64url');
  if (!sealed.startsWith('v1.') || raw.length < 29) return null;
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', keyOf(keyText), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

// --- TOTP -----------------------------------------------------------------------------------

const totpOf = (secret: string, label = '') => new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: 6, period: PERIOD, secret: Secret.fromBase32(secret) });

/** A new random 160-bit secret (base32) and its otpauth:// address for an authenticator app. */
export function newTotp(accountName: string): { secret: string; uri: string } {
  const secret = new Secret({ size: 20 }).base32;
  return { secret, uri: totpOf(secret, accountName).toString() };
}

/** The current code of a secret at a time (tests and the console's own checks). */
export const totpCode = (secret: string, at: number) => totpOf(secret).generate({ timestamp: at });

/** The time step a code belongs to (the current one, or one either side), or null when it matches none. */
export function totpStep(secret: string, code: string, at: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpOf(secret).validate({ token: code, timestamp: at, window: 1 });
  return delta === null ? null : Math.floor(at / 1000 / PERIOD) + delta;
}

// --- recovery codes -------------------------------------------------------------------------

const ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
/** 24 characters of a 32-letter alphabet (120 bits), shown in four groups: 'k3m9qa-…'. */
function recoveryCode(): string {
  const bytes = crypto.randomBytes(24);
  const letters = [...bytes].map((b) => ALPHABET[b & 31]).join('');
  return letters.match(/.{6}/g)!.join('-');
}
/** A code as typed: spaces, dashes and case do not matter. */
const normalise = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');
const recoveryHash = (code: string) => sha256(`recovery:${normalise(code)}`);
export const looksLikeRecoveryCode = (code: string) => /^[a-z0-9]{24}$/.test(normalise(code));

/** Ten new codes replace any a user had; the answer is the only time they are seen. */
export async function replaceRecoveryCodes(db: DB, userId: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, recoveryCode);
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  await db
    .insertInto('recovery_codes')
    .values(codes.map((code) => ({ user_id: userId, code_hash: recoveryHash(code), used_at: null, created_at: now() })))
    .execute();
  return codes;
}

// --- which factors a user has ---------------------------------------------------------------

export interface FactorState {
  totp: boolean;
  passkeys: number;
  recoveryLeft: number;
}

export async function factorState(db: DB, userId: number): Promise<FactorState> {
  const totp = await db.selectFrom('second_factors').select('id').where('user_id', '=', userId).where('confirmed_at', 'is not', null).executeTakeFirst();
  const passkeys = await db.selectFrom('passkeys').select((eb) => eb.fn.countAll().as('n')).where('user_id', '=', userId).executeTakeFirst();
  const left = await db
    .selectFrom('recovery_codes').select((eb) => eb.fn.countAll().as('n'))
    .where('user_id', '=', userId).where('used_at', 'is', null)
    .executeTakeFirst();
  return { totp: !!totp, passkeys: Number(passkeys?.n ?? 0), recoveryLeft: Number(left?.n ?? 0) };
}

/** What a user with this state can present at sign-in or step-up (empty: no second factor). */
export function kindsOf(state: FactorState): FactorKind[] {
  const kinds: FactorKind[] = [];
  if (state.totp) kinds.push('totp');
  if (state.passkeys) kinds.push('passkey');
  if (kinds.length) kinds.push('recovery');
  return kinds;
}

/** The factors a user row says it has (`users.second_factor`, kept by syncFactors). */
export const factorsOfUser = (user: Row): FactorKind[] =>
  typeof user.second_factor === 'string' && user.second_factor ? (user.second_factor.split(',') as FactorKind[]) : [];

/** Copies the user's factors to users.second_factor (what the Users screen shows); answers them. */
export async function syncFactors(db: DB, userId: number): Promise<FactorKind[]> {
  const kinds = kindsOf(await factorState(db, userId));
  await db.updateTable('users').set({ second_factor: kinds.length ? kinds.join(',') : null }).where('id', '=', userId).execute();
  return kinds;
}

/** Everything of a user's second factors goes (an admin's reset, an erased account). */
export async function removeFactors(db: DB, userId: number): Promise<void> {
  await db.deleteFrom('second_factors').where('user_id', '=', userId).execute();
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  await db.deleteFrom('passkeys').where('user_id', '=', userId).execute();
  await db.updateTable('sessions').set({ second_factor_at: null }).where('user_id', '=', userId).execute();
  await syncFactors(db, userId);
}

/** The confirmed TOTP secret of a user, opened; null when there is none (or the key changed). */
async function totpSecretOf(db: DB, keyText: string, userId: number, confirmed = true): Promise<{ id: number; secret: string; lastStep: number } | null> {
  let q = db.selectFrom('second_factors').selectAll().where('user_id', '=', userId).where('kind', '=', 'totp');
  q = confirmed ? q.where('confirmed_at', 'is not', null) : q.where('confirmed_at', 'is', null);
  const row = await q.executeTakeFirst();
  const secret = row && openSecret(keyText, String(row.secret));
  return row && secret ? { id: Number(row.id), secret, lastStep: Number(row.last_step ?? -1) } : null;
}

/**
 * Accepts a TOTP code once: the step it belongs to must be later than the last one accepted, and is
 * recorded in the same statement (two requests racing with one code: only one wins).
 */
async function takeTotp(db: DB, factor: { id: number; secret: string; lastStep: number }, code: string, at: number): Promise<boolean> {
  const step = totpStep(factor.secret, code, at);
  if (step === null || step <= factor.lastStep) return false;
  const taken = await db
    .updateTable('second_factors')
    .set({ last_step: step })
    .where('id', '=', factor.id)
    .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) === 1;
}

/** The pending (unconfirmed) secret of a user's setup, for totp-confirm. */
export const pendingTotp = (db: DB, keyText: string, userId: number) => totpSecretOf(db, keyText, userId, false);
export { takeTotp };

/**
 * Checks a code a user typed: a current authenticator code, or an unused recovery code (which is
 * then used up). Answers which it was, or null when it is neither.
 */
export async function spendCode(db: DB, keyText: string, userId: number, code: string, at: number): Promise<'totp' | 'recovery' | null> {
  const typed = code.replace(/\s/g, '');
  if (/^\d{6}$/.test(typed)) {
    const factor = await totpSecretOf(db, keyText, userId);
    return factor && (await takeTotp(db, factor, typed, at)) ? 'totp' : null;
  }
  if (!looksLikeRecoveryCode(typed)) return null;
  const used = await db
    .updateTable('recovery_codes')
    .set({ used_at: now() })
    .where('user_id', '=', userId).where('code_hash', '=', recoveryHash(typed)).where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(used.numUpdatedRows) === 1 ? 'recovery' : null;
}

// --- step-up --------------------------------------------------------------------------------

/** Marks the caller's session as having presented a second factor at this time (ms). */
export async function markFresh(db: DB, caller: Caller, at: number): Promise<void> {
  if (caller.sessionId) await db.updateTable('sessions').set({ second_factor_at: at }).where('id', '=', caller.sessionId).execute();
}

export const STEP_UP_MESSAGE = 'Confirm with your second factor to continue';

/**
 * Step-up (ASVS 7.5.1/7.5.3): the one check a sensitive call makes before it changes anything.
 * A caller who has a second factor must have presented it in this session within the last
 * 5 minutes (`POST /user/second-factor {action: 'verify', code}` or a passkey, or the sign-in
 * itself); otherwise it throws 403 with `detail: {second_factor: [...], step_up: true}`, which the
 * console answers by asking for a code and trying again. A caller without a second factor passes
 * (the ADMIN_SECOND_FACTOR policy is what makes admins have one).
 *
 * Wire it into a new endpoint by calling, after the endpoint's gate and before any write:
 *   await requireFreshSecondFactor(caller, clock());
 * with the request's caller (`request.caller`, or a hook's `ctx.caller`) and the server's clock.
 * Callers are answered from their session row, so it costs no query.
 */
export async function requireFreshSecondFactor(caller: Caller | null, at: number): Promise<void> {
  if (!caller) return;
  const kinds = factorsOfUser(caller.user);
  if (!kinds.length) return;
  const last = caller.session?.second_factor_at;
  if (last !== null && last !== undefined && at - Number(last) <= STEP_UP_MS && at >= Number(last)) return;
  throw new SecondFactorNeeded(STEP_UP_MESSAGE, kinds, { step_up: true }, 403);
}

export const SIGN_IN_AGAIN = 'Sign in again to set up a second factor: it is set up within 15 minutes of signing in';

/**
 * Setting up a factor changes how one signs in (ASVS 7.5.1): a user who has one presents it fresh
 * (requireFreshSecondFactor); a user who has none must have signed in (password, or passkey) within
 * RECENT_SIGN_IN_MS in this session, so a session left open or taken cannot add a factor of its own.
 */
export async function requireRecentAuthentication(caller: Caller | null, at: number): Promise<void> {
  if (!caller) return;
  if (factorsOfUser(caller.user).length) return requireFreshSecondFactor(caller, at);
  const opened = Date.parse(String(caller.session?.created_at ?? ''));
  if (opened <= at && at - opened <= RECENT_SIGN_IN_MS) return;
  throw forbidden(SIGN_IN_AGAIN);
}
