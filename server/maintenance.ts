/**
 * Housekeeping: expired sessions, used or expired reset tokens (and the outbox's mails of expired
 * links, and mails delivered over SENT_MAIL_DAYS ago) and old attempt counters are deleted (indexed deletes, cheap enough to run every few minutes on every process).
 */
import type { EntityContract } from '../contract';
import type { DB } from './db';
import { loadHooks } from './hooks';
import { SENT } from './mail';
import { SweepError } from './sweeps';

/** How long a delivered mail stays in the outbox. */
export const SENT_MAIL_DAYS = 30;

export interface Purged {
  sessions: number;
  resets: number;
  limits: number;
}

export async function purgeExpired(db: DB, at: number = Date.now()): Promise<Purged> {
  const stamp = new Date(at).toISOString();
  const sessions = await db.deleteFrom('sessions').where('expires_at', '<', stamp).executeTakeFirst();
  const resets = await db
    .deleteFrom('password_resets')
    .where((eb) => eb.or([eb('expires_at', '<', stamp), eb('used_at', 'is not', null)]))
    .executeTakeFirst();
  // A reset link's mail goes with the link's expiry (used and ended links took theirs already); a
  // delivered mail is kept SENT_MAIL_DAYS for reference.
  await db.deleteFrom('mail_outbox').where('expires_at', '<', stamp).execute();
  await db.deleteFrom('mail_outbox').where('state', '=', SENT).where('sent_at', '<', new Date(at - SENT_MAIL_DAYS * 86_400_000).toISOString()).execute();
  // Attempt windows last a minute; an hour-old counter is long over.
  const limits = await db.deleteFrom('rate_limits').where('window_start', '<', at - 3600_000).executeTakeFirst();
  return { sessions: Number(sessions.numDeletedRows), resets: Number(resets.numDeletedRows), limits: Number(limits.numDeletedRows) };
}

/** Purges now and then every `everyMs` (see `repeat`). */
export const schedulePurge = (db: DB, everyMs: number, onError: (error: unknown) => void) => repeat(() => purgeExpired(db), everyMs, onError);

/**
 * Runs `work` now and then every `everyMs`, never two runs at once (a run still going when the next
 * is due lets it pass), without keeping the process alive; its errors go to `onError` and the
 * schedule goes on. Returns a stop function: no run starts after it, the run in progress sees
 * `stopping()` true (work done in steps stops between two), and it resolves once that run has ended.
 */
export function repeat(work: (stopping: () => boolean) => Promise<unknown>, everyMs: number, onError: (error: unknown) => void): () => Promise<void> {
  let stopped = false;
  let running: Promise<void> | undefined;
  const run = () => {
    if (running || stopped) return;
    running = work(() => stopped)
      .then(() => undefined, onError)
      .finally(() => {
        running = undefined;
      });
  };
  run();
  const timer = setInterval(run, everyMs);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}

/**
 * Runs every entity's sweep (server/hooks/<entity>.ts `sweep`) at a time; answers how many records
 * changed. Each sweep is on its own: one that fails, or a record of it that fails, is reported (a
 * SweepError naming the entity or the record) and the next goes on. Without `report`, the failures
 * are thrown together once every sweep has run.
 */
export async function sweepEntities(
  db: DB, entities: readonly EntityContract[], at: number = Date.now(), stopping?: () => boolean, report?: (error: unknown) => void,
): Promise<number> {
  const failures: unknown[] = [];
  const tell = report ?? ((error: unknown) => void failures.push(error));
  let changed = 0;
  for (const [entity, hooks] of await loadHooks(entities)) {
    if (!hooks.sweep) continue;
    try {
      changed += await hooks.sweep({ db, at, stopping, report: tell });
    } catch (error) {
      tell(new SweepError(entity, null, error));
    }
  }
  if (failures.length) throw new AggregateError(failures, failures.map((error) => (error instanceof Error ? error.message : String(error))).join('; '));
  return changed;
}

/** Runs the entities' sweeps now and then every `everyMs` (see `repeat`); what fails goes to `onError`. */
export const scheduleSweeps = (db: DB, entities: readonly EntityContract[], everyMs: number, onError: (error: unknown) => void) =>
  repeat((stopping) => sweepEntities(db, entities, Date.now(), stopping, onError), everyMs, onError);
