/**
 * The schema: tables derived from the contract's field lists (so declaring an entity declares its
 * table), the resource files' table extras, the server's own tables and the derived tables modules
 * register. `migrate` creates what is missing and adds new columns, and never drops anything.
 */
import { sql, type ColumnDataType } from 'kysely';
import { limitsOf, OWNED_THROUGH, type EntityContract, type FieldType, type Registry } from '../../contract';
import { registry as defaultRegistry } from '../registry';
import type { Database, DB } from './connection';
import { SERVER_TABLES } from './serverTables';
import { PAGE_INDEX, pageTriggers, postgresTextSearch, SELLER_COLUMN, sellerTriggers, sqliteTextSearch } from './triggers';

/**
 * Column types of the other kinds (string, email and date columns are varchar of their longest
 * length, limitsOf). A whole number's range (KIND_LIMITS) is what `integer` holds on both databases.
 */
const COLUMN: Record<Exclude<FieldType, 'string' | 'email' | 'date'>, ColumnDataType> = {
  text: 'text',
  json: 'text',
  int: 'integer',
  bool: 'integer',
  number: 'double precision',
};

export interface TableSpec {
  name: string;
  columns: Record<string, ColumnDataType>;
  indexes: string[][];
  unique?: string[][];
  /** Text columns searched for a part of their text: an FTS5 trigram index (SQLite) or pg_trgm (PostgreSQL). */
  textSearch?: readonly string[];
  /**
   * The seller a record belongs to through its shop (owner rule `via: 'shop_id'`), copied into
   * SELLER_COLUMN by triggers so a seller's list is one index range in the list's order.
   */
  sellerVia?: { key: string; parent: string; owner: string };
  /** Rows are counted into PAGE_INDEX by id range, for everyone and per owner (this column). */
  paged?: { owner?: string };
}

/** Field types a part-of-text search can use an index for (numbers are searched as text by a scan). */
const TEXT_TYPES: readonly FieldType[] = ['string', 'email', 'text', 'date'];

const textSearch = new WeakMap<EntityContract, readonly string[]>();

/** The targets of an entity's search that have a text index (worked out once per declaration: every search asks). */
export function textSearchColumns(entity: EntityContract): readonly string[] {
  let columns = textSearch.get(entity);
  if (!columns) {
    const fields: Record<string, { type: FieldType }> = { created_at: { type: 'date' }, ...entity.fields };
    columns = Object.freeze((entity.search?.targets ?? []).filter((t) => t !== 'id' && fields[t] && TEXT_TYPES.includes(fields[t].type)));
    textSearch.set(entity, columns);
  }
  return columns;
}

/** Columns and indexes of an entity's table: its fields, plus id and timestamps. */
function entityTable(entity: EntityContract): TableSpec {
  const columns: Record<string, ColumnDataType> = {};
  for (const [name, field] of Object.entries(entity.fields)) {
    columns[name] = field.type === 'string' || field.type === 'email' || field.type === 'date' ? `varchar(${limitsOf(field).maxLength!})` : COLUMN[field.type];
  }
  columns.created_at = 'varchar(32)';
  columns.updated_at = 'varchar(32)';
  // Linked keys are read as "this key, newest first" (a shop's products, a category's shops): the
  // composite index serves the filter and the order together.
  const keys = Object.keys(entity.fields).filter((f) => f.endsWith('_id'));
  const searched = (entity.search?.targets ?? []).filter((t) => t !== 'id' && columns[t]);
  const looked = Object.keys(entity.fields).filter((f) => entity.fields[f].indexed && !keys.includes(f) && !searched.includes(f));
  const indexes = [...keys.map((k) => [k, 'id']), ...searched.map((c) => [c]), ...looked.map((c) => [c])];
  const spec: TableSpec = { name: entity.name, columns, indexes, textSearch: textSearchColumns(entity), paged: {} };
  if (entity.owner?.via === 'owner_id') spec.paged = { owner: 'owner_id' };
  if (entity.owner?.via === 'shop_id') {
    columns[SELLER_COLUMN] = 'integer';
    indexes.push([SELLER_COLUMN, 'id']);
    spec.sellerVia = { key: 'shop_id', ...OWNED_THROUGH.shop_id };
    spec.paged = { owner: SELLER_COLUMN };
  }
  return spec;
}

/**
 * A table derived from an entity's table and kept in step by triggers, registered by the module that
 * reads it (the dashboard's order counters): `migrate` creates it, with the triggers and the indexes
 * on the source table its reads need, whenever the registry has the source entity.
 */
export interface DerivedTable {
  name: string;
  /** The entity (table) it is derived from. */
  source: string;
  /** Indexes on the source table that its readers need. */
  sourceIndexes?: string[][];
  /** Creates the table when it did not exist (`existed` false), and (re)creates its triggers. */
  migrate(db: DB, dialect: Database['dialect'], existed: boolean): Promise<void>;
}
const derivedTables: DerivedTable[] = [];

/** Registers a derived table (once per name): every later `migrate` keeps it. */
export function registerDerivedTable(table: DerivedTable): void {
  if (!derivedTables.some((t) => t.name === table.name)) derivedTables.push(table);
}

export function tableSpecs(registry: Registry = defaultRegistry): TableSpec[] {
  const entities = registry.resources.map(({ name, table }) => {
    const spec = entityTable(registry.entity(name));
    Object.assign(spec.columns, table?.columns);
    spec.unique = table?.unique?.map((cols) => [...cols]);
    spec.indexes.push(...(table?.indexes ?? []).map((cols) => [...cols]));
    for (const derived of derivedTables) if (derived.source === name) spec.indexes.push(...(derived.sourceIndexes ?? []));
    return spec;
  });
  return [...entities, ...SERVER_TABLES];
}

/**
 * Creates what is missing: tables, columns, indexes, text-search indexes and the triggers that keep
 * them in step with their tables. Runs in one transaction; on PostgreSQL under an advisory lock, so
 * several API processes starting together migrate once.
 */
export async function migrate(database: Database, registry: Registry = defaultRegistry): Promise<void> {
  const { dialect } = database;
  if (dialect === 'postgres') await ensureTrigram(database.db);
  await database.db.transaction().execute(async (trx) => {
    if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(73120514)`.execute(trx);
    await migrateTables(trx, dialect, registry);
  });
}

/**
 * Runs `work` in one transaction that, on PostgreSQL, holds the same advisory lock as `migrate`:
 * several processes starting together seed reference and demo data once.
 */
export async function exclusively(database: Database, work: (db: DB) => Promise<void>): Promise<void> {
  await database.db.transaction().execute(async (trx) => {
    if (database.dialect === 'postgres') await sql`select pg_advisory_xact_lock(73120514)`.execute(trx);
    await work(trx);
  });
}

/** pg_trgm is trusted (any database owner may create it); without it searches still work, by scanning. */
async function ensureTrigram(db: DB): Promise<void> {
  try {
    await sql`create extension if not exists pg_trgm`.execute(db);
  } catch (error) {
    const there = await sql`select 1 from pg_extension where extname = 'pg_trgm'`.execute(db);
    if (!there.rows.length) console.warn(`pg_trgm is not available, part-of-text searches will scan: ${String(error)}`);
  }
}

async function migrateTables(db: DB, dialect: Database['dialect'], registry: Registry): Promise<void> {
  const existing = new Map((await db.introspection.getTables()).map((t) => [t.name, t]));
  if (!existing.has(PAGE_INDEX)) {
    await db.schema
      .createTable(PAGE_INDEX)
      .addColumn('tbl', 'varchar(64)', (c) => c.notNull())
      .addColumn('owner', 'integer', (c) => c.notNull())
      .addColumn('bucket', 'integer', (c) => c.notNull())
      .addColumn('n', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint(`${PAGE_INDEX}_pk`, ['tbl', 'owner', 'bucket'])
      .execute();
  }
  for (const table of tableSpecs(registry)) {
    const have = existing.get(table.name);
    const added: string[] = [];
    if (!have) {
      let create = db.schema
        .createTable(table.name)
        .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (c) =>
          dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        );
      for (const [col, type] of Object.entries(table.columns)) create = create.addColumn(col, type);
      await create.execute();
    } else {
      const names = new Set(have.columns.map((c) => c.name));
      for (const [col, type] of Object.entries(table.columns)) {
        if (!names.has(col)) {
          await db.schema.alterTable(table.name).addColumn(col, type).execute();
          added.push(col);
        }
      }
    }
    for (const cols of table.indexes) {
      await db.schema.createIndex(`${table.name}_${cols.join('_')}_idx`).ifNotExists().on(table.name).columns(cols).execute();
    }
    for (const cols of table.unique ?? []) {
      await db.schema.createIndex(`${table.name}_${cols.join('_')}_key`).ifNotExists().unique().on(table.name).columns(cols).execute();
    }
    if (table.sellerVia) await sellerTriggers(db, dialect, table.name, table.sellerVia, added.includes(SELLER_COLUMN));
    if (table.paged) await pageTriggers(db, dialect, table.name, table.paged.owner);
    if (table.textSearch?.length) {
      if (dialect === 'sqlite') await sqliteTextSearch(db, table.name, table.textSearch);
      else await postgresTextSearch(db, table.name, table.textSearch);
    }
  }
  for (const table of derivedTables) {
    if (registry.entities.some((e) => e.name === table.source)) await table.migrate(db, dialect, existing.has(table.name));
  }
}
