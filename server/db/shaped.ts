/**
 * Reads compiled once per shape. Kysely builds a query's tree and compiles it to SQL each time it
 * runs, which costs as much JavaScript as a small read itself; the reads every list page makes (its
 * ids, its rows, their linked records) are built once per shape with slots where their values go,
 * and each later read puts its values in the slots of the kept SQL. On PostgreSQL they are also
 * prepared once per connection and run by name (prepared.ts): each finds rows by id, or by owner and
 * id, so its best plan does not depend on its values.
 */
import type { Compilable, CompiledQuery } from 'kysely';
import type { DB, Row } from './connection';
import { dialectOf } from './queries';
import { runByName } from './prepared';

/** Where the value of that index goes: a slot is never sent, always replaced. */
class Slot {
  constructor(readonly index: number) {}
}

interface Shaped {
  query: CompiledQuery;
  /** Per parameter of the SQL: the index of the value it takes, or -1 for a constant of the shape. */
  takes: number[];
  /** How many values a read of this shape gives. */
  values: number;
}

/** The shapes kept, by dialect and shape (a bounded number: the oldest goes first). */
const kept = new Map<string, Shaped>();
const KEPT_SHAPES = 1000;

/**
 * Runs the read `build` makes, built and compiled once per `shape`. `build` gets `slot(i)`, the
 * placeholder of `values[i]`; `shape` must name everything else `build` reads (tables, columns,
 * directions, how many ids), as a read of the same shape reuses the SQL of the first. A read giving
 * another number of values than its shape has slots is refused, not run.
 */
export async function readShaped(db: DB, shape: string, values: readonly unknown[], build: (slot: (index: number) => never) => Compilable<Row>): Promise<Row[]> {
  const key = `${dialectOf(db)} ${shape}`;
  let shaped = kept.get(key);
  if (!shaped) {
    const query = build((index) => new Slot(index) as never).compile();
    const takes = query.parameters.map((p) => (p instanceof Slot ? p.index : -1));
    if (dialectOf(db) === 'postgres') runByName(query.sql);
    shaped = { query, takes, values: new Set(takes.filter((t) => t >= 0)).size };
    if (kept.size >= KEPT_SHAPES) kept.delete(kept.keys().next().value!);
    kept.set(key, shaped);
  }
  if (values.length !== shaped.values) throw new Error(`A read of the shape ${shape} takes ${shaped.values} values, not ${values.length}`);
  const { query, takes } = shaped;
  const parameters = query.parameters.map((p, i) => (takes[i] < 0 ? p : values[takes[i]]));
  return (await db.executeQuery<Row>({ ...query, parameters })).rows;
}
