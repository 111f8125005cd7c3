/**
 * The database: SQLite through better-sqlite3 by default, PostgreSQL when DATABASE_URL is set.
 * Tables are derived from the contract's field lists, so declaring an entity declares its table;
 * `migrate` creates what is missing and adds new columns, and never drops anything.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from './sqlite';
import type BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import {
  CompiledQuery, Kysely, PostgresAdapter, PostgresDialect, SqliteDialect, SqliteDriver, sql,
  type ColumnDataType, type DatabaseConnection, type KyselyPlugin, type PluginTransformQueryArgs, type PluginTransformResultArgs, type SqliteDialectConfig,
} from 'kysely';
import { maxLengthOf, OWNED_THROUGH, type EntityContract, type FieldType, type Registry } from '../contract';
import { registry as defaultRegistry } from './registry';
import { LEDGER_TABLES } from './ledger/tables';

/** Tables are declared by the contract at run time, so rows are typed loosely here. */
export type Row = Record<string, unknown>;
export type DB = Kysely<Record<string, Row>>;

export interface Database {
  db: DB;
  dialect: 'sqlite' | 'postgres';
  /** Connections to the database: how many are busy and how many are open (PostgreSQL's pool; SQLite keeps one). */
  connections(): { inUse: number; open: number };
  close(): Promise<void>;
}

export function openDatabase(opts: { file?: string; url?: string }): Database {
  if (opts.url) {
    const pool = new pg.Pool({ connectionString: opts.url, max: Number(process.env.PG_POOL_SIZE ?? 10) });
    const writes = new WriteCounter();
    const db: DB = new Kysely({ dialect: new PostgresDialect({ pool }), plugins: [writes] });
    const snapshot = sharedReads(async () => (await pool.query<{ s: string }>('select pg_current_snapshot()::text as s')).rows[0].s);
    generations.set(db, () => {
      // One read per request while the request writes nothing: it was taken after the request came in.
      const readings = requestReadings.getStore();
      if (!readings) return snapshot();
      const kept = readings.get(db);
      if (kept && kept.writes === writes.count) return kept.generation;
      const generation = snapshot();
      readings.set(db, { writes: writes.count, generation });
      return generation;
    });
    return { db, dialect: 'postgres', connections: () => ({ inUse: pool.totalCount - pool.idleCount, open: pool.totalCount }), close: () => db.destroy() };
  }
  const file = opts.file ?? ':memory:';
  if (file !== ':memory:') privateFile(file);
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  if (file !== ':memory:') for (const side of ['-wal', '-shm']) if (fs.existsSync(file + side)) fs.chmodSync(file + side, 0o600);
  sqlite.pragma('busy_timeout = 5000');
  // An acknowledged write is on disk: it survives a crash of the process or of the machine.
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  // Reads at a million rows stay in memory: 64 MB of page cache and the file mapped.
  sqlite.pragma('cache_size = -65536');
  sqlite.pragma('mmap_size = 2147418112'); // SQLite's largest by default (2 GB): a million rows of each list (1.1 GB) mapped whole
  const statements = cachingStatements(sqlite);
  const db: DB = new Kysely({ dialect: new WritingSqliteDialect({ database: statements }) });
  // Commits by other connections (other processes) move data_version; this connection's own writes
  // are counted as they run. Together: a value that changes whenever the database may have changed.
  const dataVersion = sqlite.prepare('pragma data_version').pluck();
  generations.set(db, () => `${dataVersion.get() as number}.${statements.writes()}`);
  return { db, dialect: 'sqlite', connections: () => ({ inUse: sqlite.inTransaction ? 1 : 0, open: sqlite.open ? 1 : 0 }), close: () => db.destroy() };
}

/**
 * A transaction takes the write lock when it begins (BEGIN IMMEDIATE), waiting up to busy_timeout
 * for another process's. A plain BEGIN reads first and fails at once with SQLITE_BUSY when it
 * tries to write after another process committed: with several API processes on one file, every
 * read-then-write (unique checks, counters) would risk that.
 */
class WritingSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}
class WritingSqliteDialect extends SqliteDialect {
  private readonly settings: SqliteDialectConfig;
  constructor(settings: SqliteDialectConfig) {
    super(settings);
    this.settings = settings;
  }
  override createDriver() {
    return new WritingSqliteDriver(this.settings);
  }
}

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
 * Runs `work` (one request) reading PostgreSQL's generation at most once, when first needed,
 * and again only after the request has written: every answer it keeps or takes is at least as
 * new as the request.
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
 */
export class GenerationCache<T> {
  private readonly byDb = new WeakMap<DB, Map<string, { generation: string; value: T }>>();
  constructor(private readonly size: number) {}

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
    kept.delete(key);
    if (kept.size >= this.size) kept.delete(kept.keys().next().value!);
    kept.set(key, { generation, value });
    return value;
  }
}

/**
 * The database file is readable by the server's user only (0600), in a folder created 0700; a
 * folder of ours that others could read is closed too (never a shared or sticky one such as /tmp).
 */
export function privateFile(file: string): void {
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = fs.statSync(dir);
  const sticky = (stat.mode & 0o1000) !== 0;
  if (!sticky && stat.uid === process.getuid?.() && (stat.mode & 0o077) !== 0) fs.chmodSync(dir, 0o700);
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  fs.chmodSync(file, 0o600);
}

/**
 * better-sqlite3 behind Kysely prepares every query anew; parsing and planning a wide `select *`
 * costs more than running it. Statements are kept by their SQL text (the most recent 500), as
 * SQLite itself recompiles a kept statement when the schema changes.
 */
function cachingStatements(sqlite: BetterSqlite3.Database) {
  const kept = new Map<string, BetterSqlite3.Statement>();
  let writes = 0;
  return {
    close: () => sqlite.close(),
    /** Statements run that may write (each is prepared once per run by the driver). */
    writes: () => writes,
    prepare(text: string) {
      let statement = kept.get(text);
      if (statement) {
        kept.delete(text);
      } else {
        statement = sqlite.prepare(text);
        if (kept.size >= 500) kept.delete(kept.keys().next().value!);
      }
      kept.set(text, statement);
      if (!statement.readonly) writes++;
      return statement;
    },
  };
}

/** Column types of the other kinds (text-like kinds are varchar of their longest length, DEFAULT_MAX_LENGTH). */
const COLUMN: Record<Exclude<FieldType, 'string' | 'email' | 'date'>, ColumnDataType> = {
  text: 'text',
  json: 'text',
  int: 'integer',
  bool: 'integer',
  number: 'double precision',
};

interface TableSpec {
  name: string;
  columns: Record<string, ColumnDataType>;
  indexes: string[][];
  unique?: string[][];
  /** Text columns searched for a part of their text: an FTS5 trigram index (SQLite) or pg_trgm (PostgreSQL). */
  textSearch?: string[];
  /**
   * The seller a record belongs to through its shop (owner rule `via: 'shop_id'`), copied into
   * SELLER_COLUMN by triggers so a seller's list is one index range in the list's order.
   */
  sellerVia?: { key: string; parent: string; owner: string };
  /** Rows are counted into PAGE_INDEX by id range, for everyone and per owner (this column). */
  paged?: { owner?: string };
}

/**
 * PAGE_INDEX holds, per table and per owner (0: everyone), how many rows fall in each range of
 * PAGE_BUCKET ids, kept by triggers in the writing transaction. A list's total is the sum of a few
 * hundred counters, and page N starts in the range where the running sum passes its offset: any
 * page, the last of a million rows included, reads at most PAGE_BUCKET index entries.
 */
export const PAGE_INDEX = 'page_index';
export const PAGE_BUCKET = 4096;

/** Server-only column of records owned through their shop: the shop's owner_id, kept by triggers. */
export const SELLER_COLUMN = 'seller_id';

/** Field types a part-of-text search can use an index for (numbers are searched as text by a scan). */
const TEXT_TYPES: readonly FieldType[] = ['string', 'email', 'text', 'date'];

/** The targets of an entity's search that have a text index. */
export function textSearchColumns(entity: EntityContract): string[] {
  const fields: Record<string, { type: FieldType }> = { created_at: { type: 'date' }, ...entity.fields };
  return (entity.search?.targets ?? []).filter((t) => t !== 'id' && fields[t] && TEXT_TYPES.includes(fields[t].type));
}

/** Columns and indexes of an entity's table: its fields, plus id and timestamps. */
function entityTable(entity: EntityContract): TableSpec {
  const columns: Record<string, ColumnDataType> = {};
  for (const [name, field] of Object.entries(entity.fields)) {
    columns[name] = field.type === 'string' || field.type === 'email' || field.type === 'date' ? `varchar(${maxLengthOf(field)})` : COLUMN[field.type];
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

/** Tables the server keeps beside the contract's entities. */
const SERVER_TABLES: TableSpec[] = [
  {
    name: 'sessions',
    // parent_id: the session a chat-events ticket was bought with (the stream lives as long as it does);
    // second_factor_at: when (ms) a second factor was last presented in this session (step-up).
    columns: { token_hash: 'varchar(64)', user_id: 'integer', expires_at: 'varchar(32)', created_at: 'varchar(32)', parent_id: 'integer', second_factor_at: 'bigint' },
    indexes: [['user_id'], ['expires_at']],
    unique: [['token_hash']],
  },
  {
    name: 'password_resets',
    columns: {
      token_hash: 'varchar(64)', user_id: 'integer', expires_at: 'varchar(32)', used_at: 'varchar(32)',
      created_at: 'varchar(32)',
    },
    indexes: [['user_id'], ['expires_at']],
    unique: [['token_hash']],
  },
  {
    // Each stored file and its owner: images by tag and index (1-4), documents by tag; an image's
    // thumbnail; when a record first named it (unattached files are swept after a grace period).
    name: 'uploads',
    columns: {
      kind: 'varchar(8)', tag: 'varchar(128)', idx: 'integer', owner_id: 'integer', shop_id: 'integer',
      file_name: 'varchar(160)', content_type: 'varchar(100)', size: 'integer', uploaded_by: 'integer',
      created_at: 'varchar(32)', thumb_name: 'varchar(160)', thumb_size: 'integer', attached_at: 'varchar(32)',
    },
    indexes: [['file_name'], ['owner_id'], ['attached_at', 'created_at']],
    unique: [['kind', 'tag', 'idx']],
  },
  {
    // The access tokens the database has seen (server/accessTokens.ts): a new one reaches full admins.
    name: 'access_tokens',
    columns: { token: 'varchar(64)', created_at: 'varchar(32)' },
    indexes: [],
    unique: [['token']],
  },
  {
    // A user's authenticator (TOTP) secret, sealed with MFA_KEY; confirmed_at is null while being set
    // up; last_step: the time step of the last code accepted (no code works twice).
    name: 'second_factors',
    columns: { user_id: 'integer', kind: 'varchar(16)', secret: 'text', confirmed_at: 'varchar(32)', last_step: 'bigint', created_at: 'varchar(32)' },
    indexes: [],
    unique: [['user_id', 'kind']],
  },
  {
    // Single-use recovery codes, as SHA-256 hashes (each code holds 120 random bits).
    name: 'recovery_codes',
    columns: { user_id: 'integer', code_hash: 'varchar(64)', used_at: 'varchar(32)', created_at: 'varchar(32)' },
    indexes: [['user_id']],
    unique: [['code_hash']],
  },
  {
    // WebAuthn credentials (passkeys): several per user, named.
    name: 'passkeys',
    columns: {
      user_id: 'integer', credential_id: 'varchar(1024)', public_key: 'text', counter: 'bigint', transports: 'varchar(255)',
      name: 'varchar(64)', created_at: 'varchar(32)', last_used_at: 'varchar(32)',
    },
    indexes: [['user_id']],
    unique: [['credential_id']],
  },
  {
    // WebAuthn challenges handed out and not yet answered: single use, short-lived (ms).
    name: 'webauthn_challenges',
    columns: { challenge: 'varchar(128)', user_id: 'integer', purpose: 'varchar(16)', expires_at: 'bigint' },
    indexes: [['expires_at']],
    unique: [['challenge']],
  },
  {
    name: 'rate_limits',
    columns: { key: 'varchar(160)', window_start: 'bigint', hits: 'integer' },
    indexes: [['window_start']],
    unique: [['key']],
  },
  {
    // Mails written with the events that cause them, delivered by server/mail.ts's worker: state
    // 'waiting' (null in rows of before), 'sent' or 'failed'; a worker holds a row while it sends
    // it (lease_until, leased_by). A mail holding a reset link keeps the link's hash and expiry: the
    // row goes once the link is delivered, used, ended or expired (see auth.ts's forgetResetLinks
    // and maintenance.ts); a private mail (`private`) goes once delivered too.
    name: 'mail_outbox',
    columns: {
      to_email: 'varchar(255)', subject: 'varchar(255)', body: 'text', created_at: 'varchar(32)', link_hash: 'varchar(64)', expires_at: 'varchar(32)',
      from_email: 'varchar(255)', html: 'text', serial: 'varchar(64)', private: 'integer', state: 'varchar(16)', attempts: 'integer',
      next_attempt_at: 'varchar(32)', lease_until: 'varchar(32)', leased_by: 'varchar(64)', last_error: 'text', sent_at: 'varchar(32)',
      updated_at: 'varchar(32)',
    },
    indexes: [['to_email'], ['link_hash'], ['expires_at'], ['state', 'next_attempt_at'], ['state', 'sent_at']],
  },
  // The marketplace's money: journal entries, postings, maintained balances, earnings and refunds.
  ...LEDGER_TABLES,
];

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

/** Quotes an identifier for DDL written by hand (names come from the contract, never from clients). */
const id = (name: string) => `"${name.replace(/"/g, '""')}"`;

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

/** The FTS5 table that indexes an entity's searched text. */
export const ftsTable = (table: string) => `${table}_fts`;

/**
 * SQLite: an external-content FTS5 table with the trigram tokenizer over the searched columns,
 * kept in step by triggers, so every write updates it in the write's own transaction.
 */
async function sqliteTextSearch(db: DB, table: string, columns: string[]): Promise<void> {
  const fts = ftsTable(table);
  const have = await sql<{ name: string }>`select name from pragma_table_info(${fts})`.execute(db);
  const same = have.rows.map((r) => r.name).join(',') === columns.join(',');
  const cols = columns.map(id).join(', ');
  const neu = columns.map((c) => `new.${id(c)}`).join(', ');
  const old = columns.map((c) => `old.${id(c)}`).join(', ');
  for (const suffix of ['ai', 'ad', 'au']) await sql.raw(`drop trigger if exists ${id(`${fts}_${suffix}`)}`).execute(db);
  if (!same) {
    await sql.raw(`drop table if exists ${id(fts)}`).execute(db);
    await sql
      .raw(`create virtual table ${id(fts)} using fts5(${cols}, content=${id(table)}, content_rowid='id', tokenize='trigram')`)
      .execute(db);
    await sql.raw(`insert into ${id(fts)}(${id(fts)}) values ('rebuild')`).execute(db);
  }
  await sql
    .raw(`create trigger ${id(`${fts}_ai`)} after insert on ${id(table)} begin
      insert into ${id(fts)}(rowid, ${cols}) values (new.id, ${neu}); end`)
    .execute(db);
  await sql
    .raw(`create trigger ${id(`${fts}_ad`)} after delete on ${id(table)} begin
      insert into ${id(fts)}(${id(fts)}, rowid, ${cols}) values ('delete', old.id, ${old}); end`)
    .execute(db);
  await sql
    .raw(`create trigger ${id(`${fts}_au`)} after update of ${cols} on ${id(table)} begin
      insert into ${id(fts)}(${id(fts)}, rowid, ${cols}) values ('delete', old.id, ${old});
      insert into ${id(fts)}(rowid, ${cols}) values (new.id, ${neu}); end`)
    .execute(db);
}

/** PostgreSQL: a pg_trgm GIN index on lower(column), the very expression the search compares. */
async function postgresTextSearch(db: DB, table: string, columns: string[]): Promise<void> {
  const there = await sql`select 1 from pg_extension where extname = 'pg_trgm'`.execute(db);
  if (!there.rows.length) return;
  for (const col of columns) {
    await sql
      .raw(`create index if not exists ${id(`${table}_${col}_trgm`)} on ${id(table)} using gin (lower(${id(col)}) gin_trgm_ops)`)
      .execute(db);
  }
}

/** Keeps SELLER_COLUMN equal to the owner of the record's shop, on insert, on a move, and when a shop changes hands. */
async function sellerTriggers(db: DB, dialect: Database['dialect'], table: string, via: NonNullable<TableSpec['sellerVia']>, backfill: boolean) {
  const t = id(table);
  const seller = id(SELLER_COLUMN);
  const key = id(via.key);
  const parent = id(via.parent);
  const owner = id(via.owner);
  const name = (suffix: string) => id(`${table}_seller_${suffix}`);
  if (dialect === 'sqlite') {
    for (const suffix of ['ai', 'au', 'parent']) await sql.raw(`drop trigger if exists ${name(suffix)}`).execute(db);
    const set = `update ${t} set ${seller} = (select ${owner} from ${parent} where id = new.${key}) where id = new.id;`;
    await sql.raw(`create trigger ${name('ai')} after insert on ${t} begin ${set} end`).execute(db);
    await sql.raw(`create trigger ${name('au')} after update of ${key} on ${t} begin ${set} end`).execute(db);
    await sql
      .raw(`create trigger ${name('parent')} after update of ${owner} on ${parent} begin
        update ${t} set ${seller} = new.${owner} where ${key} = new.id; end`)
      .execute(db);
  } else {
    await sql
      .raw(`create or replace function ${name('set')}() returns trigger language plpgsql as $$
        begin new.${seller} := (select ${owner} from ${parent} where id = new.${key}); return new; end $$`)
      .execute(db);
    await sql.raw(`drop trigger if exists ${name('set')} on ${t}`).execute(db);
    await sql
      .raw(`create trigger ${name('set')} before insert or update of ${key} on ${t} for each row execute function ${name('set')}()`)
      .execute(db);
    await sql
      .raw(`create or replace function ${name('parent')}() returns trigger language plpgsql as $$
        begin update ${t} set ${seller} = new.${owner} where ${key} = new.id; return null; end $$`)
      .execute(db);
    await sql.raw(`drop trigger if exists ${name('parent')} on ${parent}`).execute(db);
    await sql
      .raw(`create trigger ${name('parent')} after update of ${owner} on ${parent} for each row
        when (old.${owner} is distinct from new.${owner}) execute function ${name('parent')}()`)
      .execute(db);
  }
  if (backfill) {
    await sql.raw(`update ${t} set ${seller} = (select ${owner} from ${parent} where ${parent}.id = ${t}.${key})`).execute(db);
  }
}

/** Keeps PAGE_INDEX counting a table's rows by id range, for everyone and for each owner. */
async function pageTriggers(db: DB, dialect: Database['dialect'], table: string, owner: string | undefined) {
  const t = id(table);
  const name = (suffix: string) => id(`${table}_pages_${suffix}`);
  const tbl = `'${table.replace(/'/g, "''")}'`;
  const o = owner && id(owner);
  const add = (row: 'new' | 'old', who: string, delta: 1 | -1) =>
    `insert into ${PAGE_INDEX} (tbl, owner, bucket, n) select ${tbl}, ${who}, ${row}.id / ${PAGE_BUCKET}, ${delta} where ${who} is not null
       on conflict (tbl, owner, bucket) do update set n = ${PAGE_INDEX}.n + ${delta};`;
  if (dialect === 'sqlite') {
    for (const suffix of ['ai', 'ad', 'au']) await sql.raw(`drop trigger if exists ${name(suffix)}`).execute(db);
    await sql.raw(`create trigger ${name('ai')} after insert on ${t} begin ${add('new', '0', 1)} ${o ? add('new', `new.${o}`, 1) : ''} end`).execute(db);
    await sql.raw(`create trigger ${name('ad')} after delete on ${t} begin ${add('old', '0', -1)} ${o ? add('old', `old.${o}`, -1) : ''} end`).execute(db);
    if (o) {
      await sql
        .raw(`create trigger ${name('au')} after update of ${o} on ${t} when old.${o} is not new.${o} begin
          ${add('old', `old.${o}`, -1)} ${add('new', `new.${o}`, 1)} end`)
        .execute(db);
    }
  } else {
    await sql
      .raw(`create or replace function ${name('count')}() returns trigger language plpgsql as $$ begin
        if tg_op = 'INSERT' then ${add('new', '0', 1)} ${o ? add('new', `new.${o}`, 1) : ''}
        elsif tg_op = 'DELETE' then ${add('old', '0', -1)} ${o ? add('old', `old.${o}`, -1) : ''}
        elsif old.${o ?? 'id'} is distinct from new.${o ?? 'id'} then ${o ? `${add('old', `old.${o}`, -1)} ${add('new', `new.${o}`, 1)}` : 'null;'}
        end if;
        return null; end $$`)
      .execute(db);
    await sql.raw(`drop trigger if exists ${name('count')} on ${t}`).execute(db);
    await sql
      .raw(`create trigger ${name('count')} after insert or delete${o ? ` or update of ${o}` : ''} on ${t} for each row execute function ${name('count')}()`)
      .execute(db);
  }
  // Rows written before the counters existed are counted once.
  const counted = await db.selectFrom(PAGE_INDEX).select('tbl').where('tbl', '=', table).limit(1).executeTakeFirst();
  if (!counted) {
    await sql.raw(`insert into ${PAGE_INDEX} (tbl, owner, bucket, n) select ${tbl}, 0, id / ${PAGE_BUCKET}, count(*) from ${t} group by id / ${PAGE_BUCKET}`).execute(db);
    if (o) {
      await sql
        .raw(`insert into ${PAGE_INDEX} (tbl, owner, bucket, n) select ${tbl}, ${o}, id / ${PAGE_BUCKET}, count(*) from ${t}
          where ${o} is not null group by ${o}, id / ${PAGE_BUCKET}`)
        .execute(db);
    }
  }
}

/**
 * PostgreSQL: after rows were written with explicit ids (reference data), the id sequence moves past
 * them so the next insert does not collide. SQLite needs nothing.
 */
export async function syncIdSequence(db: DB, table: string): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql
    .raw(`select setval(pg_get_serial_sequence('${id(table).replace(/'/g, "''")}', 'id'), coalesce((select max(id) from ${id(table)}), 0) + 1, false)`)
    .execute(db);
}

/**
 * A text LIKE that is case-insensitive on both databases. `asText` casts a non-text column (a
 * number) first; PostgreSQL has no lower() of a number. Text columns are compared as lower(column),
 * the expression their trigram index is built on.
 */
export function likeInsensitive(column: string, pattern: string, asText = false) {
  const value = asText ? sql`cast(${sql.ref(column)} as text)` : sql.ref(column);
  return sql<boolean>`lower(${value}) like lower(${pattern}) escape '\\'`;
}

/** Which database a query builder speaks to. */
export const dialectOf = (db: DB): Database['dialect'] => (db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite');

export const now = () => new Date().toISOString();
