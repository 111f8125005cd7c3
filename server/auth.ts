/**
 * Passwords (scrypt), opaque bearer tokens (stored hashed, with expiry) and the caller of a request.
 */
import crypto from 'node:crypto';
import { promisify } from 'node:util';
import { hasAccess, parseAccesses, roleOf, type Role } from '../contract';
import type { DB, Row } from './db';
import { GenerationCache, now } from './db';
import { unauthorized } from './errors';

const scrypt = promisify(crypto.scrypt) as (pw: string, salt: Buffer, len: number) => Promise<Buffer>;
const KEY_LENGTH = 64;
/** A session lasts 7 days; a reset token 1 hour. */
export const SESSION_TTL_MS = 7 * 24 * 3600 * 1000;
export const RESET_TTL_MS = 3600 * 1000;

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
export const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');
const later = (ms: number) => new Date(Date.now() + ms).toISOString();

/** A new session; `secondFactorAt`: when a second factor was presented to open it (ms), for step-up. */
export async function openSession(db: DB, userId: number, secondFactorAt?: number): Promise<string> {
  const token = randomToken();
  await db
    .insertInto('sessions')
    .values({ token_hash: sha256(token), user_id: userId, expires_at: later(SESSION_TTL_MS), created_at: now(), second_factor_at: secondFactorAt ?? null })
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
 * unknown or expired, or its user is blacklisted.
 */
export async function resolveCaller(db: DB, authorization: string | undefined): Promise<Caller | null> {
  if (!authorization) return null;
  const token = sessionTokenOf(authorization);
  if (!token) throw unauthorized('The session token is malformed; please sign in again');
  const hash = sha256(token);
  const { session, user } = await sessions.get(db, hash, async () => {
    const session = await db.selectFrom('sessions').selectAll().where('token_hash', '=', hash).executeTakeFirst();
    const user = session && (await db.selectFrom('users').selectAll().where('id', '=', Number(session.user_id)).executeTakeFirst());
    return { session, user };
  });
  if (!session || String(session.expires_at) < now()) throw unauthorized('Your session has expired; please sign in again');
  if (!user || !Number(user.is_active)) throw unauthorized('This account is not active');
  return callerOf(user, session);
}

/** A session and its user, kept until anything is written to the database. */
const sessions = new GenerationCache<{ session?: Row; user?: Row }>(1000);
