/**
 * A process that has just started answers its first searches and pages slower than later: its code
 * not yet optimized, its statements not yet prepared, the samples a value's rare pieces are weighed
 * by (server/trigrams.ts) not yet taken (each a read of 2,000 rows, on the first search of a column).
 * `warmUp` does that work once the server listens, in the background, one small step at a time: the
 * event loop is free between steps, so a request arriving meanwhile is answered first.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { sql } from 'kysely';
import type { EntityContract } from '../contract';
import { textSearchColumns, type DB } from './db';
import { listPage } from './store';
import { TRIGRAM_PIECES, rarePieces } from './trigrams';

export const WARM_UP = {
  /** Searches of a part of a stored text, and pages, read per searchable list. */
  rounds: 10,
  /** A list one of whose steps took longer (ms) is left (its pages read many linked records, say): a warm-up stays cheap. */
  slowStepMs: 100,
};

/**
 * The stored text of `column` in the first row from `id` on, in id order. The order is what makes it
 * an index read on PostgreSQL: asked for any one row with an id at least `id`, its planner walks the
 * table from its start until it meets one (a fifth of a second at a million rows), and the warm-up
 * then leaves the list as slow after its first step.
 */
export const textFrom = (db: DB, entity: EntityContract, column: string, id: number) =>
  db.selectFrom(entity.name).select(sql<string>`cast(${sql.ref(column)} as text)`.as('v')).where('id', '>=', id).orderBy('id').limit(1);

/**
 * Resolves with the steps taken once done, or early when `stopped()` says so (the server stopping).
 * A list whose step is slow (WARM_UP.slowStepMs) is left for the next.
 */
export async function warmUp(db: DB, entities: readonly EntityContract[], stopped: () => boolean = () => false): Promise<number> {
  let steps = 0;
  const step = async (work: () => Promise<unknown>) => {
    if (stopped()) return false;
    const started = performance.now();
    await work();
    steps++;
    await nextTurn();
    return performance.now() - started <= WARM_UP.slowStepMs;
  };
  const all = { kind: 'all' } as const;
  for (const entity of entities) {
    if (!entity.search) continue;
    // Only what the indexes answer: the id and the text-indexed columns (a search of another column
    // scans, and a warm-up must stay cheap).
    const columns = entity.search.targets.filter((t) => textSearchColumns(entity).includes(t));
    const targets = entity.search.targets.includes('id') ? ['id', ...columns] : columns;
    if (!columns.length) continue;
    // The samples first: the first search of each column would otherwise take one.
    for (const column of columns) await step(() => rarePieces(db, entity, column, 'warm'));
    if (stopped()) return steps;
    // A list that links 'many' records may read any number of them for one page (a user's shops):
    // its samples only; its searches and pages share their code with the other lists'.
    if (entity.relations?.some((rel) => rel.kind === 'many')) continue;
    const top = Number((await db.selectFrom(entity.name).select(sql<number>`max(id)`.as('top')).executeTakeFirst())?.top ?? 0);
    if (!top) continue;
    const perPage = 15;
    for (let round = 0; round < WARM_UP.rounds; round++) {
      const id = 1 + Math.floor(Math.random() * top);
      const ok = await step(async () => {
        // A part of a stored text, as a person would type it, and a page anywhere in the list.
        // A part common to many rows would have the search count them all: on a large table, only
        // a part with rare pieces is searched.
        const column = columns[round % columns.length];
        const row = await textFrom(db, entity, column, id).executeTakeFirst();
        const text = String(row?.v ?? '');
        const start = Math.max(0, text.length - 6 - Math.floor(Math.random() * 3));
        const value = text.slice(start, start + 6);
        if (value.trim().length >= 3 && (top < TRIGRAM_PIECES.minRows || (await rarePieces(db, entity, column, value)))) {
          await listPage(db, entity, all, { page: 1, perPage, search: { value, targets } });
        }
        await listPage(db, entity, all, { page: 1 + Math.floor(Math.random() * Math.ceil(top / perPage)), perPage });
      });
      if (!ok) break;
    }
  }
  return steps;
}
