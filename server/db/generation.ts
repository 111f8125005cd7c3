/**
 * The database's generation: a value that changes whenever anything may have been written, so
 * answers computed at one generation are kept while it holds (GenerationCache).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs } from 'kysely';
import type { DB } from './connection';

const generations = new WeakMap<DB, () => string | Promise<string>>();

/**
 * A value that changes whenever anything may have been written to the database, by this process or
 * another, so an answer computed at one value is still exact while it holds. Undefined inside a
 * transaction (and for a database opened otherwise), where nothing is kept.
 * - SQLite: `data_version` (other connections' commits) and this connection's own writes.
 * - PostgreSQL: the current snapshot, `xmin:xmax:running ids`. It moves when any transaction that
 *   wrote ends, and a read-only one never moves it; two equal snapshots see the same data.
 */
export const generationOf = (db: DB): string | Promise<string> | undefined => generations.get(db)?.();

/**
 * Counts the statements built that may write (anything but a select, a raw statement included), so
 * a request that has written reads the generation again.
 */
class WriteCounter implements KyselyPlugin {
  count = 0;
  transformQuery({ node }: PluginTransformQueryArgs) {
    if (node.kind !== 'SelectQueryNode') this.count++;
    return node;
  }
  async transformResult({ result }: PluginTransformResultArgs) {
    return result;
  }
}

const requestReadings = new AsyncLocalStorage<Map<DB, { writes: number; generation: string | Promise<string> }>>();

/**
 * Reads a database's generation with `read` from now on. `writes` counts the statements that may
 * write: a request (oneReading) reads the generation once, when first needed, and again only after
 * a statement that may write has run since (a reading was taken after the request came in).
 */
export function watchGeneration(db: DB, read: () => string | Promise<string>, writes: () => number): void {
  generations.set(db, () => {
    const readings = requestReadings.getStore();
    if (!readings) return read();
    const kept = readings.get(db);
    const count = writes();
    if (kept && kept.writes === count) return kept.generation;
    const generation = read();
    readings.set(db, { writes: count, generation });
    return generation;
  });
}

/**
 * PostgreSQL's generation, its current snapshot read with `readSnapshot`: `writes` is the plugin the
 * database is opened with, `watch` starts reading it; the callers asking at once share one read.
 */
export function postgresGeneration(readSnapshot: () => Promise<string>): { writes: KyselyPlugin; watch(db: DB): void } {
  const writes = new WriteCounter();
  const snapshot = sharedReads(readSnapshot);
  return { writes, watch: (db) => watchGeneration(db, snapshot, () => writes.count) };
}

/**
 * Runs `work` (one request) reading the generation at most once, when first needed, and again only
 * after the request has written: every answer it keeps or takes is at least as new as the request.
 */
export const oneReading = <T>(work: () => T): T => requestReadings.run(new Map(), work);

/**
 * Runs `work` outside any request's reading: what outlives the request that starts it (a timer, a
 * feed) must read the generation anew each time, not keep the request's.
 */
export const outsideRequest = <T>(work: () => T): T => requestReadings.exit(work);

/**
 * A read shared by the callers that ask while it waits to be sent: each caller gets a result read
 * after it asked (never one already on its way), and many callers at once cost one round trip.
 */
export function sharedReads<T>(read: () => Promise<T>): () => Promise<T> {
  let previous: Promise<unknown> = Promise.resolve();
  let next: Promise<T> | undefined;
  return () =>
    (next ??= previous.then(() => {
      next = undefined;
      const sent = read();
      previous = sent.catch(() => undefined);
      return sent;
    }));
}

/**
 * Answers kept while the database does not change (generationOf), per database, the most recent
 * `size` of them: each entry is exact as long as its generation is the current one.
 *
 * With `keptWhenAskedAgain`, an answer is kept only when it is asked for a second time at the same
 * generation (a proxy cache's "minimum uses" of 2): pages turned through once (a person paging on,
 * a crawler) are never kept, so they neither push out the pages many people ask for nor live long
 * enough to burden the garbage collector. Kept on first ask, every page of varied reading stayed
 * for the next 500 and was moved to the old generation of V8's heap: varied pages at 1M rows cost
 * about 13% more CPU (docs/benchmarks.md, twenty-sixth round). The keys asked for once are
 * remembered, the most recent ASKED_PER_KEPT times `size` of them.
 */
export class GenerationCache<T> {
  private readonly byDb = new WeakMap<DB, Map<string, { generation: string; value: T }>>();
  private readonly askedOnce = new WeakMap<DB, Map<string, string>>();
  constructor(
    private readonly size: number,
    private readonly options: { keptWhenAskedAgain?: boolean } = {},
  ) {}

  async get(db: DB, key: string, compute: () => Promise<T>): Promise<T> {
    const generation = await generationOf(db);
    if (generation === undefined) return compute();
    let kept = this.byDb.get(db);
    if (!kept) this.byDb.set(db, (kept = new Map()));
    const hit = kept.get(key);
    if (hit && hit.generation === generation) return hit.value;
    // Read before computing: a write during the computation moves the generation, so the entry
    // is never taken for newer than it is.
    const value = await compute();
    if (this.options.keptWhenAskedAgain && !this.askedAgain(db, key, generation)) return value;
    kept.delete(key);
    if (kept.size >= this.size) kept.delete(kept.keys().next().value!);
    kept.set(key, { generation, value });
    return value;
  }

  /** Whether `key` was asked for before at `generation`; if not, it is remembered as asked once. */
  private askedAgain(db: DB, key: string, generation: string): boolean {
    let asked = this.askedOnce.get(db);
    if (!asked) this.askedOnce.set(db, (asked = new Map()));
    const again = asked.get(key) === generation;
    asked.delete(key);
    if (again) return true;
    if (asked.size >= this.size * ASKED_PER_KEPT) asked.delete(asked.keys().next().value!);
    asked.set(key, generation);
    return false;
  }
}

/** Keys asked for once that a GenerationCache with `keptWhenAskedAgain` remembers, per entry it keeps. */
export const ASKED_PER_KEPT = 8;
