/**
 * Opening the database: SQLite through better-sqlite3 by default, PostgreSQL when DATABASE_URL is
 * set, with each one's settings; the database file kept private.
 */
import fs from 'node:fs';
import path from 'node:path';
import SQLite from '../sqlite';
import type BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import {
  CompiledQuery, Kysely, PostgresDialect, SqliteDialect, SqliteDriver,
  type DatabaseConnection, type SqliteDialectConfig,
} from 'kysely';
import { postgresGeneration, watchGeneration } from './generation';
import { preparingPool } from './prepared';

/** Tables are declared by the contract at run time, so rows are typed loosely here. */
export type Row = Record<string, unknown>;
export type DB = Kysely<Record<string, Row>>;

export interface Database {
  db: DB;
  dialect: 'sqlite' | 'postgres';
  /** Connections to the database: how many are busy and how many are open (PostgreSQL's pool; SQLite keeps one). */
  connections(): { inUse: number; open: number };
  /**
   * Opens every connection the database keeps (PostgreSQL's pool; SQLite's one is open already), so
   * that the first requests after a start do not each wait for one to be opened.
   */
  openConnections(): Promise<void>;
  close(): Promise<void>;
}

/** What an idle PostgreSQL connection's end is told with, by default: a line on the error output. */
const reportConnectionError = (error: Error) => console.error(`A database connection ended while idle (another is opened when needed): ${error.message}`);

/**
 * `prepare` (PostgreSQL; PG_PREPARED_STATEMENTS, on unless `0`): a list page's reads are prepared once per
 * connection and run by name (prepared.ts). Off for a connection pooler that hands one client's
 * statements to several server connections (PgBouncer before 1.21 in transaction mode).
 */
export function openDatabase(opts: { file?: string; url?: string; onConnectionError?: (error: Error) => void; prepare?: boolean }): Database {
  if (opts.url) {
    // A pool of a fixed size: its connections, once open, are kept (pg-pool's `min`) rather than
    // closed after 10 s without a query and opened again, at a cost, by the next busy moment.
    const size = Number(process.env.PG_POOL_SIZE ?? 10);
    const pool = new pg.Pool({ connectionString: opts.url, max: size, min: size });
    // PostgreSQL may end an idle connection (a restart, a failover, an operator's pg_terminate_backend):
    // the pool drops it, and without a listener its error would end the whole process.
    pool.on('error', opts.onConnectionError ?? reportConnectionError);
    const generation = postgresGeneration(async () => (await pool.query<{ s: string }>('select pg_current_snapshot()::text as s')).rows[0].s);
    const prepare = opts.prepare ?? process.env.PG_PREPARED_STATEMENTS !== '0';
    const db: DB = new Kysely({ dialect: new PostgresDialect({ pool: prepare ? preparingPool(pool) : pool }), plugins: [generation.writes] });
    generation.watch(db);
    // Every connection taken at once (the pool opens those it lacks), then all handed back.
    const openConnections = async () => {
      const taken = await Promise.allSettled(Array.from({ length: size }, () => pool.connect()));
      for (const t of taken) if (t.status === 'fulfilled') t.value.release();
      const failed = taken.find((t) => t.status === 'rejected');
      if (failed) throw failed.reason;
    };
    return { db, dialect: 'postgres', connections: () => ({ inUse: pool.totalCount - pool.idleCount, open: pool.totalCount }), openConnections, close: () => db.destroy() };
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
  watchGeneration(db, () => `${dataVersion.get() as number}.${statements.writes()}`, statements.writes);
  return { db, dialect: 'sqlite', connections: () => ({ inUse: sqlite.inTransaction ? 1 : 0, open: sqlite.open ? 1 : 0 }), openConnections: async () => undefined, close: () => db.destroy() };
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
 *
 * Rows are read as arrays and made into objects by a function built from the statement's column
 * names (one object literal, so every row has the same shape): better-sqlite3 setting each
 * property from C++ costs as much again as reading the row.
 */
function cachingStatements(sqlite: BetterSqlite3.Database) {
  const kept = new Map<string, SqliteStatement>();
  let writes = 0;
  return {
    close: () => sqlite.close(),
    /** Statements run that may write (each is prepared once per run by the driver). */
    writes: () => writes,
    prepare(text: string): SqliteStatement {
      let statement = kept.get(text);
      if (statement) {
        kept.delete(text);
      } else {
        statement = withRowObjects(sqlite.prepare(text));
        if (kept.size >= 500) kept.delete(kept.keys().next().value!);
      }
      kept.set(text, statement);
      if (!statement.readonly) writes++;
      return statement;
    },
  };
}

type SqliteStatement = Pick<BetterSqlite3.Statement, 'reader' | 'readonly' | 'run'> & {
  all(parameters: readonly unknown[]): unknown[];
  iterate(parameters: readonly unknown[]): IterableIterator<unknown>;
};

function withRowObjects(statement: BetterSqlite3.Statement): SqliteStatement {
  if (!statement.reader) return statement;
  statement.raw(true);
  let names: string[] = [];
  let make = (values: unknown[]): Row => Object.fromEntries(values.map((v, i) => [names[i], v]));
  const rowOf = (values: unknown[]) => {
    // A column added meanwhile (another process migrating) recompiles the statement: names read again.
    if (values.length !== names.length) {
      names = statement.columns().map((c) => c.name);
      // A literal with the names as keys, the later of two equal names winning (as better-sqlite3 does).
      if (!names.includes('__proto__')) make = new Function('v', `return { ${names.map((n, i) => `${JSON.stringify(n)}: v[${i}]`).join(', ')} };`) as typeof make;
    }
    return make(values);
  };
  return {
    reader: true,
    readonly: statement.readonly,
    run: (...args) => statement.run(...args),
    all: (parameters) => (statement.all(parameters) as unknown[][]).map(rowOf),
    *iterate(parameters) {
      for (const values of statement.iterate(parameters) as IterableIterator<unknown[]>) yield rowOf(values);
    },
  };
}
