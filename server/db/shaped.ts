/**
 * Reads compiled once per shape. Kysely builds a query's tree and compiles it to SQL each time it
 * runs, which costs as much JavaScript as a small read itself; the reads every list page makes (its
 * ids, its rows, their linked records) are built once per shape with slots where their values go,
 * and each later read puts its values in the slots of the kept SQL. On PostgreSQL they are also
 * prepared once per connection and run by name (prepared.ts): each finds rows by id, or by owner and
 * id, so its best plan does not depend on its values.
 *
 * A read with many parts (a search: its filters, its text in each column, the rows an index found)
 * is described first as a plan (`readPlanned`), its values marked with `bound`; the plan without
 * its values is its shape, and the builder only ever sees that skeleton, so what it builds cannot
 * depend on a value.
 */
import type { Compilable, CompiledQuery } from 'kysely';
import type { DB, Row } from './connection';
import { dialectOf } from './queries';
import { runByName } from './prepared';

/** Where the value of that index goes: a slot is never sent, always replaced. */
class Slot {
  constructor(readonly index: number) {}
}

/** A value of a plan (readPlanned): sent as a parameter, never part of the SQL or the shape. */
class Bound {
  constructor(readonly value: unknown) {}
}

interface Shaped {
  query: CompiledQuery;
  /** Per parameter of the SQL: the index of the value it takes, or -1 for a constant of the shape. */
  takes: number[];
  /** How many values a read of this shape gives (its distinct slots; readShaped checks it). */
  values: number;
}

/** The shapes kept, by dialect and shape (a bounded number: the oldest goes first). */
const kept = new Map<string, Shaped>();
const KEPT_SHAPES = 1000;

function shapedOf(db: DB, key: string, compile: () => CompiledQuery, named: boolean): Shaped {
  let shaped = kept.get(key);
  if (!shaped) {
    const query = compile();
    const takes = query.parameters.map((p) => (p instanceof Slot ? p.index : -1));
    if (named && dialectOf(db) === 'postgres') runByName(query.sql);
    shaped = { query, takes, values: new Set(takes.filter((t) => t >= 0)).size };
    if (kept.size >= KEPT_SHAPES) kept.delete(kept.keys().next().value!);
    kept.set(key, shaped);
  }
  return shaped;
}

async function run(db: DB, { query, takes }: Shaped, values: readonly unknown[]): Promise<Row[]> {
  const parameters = query.parameters.map((p, i) => (takes[i] < 0 ? p : values[takes[i]]));
  return (await db.executeQuery<Row>({ ...query, parameters })).rows;
}

/**
 * Runs the read `build` makes, built and compiled once per `shape`. `build` gets `slot(i)`, the
 * placeholder of `values[i]`; `shape` must name everything else `build` reads (tables, columns,
 * directions, how many ids), as a read of the same shape reuses the SQL of the first. A read giving
 * another number of values than its shape has slots is refused, not run.
 */
export async function readShaped(db: DB, shape: string, values: readonly unknown[], build: (slot: (index: number) => never) => Compilable<Row>): Promise<Row[]> {
  const shaped = shapedOf(db, `${dialectOf(db)} ${shape}`, () => build((index) => new Slot(index) as never).compile(), true);
  if (values.length !== shaped.values) throw new Error(`A read of the shape ${shape} takes ${shaped.values} values, not ${values.length}`);
  return run(db, shaped, values);
}

/** Marks a value in a plan (readPlanned). */
export const bound = (value: unknown): unknown => new Bound(value);

/** The plan's values in order, and its skeleton: the plan with a slot in each value's place. */
function skeletonOf<P>(plan: P): { skeleton: P; values: unknown[] } {
  const values: unknown[] = [];
  const walk = (node: unknown): unknown => {
    if (node instanceof Bound) return new Slot(values.push(node.value) - 1);
    if (Array.isArray(node)) return node.map(walk);
    if (node !== null && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v)]));
    return node;
  };
  return { skeleton: walk(plan) as P, values };
}

/**
 * Runs the read `build` makes from `plan`, built and compiled once per shape: `shape` (naming what
 * else `build` reads: the entity, the statement, its order) with the plan's skeleton, in which every
 * `bound` value is a slot. On PostgreSQL it is sent unnamed: a search's best plan depends on its
 * values (see prepared.ts).
 */
export async function readPlanned<P>(db: DB, shape: string, plan: P, build: (skeleton: P) => Compilable<Row>): Promise<Row[]> {
  const { skeleton, values } = skeletonOf(plan);
  const key = `${dialectOf(db)} ${shape} ${JSON.stringify(skeleton, (_, v: unknown) => (v instanceof Slot ? '?' : v))}`;
  return run(db, shapedOf(db, key, () => build(skeleton).compile(), false), values);
}
