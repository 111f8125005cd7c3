/**
 * How a sweep (server/hooks/types.ts `sweep`) goes through its due records: each record's work in its
 * own transaction, and a record that fails passed over, so that one record the database refuses holds
 * up none of the others.
 */
import { sql } from 'kysely';
import type { DB } from './db';

/** What a sweep could not do: an entity's whole sweep, or one of its records, named by its id. */
export class SweepError extends Error {
  constructor(
    /** The entity swept, or the kind of record ('order'). */
    readonly what: string,
    /** The record that failed; null when the entity's sweep as a whole failed. */
    readonly recordId: number | null,
    cause: unknown,
  ) {
    super(`Sweeping ${what}${recordId === null ? '' : ` ${recordId}`} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'SweepError';
  }
}

/** A due record: its id, and the time it fell due (records are taken in that order, then by id). */
export interface Due {
  id: number;
  at: string;
}

/** Due records read at a time. */
export const SWEEP_PAGE = 500;

export interface SweepRun {
  db: DB;
  /** Where a record that fails is reported (the scheduler's error log). */
  report: (error: unknown) => void;
  /** True once the process is stopping: the walk stops between two records. */
  stopping?: () => boolean;
}

/**
 * Walks a sweep's due records, a page at a time (`page` answers those after the last one read, in
 * (time, id) order), and does each one's `work` in its own transaction. A record whose work throws
 * has its transaction rolled back, is reported once (a SweepError naming it) and passed over: the
 * records after it go on, and the next run tries it again. Answers how many records the work changed.
 */
export async function sweepEach(
  { db, report, stopping = () => false }: SweepRun,
  what: string,
  page: (after: Due | undefined, limit: number) => Promise<Due[]>,
  work: (trx: DB, id: number) => Promise<boolean>,
): Promise<number> {
  let changed = 0;
  let after: Due | undefined;
  for (;;) {
    const due = await page(after, SWEEP_PAGE);
    for (const record of due) {
      if (stopping()) return changed;
      try {
        if (await db.transaction().execute((trx) => work(trx, record.id))) changed++;
      } catch (error) {
        report(new SweepError(what, record.id, error));
      }
    }
    if (due.length < SWEEP_PAGE) return changed;
    after = due[due.length - 1];
  }
}

/** The condition of a page's records: after `after` in (time, id) order. */
export const pastDue = (time: string, id: string, after: Due) => sql<boolean>`(${sql.ref(time)}, ${sql.ref(id)}) > (${after.at}, ${after.id})`;

/** The records of a page query (selected as `id` and `at`), as `sweepEach` reads them. */
export const dueOf = (rows: readonly Record<string, unknown>[]): Due[] => rows.map((row) => ({ id: Number(row.id), at: String(row.at) }));
