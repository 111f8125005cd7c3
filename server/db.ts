/**
 * The database: SQLite through better-sqlite3 by default, PostgreSQL when DATABASE_URL is set.
 * Tables are derived from the contract's field lists, so declaring an entity declares its table;
 * `migrate` creates what is missing and adds new columns, and never drops anything.
 */
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, sql, type ColumnDataType } from 'kysely';
import type { EntityContract, FieldType, Registry } from '../contract';
import { registry as defaultRegistry } from './registry';

/** Tables are declared by the contract at run time, so rows are typed loosely here. */
export type Row = Record<string, unknown>;
export type DB = Kysely<Record<string, Row>>;

export interface Database {
  db: DB;
  dialect: 'sqlite' | 'postgres';
  close(): Promise<void>;
}

export function openDatabase(opts: { file?: string; url?: string }): Database {
  if (opts.url) {
    const pool = new pg.Pool({ connectionString: opts.url });
    const db: DB = new Kysely({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  const file = opts.file ?? ':memory:';
  if (file !== ':memory:') privateFile(file);
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  if (file !== ':memory:') for (const side of ['-wal', '-shm']) if (fs.existsSync(file + side)) fs.chmodSync(file + side, 0o600);
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  const db: DB = new Kysely({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
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

const COLUMN: Record<FieldType, ColumnDataType> = {
  string: 'varchar(255)',
  email: 'varchar(255)',
  text: 'text',
  json: 'text',
  date: 'varchar(32)',
  int: 'integer',
  bool: 'integer',
  number: 'double precision',
};

interface TableSpec {
  name: string;
  columns: Record<string, ColumnDataType>;
  indexes: string[][];
  unique?: string[][];
}

/** Columns and indexes of an entity's table: its fields, plus id and timestamps. */
function entityTable(entity: EntityContract): TableSpec {
  const columns: Record<string, ColumnDataType> = {};
  for (const [name, field] of Object.entries(entity.fields)) {
    columns[name] = (field.type === 'string' || field.type === 'email') && field.max ? `varchar(${field.max})` : COLUMN[field.type];
  }
  columns.created_at = 'varchar(32)';
  columns.updated_at = 'varchar(32)';
  const keys = Object.keys(entity.fields).filter((f) => f.endsWith('_id'));
  const searched = (entity.search?.targets ?? []).filter((t) => t !== 'id' && columns[t]);
  const indexes = [...keys, ...searched].map((c) => [c]);
  return { name: entity.name, columns, indexes };
}

/** Tables the server keeps beside the contract's entities. */
const SERVER_TABLES: TableSpec[] = [
  {
    name: 'sessions',
    columns: { token_hash: 'varchar(64)', user_id: 'integer', expires_at: 'varchar(32)', created_at: 'varchar(32)' },
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
    // Each stored file and its owner: images by tag and index (1-4), documents by tag.
    name: 'uploads',
    columns: {
      kind: 'varchar(8)', tag: 'varchar(128)', idx: 'integer', owner_id: 'integer', shop_id: 'integer',
      file_name: 'varchar(160)', content_type: 'varchar(100)', size: 'integer', uploaded_by: 'integer',
      created_at: 'varchar(32)',
    },
    indexes: [['file_name'], ['owner_id']],
    unique: [['kind', 'tag', 'idx']],
  },
  {
    name: 'rate_limits',
    columns: { key: 'varchar(160)', window_start: 'bigint', hits: 'integer' },
    indexes: [['window_start']],
    unique: [['key']],
  },
  {
    name: 'mail_outbox',
    columns: { to_email: 'varchar(255)', subject: 'varchar(255)', body: 'text', created_at: 'varchar(32)' },
    indexes: [['to_email']],
  },
];

/** Server-only columns of contract tables. */
const EXTRA_COLUMNS: Record<string, Record<string, ColumnDataType>> = {
  users: { password_hash: 'varchar(255)', source: 'varchar(32)' },
};
const EXTRA_UNIQUE: Record<string, string[][]> = { users: [['email']] };
const EXTRA_INDEXES: Record<string, string[][]> = {
  users: [['phone']],
  shops: [['owner_id', 'id']],
  // The dashboard's aggregates read these alone (covering): all orders, a seller's shops, a range of days.
  orders: [['currency', 'paid_total_fxws'], ['shop_id', 'created_at', 'status', 'currency', 'paid_total_fxws'], ['created_at', 'shop_id', 'status', 'currency', 'paid_total_fxws']],
};

export function tableSpecs(registry: Registry = defaultRegistry): TableSpec[] {
  const entities = registry.entities.map((e) => {
    const spec = entityTable(e);
    Object.assign(spec.columns, EXTRA_COLUMNS[e.name]);
    spec.unique = EXTRA_UNIQUE[e.name];
    spec.indexes.push(...(EXTRA_INDEXES[e.name] ?? []));
    return spec;
  });
  return [...entities, ...SERVER_TABLES];
}

export async function migrate({ db, dialect }: Database, registry: Registry = defaultRegistry): Promise<void> {
  const existing = new Map((await db.introspection.getTables()).map((t) => [t.name, t]));
  for (const table of tableSpecs(registry)) {
    const have = existing.get(table.name);
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
        if (!names.has(col)) await db.schema.alterTable(table.name).addColumn(col, type).execute();
      }
    }
    for (const cols of table.indexes) {
      await db.schema.createIndex(`${table.name}_${cols.join('_')}_idx`).ifNotExists().on(table.name).columns(cols).execute();
    }
    for (const cols of table.unique ?? []) {
      await db.schema.createIndex(`${table.name}_${cols.join('_')}_key`).ifNotExists().unique().on(table.name).columns(cols).execute();
    }
  }
}

/** A text LIKE that is case-insensitive on both databases. */
export function likeInsensitive(column: string, pattern: string) {
  return sql<boolean>`lower(${sql.ref(column)}) like ${pattern.toLowerCase()} escape '\\'`;
}

export const now = () => new Date().toISOString();
