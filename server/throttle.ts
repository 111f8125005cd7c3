/**
 * Attempt counters kept in the database (so several API processes on one PostgreSQL share them):
 * fixed windows per key, counted atomically by one upsert. Sign-in, reset and registration count
 * per account and per address; anonymous writes per address; a signed-in user's new records per user.
 * An account's failed sign-ins count under its user id (signInKey), however it was named; a credential
 * that names no account under its own key.
 */
import { sql } from 'kysely';
import type { Rule } from '../contract';
import type { DB } from './db';
import { ApiError } from './errors';
import { sha256 } from './auth';

export interface Limit {
  /** Attempts allowed in one window. */
  max: number;
  windowMs: number;
}

export interface Limits {
  /** Failed sign-ins (and wrong current passwords) per account. */
  loginAccount: Limit;
  /** Failed sign-ins per client address. */
  loginAddress: Limit;
  /** Reset mails asked for per account, and reset attempts per address. */
  resetAccount: Limit;
  resetAddress: Limit;
  /** Registrations tried per address. */
  register: Limit;
  /** Writes without a session (a visitor opening a chat) per address. */
  anonymousWrite: Limit;
  /** A visitor's messages to their own chat, per address. */
  anonymousReply: Limit;
  /** Uploads (images and documents) per user, refused ones included. */
  upload: Limit;
  /**
   * New records a signed-in user who is not an admin makes, per user, where any signed-in user (or
   * anyone) may create (create rule 'user' or 'public': what lands in the admins' queues).
   */
  userCreate: Limit;
  /** New records a seller makes of their own (create rule 'owner': their shops, their catalogue), per user. */
  ownerCreate: Limit;
}

const MINUTE = 60_000;
export const DEFAULT_LIMITS: Limits = {
  loginAccount: { max: 5, windowMs: MINUTE },
  loginAddress: { max: 20, windowMs: MINUTE },
  resetAccount: { max: 3, windowMs: MINUTE },
  resetAddress: { max: 10, windowMs: MINUTE },
  register: { max: 10, windowMs: MINUTE },
  anonymousWrite: { max: 10, windowMs: MINUTE },
  anonymousReply: { max: 60, windowMs: MINUTE },
  upload: { max: 30, windowMs: MINUTE },
  userCreate: { max: 30, windowMs: MINUTE },
  ownerCreate: { max: 120, windowMs: MINUTE },
};

/**
 * The limit a signed-in caller's new record of an entity counts against, by the entity's create
 * rule: none where only admins create (admins are never limited) or nobody does.
 */
export function createLimitOf(rule: Rule): 'userCreate' | 'ownerCreate' | undefined {
  if (rule === 'owner') return 'ownerCreate';
  if (rule === 'user' || rule === 'public') return 'userCreate';
  return undefined;
}

/** The key of a user's new records against one of the create limits. */
export const creatorKey = (limit: 'userCreate' | 'ownerCreate', userId: number) => `${limit === 'ownerCreate' ? 'create-own' : 'create'}:user:${userId}`;

/** Every limit multiplied by a factor (RATE_LIMIT_FACTOR); 0 turns throttling off. */
export function scaledLimits(factor: number, base: Limits = DEFAULT_LIMITS): Limits {
  const out = { ...base };
  for (const key of Object.keys(out) as (keyof Limits)[]) {
    out[key] = { ...out[key], max: factor === 0 ? Number.MAX_SAFE_INTEGER : Math.max(1, Math.round(out[key].max * factor)) };
  }
  return out;
}

/** A key that names an account without storing its email. */
export const accountKey = (kind: string, identity: string) => `${kind}:account:${sha256(identity.trim().toLowerCase()).slice(0, 40)}`;
/**
 * The one counter of an account's failed sign-ins, whatever identifier was typed (email or phone):
 * wrong passwords, wrong current passwords and wrong second-factor codes all count here.
 */
export const signInKey = (userId: number) => `login:user:${userId}`;
export const addressKey = (kind: string, address: string) => `${kind}:address:${address.slice(0, 64)}`;

export class TooManyAttempts extends ApiError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, `Too many attempts; please wait ${retryAfterSeconds} seconds and try again`, { 'Retry-After': String(retryAfterSeconds) });
  }
}

export class Throttle {
  constructor(
    private readonly db: DB,
    readonly limits: Limits = DEFAULT_LIMITS,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Counts one attempt on each key; 429 (with Retry-After) when any key is over its limit. */
  async take(keys: [string, Limit][]): Promise<void> {
    let wait = 0;
    for (const [key, limit] of keys) {
      if (limit.max >= Number.MAX_SAFE_INTEGER) continue;
      const t = this.clock();
      const expired = t - limit.windowMs;
      const row = await this.db
        .insertInto('rate_limits')
        .values({ key, window_start: t, hits: 1 })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet({
            hits: sql`case when rate_limits.window_start <= ${expired} then 1 else rate_limits.hits + 1 end`,
            window_start: sql`case when rate_limits.window_start <= ${expired} then ${t} else rate_limits.window_start end`,
          }),
        )
        .returning(['hits', 'window_start'])
        .executeTakeFirstOrThrow();
      if (Number(row.hits) > limit.max) {
        wait = Math.max(wait, Math.ceil((Number(row.window_start) + limit.windowMs - t) / 1000));
      }
    }
    if (wait > 0) throw new TooManyAttempts(wait);
  }

  /** Takes back one attempt on each key (a sign-in that succeeded counts as no failure). */
  async undo(keys: [string, Limit][]): Promise<void> {
    for (const [key] of keys) {
      await this.db.updateTable('rate_limits').set({ hits: sql`hits - 1` }).where('key', '=', key).where('hits', '>', 0).execute();
    }
  }

  /** Windows that ended before this moment are forgotten. */
  async purge(olderThanMs = 3600_000): Promise<void> {
    await this.db.deleteFrom('rate_limits').where('window_start', '<', this.clock() - olderThanMs).execute();
  }
}
