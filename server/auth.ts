/**
 * Passwords (scrypt), opaque bearer tokens (stored hashed, with expiry) and the caller of a request.
 */
import crypto from 'node:crypto';
import { hasAccess, parseAccesses, roleOf, type Role } from '../contract';
import type { DB, Row } from './db';
import { GenerationCache, now } from './db';
import { unauthorized } from './errors';

/** Node's scrypt, looked up on each call (so a test can count the runs with a spy). */
const scrypt = (pw: string, salt: Buffer, len: number) =>
  new Promise<Buffer>((resolve, reject) => crypto.scrypt(pw, salt, len, (error, key) => (error ? reject(error) : resolve(key))));
const KEY_LENGTH = 64;
/**
 * A session lasts at most 7 days from sign-in, and ends sooner when unused for SESSION_IDLE_MINUTES
 * (30 by default; ASVS 7.3.1). Its `expires_at` is the nearer of the two: each call that finds it
 * moves it on, written at most once a minute (a write ends every answer kept, server/db.ts). A reset
 * token lasts 1 hour.
 */
export const SESSION_TTL_MS = 7 * 24 * 3600 * 1000;
export const SESSION_IDLE_MINUTES = 30;
/** How stale a session's written deadline may grow before a call writes it again. */
export const SESSION_TOUCH_MS = 60_000;
export const RESET_TTL_MS = 3600 * 1000;

/** When sessions are checked and how long one may stay unused (the server's clock, SESSION_IDLE_MINUTES). */
export interface SessionTime {
  at: number;
  idleMinutes?: number;
}
/** The session time of a request now, by the server's clock and setting. */
export const sessionTime = (ctx: { clock?: () => number; config: { sessionIdleMinutes?: number } }): SessionTime => ({
  at: (ctx.clock ?? Date.now)(), idleMinutes: ctx.config.sessionIdleMinutes,
});
const idleMs = (time: SessionTime) => (time.idleMinutes ?? SESSION_IDLE_MINUTES) * 60_000;
/** A session's deadline when used at `time.at`: the idle time on, never past 7 days from its opening. */
const deadline = (openedAt: number, time: SessionTime) => new Date(Math.min(time.at + idleMs(time), openedAt + SESSION_TTL_MS)).toISOString();

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const key = await scrypt(password, salt, KEY_LENGTH);
  return `scrypt$${salt.toString('base64')}$${key.toString('base64')}`;
}

let dummy: Promise<string> | undefined;
/** A hash of no one's password: unknown credentials are checked against it, so they take as long. */
export const dummyHash = () => (dummy ??= hashPassword(crypto.randomBytes(16).toString('hex')));

export async function verifyPassword(password: string, stored: unknown): Promise<boolean> {
  if (typeof stored !== 'string') return false;
  const [scheme, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await scrypt(password, Buffer.from(salt, 'base64'), expected.length);
  return crypto.timingSafeEqual(key, expected);
}

export const randomToken = () => crypto.randomBytes(32).toString('base64url');
/** Node's one-shot hash: a third of the time of a Hash object per call (every request hashes its session token). */
export const sha256 = (text: string) => crypto.hash('sha256', text, 'hex');
const later = (ms: number) => new Date(Date.now() + ms).toISOString();

/** A new session; `secondFactorAt`: when a second factor was presented to open it (ms), for step-up. */
export async function openSession(db: DB, userId: number, time: SessionTime, secondFactorAt?: number): Promise<string> {
  const token = randomToken();
  await db
    .insertInto('sessions')
    .values({
      token_hash: sha256(token), user_id: userId, expires_at: deadline(time.at, time), created_at: new Date(time.at).toISOString(),
      second_factor_at: secondFactorAt ?? null,
    })
    .execute();
  return token;
}

/** Ends every session of a user, but the one of this token when given. */
export async function closeSessions(db: DB, userId: number, except?: string | null): Promise<void> {
  let q = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (except) q = q.where('token_hash', '!=', sha256(except));
  await q.execute();
}

/** The bearer token of an Authorization header, or null. */
export function sessionTokenOf(authorization: string | undefined): string | null {
  const match = authorization ? /^Bearer\s+(\S+)$/i.exec(authorization) : null;
  return match ? match[1] : null;
}

/** A new reset link's token (single use, one hour), its hash and expiry. */
export async function createResetToken(db: DB, userId: number): Promise<{ token: string; hash: string; expiresAt: string }> {
  const token = randomToken();
  const reset = { token_hash: sha256(token), user_id: userId, expires_at: later(RESET_TTL_MS), used_at: null, created_at: now() };
  await db.insertInto('password_resets').values(reset).execute();
  return { token, hash: reset.token_hash, expiresAt: reset.expires_at };
}

/**
 * The outbox keeps a reset link only while it can be used: the mails holding a user's links are
 * deleted when those links are used or ended (a new password, a changed email, an erased account).
 */
export async function forgetResetLinks(db: DB, userId: number): Promise<void> {
  await db
    .deleteFrom('mail_outbox')
    .where('link_hash', 'in', db.selectFrom('password_resets').select('token_hash').where('user_id', '=', userId))
    .execute();
}

/** Who is calling: the signed-in user with their role and granted accesses. */
export interface Caller {
  id: number;
  user: Row;
  role: Role;
  /** Whether the caller may use the admin screen named by this access token. */
  can(token: string): boolean;
  /** The session the request came with (its id, and when a second factor was last presented in it). */
  sessionId?: number;
  session?: Row;
}

export function callerOf(user: Row, session?: Row): Caller {
  const role = roleOf(user.abilities);
  const granted = parseAccesses(user.granted_accesses);
  return {
    id: Number(user.id), user, role, can: (token) => role === 'admin' && hasAccess(granted, token),
    ...(session ? { sessionId: Number(session.id), session } : {}),
  };
}

/**
 * The caller behind an Authorization header: null when there is none; 401 when the token is
 * unknown, expired or unused for the idle time, or its user is blacklisted. A session found good
 * has its deadline moved on when the written one is more than a minute old.
 */
export async function resolveCaller(db: DB, authorization: string | undefined, time: SessionTime = { at: Date.now() }): Promise<Caller | null> {
  if (!authorization) return null;
  const token = sessionTokenOf(authorization);
  if (!token) throw unauthorized('The session token is malformed; please sign in again');
  const hash = sha256(token);
  const kept = await sessions.get(db, hash, async () => {
    // A row with a parent is a chat-events ticket (chat.ts), never a session, whatever bearer text finds it.
    const session = await db.selectFrom('sessions').selectAll().where('token_hash', '=', hash).where('parent_id', 'is', null).executeTakeFirst();
    const user = session && (await db.selectFrom('users').selectAll().where('id', '=', Number(session.user_id)).executeTakeFirst());
    return { session, user };
  });
  const { session, user } = kept;
  const ends = session ? Date.parse(String(session.expires_at)) : NaN;
  // A deadline further than the idle time says nothing of the last use (a session from before the
  // timeout, or SESSION_IDLE_MINUTES lowered): it is refused, as an idle one (a minute's leeway for
  // API processes' clocks).
  if (!session || !(ends >= time.at) || ends > time.at + idleMs(time) + SESSION_TOUCH_MS) {
    throw unauthorized('Your session has expired; please sign in again');
  }
  if (!user || !Number(user.is_active)) throw unauthorized('This account is not active');
  const next = deadline(Date.parse(String(session.created_at)), time);
  if (Date.parse(next) - ends >= SESSION_TOUCH_MS) {
    await db.updateTable('sessions').set({ expires_at: next }).where('id', '=', Number(session.id)).execute();
  }
  return (kept.caller ??= callerOf(user, session));
}

/** A session, its user and who they are as a caller, kept until anything is written to the database. */
const sessions = new GenerationCache<{ session?: Row; user?: Row; caller?: Caller }>(1000);
