/**
 * The rows tables start with: each declaration's reference rows in every installation, and its demo
 * rows in demo mode (DESIGN D7: the demo accounts are the users' demo rows). What rows an entity
 * starts with and how they are written are the entity's (its declaration's `rows`, its hooks'
 * `insertDemo` and `afterDemo`): this code names none.
 */
import type { DeclaredRow, DemoContext, EntityContract, Registry, ResourceApi } from '../contract';
import { now, syncIdSequence, type DB, type Row } from './db';
import { loadHooks, type DemoHookContext } from './hooks';
import { readId, readPayload } from './records';
import { registry } from './registry';
import type { FileStoreOptions } from './storage';

/** Rows into a table, stamped now unless they carry their own times. */
async function insert(db: DB, table: string, rows: Row[]): Promise<Row[]> {
  const stamp = now();
  const out: Row[] = [];
  for (const row of rows) {
    out.push(await db.insertInto(table).values({ created_at: stamp, updated_at: stamp, ...row }).returningAll().executeTakeFirstOrThrow());
  }
  return out;
}

/** Whether a table holds more than `n` rows: n + 1 of them read at most, never the whole table counted (a start at millions of rows). */
const holdsMoreThan = async (db: DB, table: string, n: number) => Boolean(await db.selectFrom(table).select('id').limit(1).offset(n).executeTakeFirst());

const isEmpty = async (db: DB, table: string) => !(await holdsMoreThan(db, table, 0));

/** A declared row as a save's payload carries it: checked by the entity's rules, its columns as they read them. */
const payloadRow = (entity: EntityContract, row: DeclaredRow): Row => ({
  ...(row.id === undefined ? {} : { id: readId(row.id) }),
  ...readPayload(entity, row, { create: true }),
});

/**
 * A built demo row as the table stores it, every column as given (server-set ones too), JSON fields
 * given as values written as text; the fields a payload carries are checked by the entity's rules first.
 */
function storedRow(entity: EntityContract, row: DeclaredRow): Row {
  try {
    readPayload(entity, row, { create: true });
  } catch (error) {
    throw new Error(`A demo row of ${entity.name} breaks its rules: ${(error as Error).message} (${JSON.stringify(row)})`);
  }
  return Object.fromEntries(
    Object.entries(row).map(([name, value]) => [name, entity.fields[name]?.type === 'json' && value !== null ? JSON.stringify(value) : value]),
  );
}

/** Writes a declaration's rows into its table, each checked by the entity's rules as a save's payload is. */
async function insertDeclared(db: DB, resources: Registry, name: string, rows: readonly DeclaredRow[]) {
  const entity = resources.entity(name);
  const columns = rows.map((row) => payloadRow(entity, row));
  await insert(db, name, columns);
  if (columns.some((row) => row.id !== undefined)) await syncIdSequence(db, name);
}

/**
 * The reference rows each declaration gives (order statuses, the source currency's rate), into its
 * table while it is empty; rows keyed by a field (`keyedBy`), each one whose key the table lacks.
 */
export async function seedReference(db: DB, resources: Registry = registry) {
  for (const { name, rows } of resources.resources) {
    const reference = rows?.reference ?? [];
    if (!reference.length) continue;
    const key = rows?.keyedBy;
    if (key) {
      const held = new Set((await db.selectFrom(name).select(key).execute()).map((r) => String((r as Row)[key])));
      const missing = reference.filter((row) => !held.has(String(row[key])));
      if (missing.length) await insertDeclared(db, resources, name, missing);
    } else if (await isEmpty(db, name)) await insertDeclared(db, resources, name, reference);
  }
}

export interface DemoOptions {
  /** Where uploaded files go (the demo products' pictures); without it no demo file is written. */
  files?: FileStoreOptions;
  /** The time the demo data is made at, in ms (dates are spread back from it). */
  now?: number;
}

/**
 * Each declaration's demo rows, into its table while it holds nothing but its reference rows: an
 * entity added to a marketplace already running in demo mode gets its rows too. A module building
 * rows asks for another entity's rows by name (`ctx.rows`), which seeds that entity first, once: the
 * order comes from the declarations, never from a list. An entity's `insertDemo` hook writes its rows
 * itself; once every table has its rows, each entity seeded gets its rows in its `afterDemo` hook, in
 * the order the entities were seeded. Answers the entities seeded.
 */
export async function seedDemo(db: DB, resources: Registry = registry, options: DemoOptions = {}): Promise<string[]> {
  const hooks = await loadHooks(resources.entities);
  const at = options.now ?? Date.now();
  const hookContext: DemoHookContext = { db, now: at, ...(options.files ? { files: options.files } : {}) };
  const byName = new Map<string, ResourceApi>(resources.resources.map((resource) => [resource.name, resource]));
  const started = new Map<string, Promise<Row[]>>();
  const written: [string, Row[]][] = [];

  /** The entity's demo rows, written once; `asking`: the entities whose rows wait for these. */
  const seed = (name: string, asking: readonly string[]): Promise<Row[]> => {
    if (asking.includes(name)) throw new Error(`Demo rows ask for each other: ${[...asking, name].join(' → ')}`);
    let rows = started.get(name);
    if (!rows) {
      rows = seedOne(name, [...asking, name]);
      started.set(name, rows);
    }
    return rows;
  };

  const seedOne = async (name: string, asking: readonly string[]): Promise<Row[]> => {
    const resource = byName.get(name);
    const entity = resources.entity(name);
    const demo = resource?.rows?.demo;
    if (!demo || (await holdsMoreThan(db, name, resource.rows?.reference?.length ?? 0))) return [];
    const context: DemoContext = {
      registry: resources,
      now: at,
      rows: async (other) => {
        await seed(other, asking);
        return db.selectFrom(other).selectAll().orderBy('id').execute();
      },
    };
    const built = typeof demo === 'function';
    const rows = built ? await (await demo()).default(context) : demo;
    if (!rows.length) return [];
    const own = hooks.get(name)?.insertDemo;
    let out: Row[];
    if (own) {
      out = [];
      for (const row of rows) out.push(await own(hookContext, { ...row }));
    } else {
      out = await insert(db, name, rows.map((row) => (built ? storedRow(entity, row) : payloadRow(entity, row))));
    }
    if (rows.some((row) => row.id !== undefined)) await syncIdSequence(db, name);
    written.push([name, out]);
    return out;
  };

  for (const { name } of resources.resources) await seed(name, []);
  for (const [name, rows] of written) await hooks.get(name)?.afterDemo?.(hookContext, rows);
  return written.map(([name]) => name);
}
