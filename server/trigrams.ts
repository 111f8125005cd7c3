/**
 * Which pieces of a searched value the trigram index should look up (pg_trgm on PostgreSQL, FTS5's
 * trigram table on SQLite).
 *
 * The index reads the whole list of rows of every trigram in a pattern. A value such as
 * "product 12345" holds trigrams that nearly every row has ("pro", "duc"...): looking them up
 * reads millions of entries to find ten rows (30 ms at a million rows on PostgreSQL, 0.6 ms of CPU
 * on SQLite), where its rare trigrams alone ("123", "234", "345") find the same rows and a few more
 * in a fraction of that.
 *
 * So a value's 3-character pieces are weighed by how many rows hold them, estimated from a sample
 * of the columns the index's lists cover, and the index is asked for the rare ones only; the
 * substring rule itself then decides each candidate row. The estimate changes the speed, never the
 * answer: every row that holds the value holds each of its pieces.
 *
 * What a list covers differs: pg_trgm's index is one column's, FTS5's table holds one list per
 * trigram for all its columns (a column filter is applied while reading it). On SQLite a piece rare
 * in the searched column but in every row of another ("-27" in a date, searching a tracking number)
 * still reads millions of entries, so there a piece is weighed across all the table's columns.
 */
import { sql } from 'kysely';
import type { EntityContract } from '../contract';
import { dialectOf, textSearchColumns, type DB } from './db';

export const TRIGRAM_PIECES = {
  /** Below this many rows (estimated) the whole value is looked up: every list is short. */
  minRows: 50_000,
  /** Rows read to estimate how common each trigram of a column is. */
  sample: 2_000,
  /** A piece held by at most this share of the rows is rare enough to look up. */
  rare: 0.02,
  /** At most this many pieces are looked up. */
  most: 6,
  /** A sample is taken again after this long (the estimate only steers the speed). */
  maxAgeMs: 10 * 60_000,
};

interface Sample {
  at: number;
  /** The table's rows, estimated by PostgreSQL's statistics. */
  rows: number;
  /** Sampled values, and for each trigram how many of them hold it. */
  size: number;
  holding: Map<string, number>;
}

const samples = new WeakMap<DB, Map<string, Promise<Sample>>>();

/** The lowered trigrams a text holds (each once). */
function trigramsOf(text: string): Set<string> {
  const lowered = text.toLowerCase();
  const out = new Set<string>();
  for (let i = 0; i + 3 <= lowered.length; i++) out.add(lowered.slice(i, i + 3));
  return out;
}

/** The columns the index lists a search of `column` reads cover (see above). */
function listed(db: DB, entity: EntityContract, column: string): readonly string[] {
  return dialectOf(db) === 'postgres' ? [column] : textSearchColumns(entity);
}

async function takeSample(db: DB, table: string, columns: readonly string[]): Promise<Sample> {
  // The table's rows: PostgreSQL's statistics; on SQLite the highest id (ids are seldom deleted).
  const stats =
    dialectOf(db) === 'postgres'
      ? await sql<{ rows: number; top: number | null }>`select greatest(c.reltuples, 0)::float8 as rows,
          (select max(id) from ${sql.table(table)}) as top from pg_class c where c.oid = quote_ident(${table})::regclass`.execute(db)
      : await sql<{ rows: number; top: number | null }>`select coalesce(max(id), 0) as rows, max(id) as top from ${sql.table(table)}`.execute(db);
  const rows = Number(stats.rows[0]?.rows ?? 0);
  const top = Number(stats.rows[0]?.top ?? 0);
  const holding = new Map<string, number>();
  if (rows < TRIGRAM_PIECES.minRows || top <= 0) return { at: Date.now(), rows, size: 0, holding };
  // Random ids, read through the primary key: an even sample without reading the table.
  const ids = new Set<number>();
  for (let tries = 0; ids.size < TRIGRAM_PIECES.sample && tries < TRIGRAM_PIECES.sample * 4; tries++) ids.add(1 + Math.floor(Math.random() * top));
  const found = await db
    .selectFrom(table)
    .select(columns.map((column, i) => sql<string | null>`cast(${sql.ref(column)} as text)`.as(`v${i}`)))
    .where('id', 'in', [...ids])
    .execute();
  for (const row of found as Record<string, string | null>[]) {
    const held = new Set(columns.flatMap((_, i) => [...trigramsOf(String(row[`v${i}`] ?? ''))]));
    for (const t of held) holding.set(t, (holding.get(t) ?? 0) + 1);
  }
  return { at: Date.now(), rows, size: found.length, holding };
}

/** A kept sample's key: the table and the columns its index lists cover. */
const sampleKey = (table: string, columns: readonly string[]) => `${table}.${columns.join(',')}`;

/** Whether a sample for searching this column is kept and fresh (taken by a search, or by the warm-up at start). */
export async function sampled(db: DB, entity: EntityContract, column: string): Promise<boolean> {
  const kept = samples.get(db)?.get(sampleKey(entity.name, listed(db, entity, column)));
  const sample = kept && (await kept.catch(() => undefined));
  return !!sample && Date.now() - sample.at < TRIGRAM_PIECES.maxAgeMs;
}

/** The sample each kept promise resolved to: a fresh one is handed out as it is (every search asks). */
const taken = new WeakMap<Promise<Sample>, Sample>();

function sampleOf(db: DB, table: string, columns: readonly string[]): Promise<Sample> {
  let byIndex = samples.get(db);
  if (!byIndex) samples.set(db, (byIndex = new Map()));
  const key = sampleKey(table, columns);
  const kept = byIndex.get(key);
  const fresh = (s: Sample) => Date.now() - s.at < TRIGRAM_PIECES.maxAgeMs;
  const ready = kept && taken.get(kept);
  if (kept && ready && fresh(ready)) return kept;
  const next = (kept ?? Promise.resolve(undefined))
    .catch(() => undefined)
    .then((s) => (s && fresh(s) ? s : takeSample(db, table, columns)));
  byIndex.set(key, next);
  next.then(
    (s) => taken.set(next, s),
    // A sample that failed is taken again next time.
    () => byIndex.delete(key),
  );
  return next;
}

/**
 * The rare pieces of `value` to look up in `column`'s trigram index, or undefined when the whole
 * value should be (a short table, or no piece rare enough). Pieces are 3 ASCII letters or digits
 * in a row, or 2 beside an ASCII space or punctuation mark (a word's edge), as written: pg_trgm
 * reads each as trigrams every row holding it has, and PostgreSQL lowers a letter of them the same
 * way whatever stands around it, so a row holding the lowered value always holds every lowered piece;
 * FTS5's trigram table folds ASCII case the same way, and reads each piece as one trigram.
 */
export async function rarePieces(db: DB, entity: EntityContract, column: string, value: string): Promise<string[] | undefined> {
  // Each piece as written (PostgreSQL lowers it, as it lowers the value), weighed by its lowered form.
  const windows = new Map<string, string>();
  for (const run of value.match(/[A-Za-z0-9]{3,}/g) ?? []) {
    for (let i = 0; i + 3 <= run.length; i++) windows.set(run.slice(i, i + 3).toLowerCase(), run.slice(i, i + 3));
  }
  // A word's edge: two letters or digits after or before a space or punctuation mark ("-58" in
  // "TRK-5817"). pg_trgm reads it as a word's first (or last) trigram (" 58"), which every row
  // holding the piece has: a narrower lookup than "581" alone. LIKE's own %, _ and \ are left out.
  for (const edge of value.matchAll(/(?=([ !-$&-/:-@[\]^`{-~][A-Za-z0-9]{2}|[A-Za-z0-9]{2}[ !-$&-/:-@[\]^`{-~]))/g)) {
    windows.set(edge[1].toLowerCase(), edge[1]);
  }
  if (!windows.size) return undefined;
  const sample = await sampleOf(db, entity.name, listed(db, entity, column));
  if (!sample.size) return undefined;
  const share = (lowered: string) => (sample.holding.get(lowered) ?? 0) / sample.size;
  // Every rare piece (up to `most`): adjacent pieces overlap, so each one more cuts the rows to
  // check far less than independence would say, but reading its short list costs little.
  const chosen = [...windows.keys()]
    .filter((w) => share(w) <= TRIGRAM_PIECES.rare)
    .sort((a, b) => share(a) - share(b))
    .slice(0, TRIGRAM_PIECES.most)
    .map((w) => windows.get(w)!);
  return chosen.length ? chosen : undefined;
}
