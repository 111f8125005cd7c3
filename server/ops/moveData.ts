/**
 * Moves the embedded database (DATA_DIR) into an empty PostgreSQL database: the tables are created
 * there as the server creates them (migrate), then every table's rows are copied as they are, ids
 * included, in batches, in one transaction (all or nothing; the text indexes made again after the
 * rows are in), the source read in one read
 * transaction (one consistent moment). The counters the triggers keep (list pages, order
 * statistics, a record's seller) are copied with the rows, the triggers paused meanwhile; each id
 * sequence then continues after the highest id.
 */
import fs from 'node:fs';
import path from 'node:path';
import SQLite from '../sqlite';
import { sql } from 'kysely';
import { migrate, openDatabase, syncIdSequence, type DB } from '../db';
import '../derivedTables';
import { CommandError, DATABASE_FILE } from './backup';

/** Rows per statement: each column travels as one array parameter (unnest), whatever the batch. */
const BATCH = 5_000;

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Each table's columns and their types ('int4', 'varchar', …). */
async function tablesOf(db: DB): Promise<Map<string, Map<string, string>>> {
  const rows = await sql<{ table_name: string; column_name: string; udt_name: string }>`
    select table_name, column_name, udt_name from information_schema.columns
    where table_schema = current_schema() order by table_name, ordinal_position`.execute(db);
  const tables = new Map<string, Map<string, string>>();
  for (const r of rows.rows) {
    if (!tables.has(r.table_name)) tables.set(r.table_name, new Map());
    tables.get(r.table_name)!.set(r.column_name, r.udt_name);
  }
  return tables;
}

/**
 * The target's text-search (GIN) indexes, as PostgreSQL defines them. They are dropped while the rows
 * are copied and made again from these definitions once they are in: built once over the copied rows
 * rather than written row by row (their entries go in at each write, `fastupdate = off`). 200,000 rows
 * under two trigram indexes took 20-23 s row by row, 1.4-1.7 s with the indexes built after.
 */
async function textIndexesOf(db: DB): Promise<{ name: string; definition: string }[]> {
  const rows = await sql<{ name: string; definition: string }>`select indexname as name, indexdef as definition from pg_indexes
    where schemaname = current_schema() and indexdef like '% USING gin %' order by indexname`.execute(db);
  return rows.rows;
}

/** Tables of the target that already hold rows. */
async function nonEmpty(db: DB): Promise<string[]> {
  const found: string[] = [];
  for (const table of (await tablesOf(db)).keys()) {
    const row = await sql<{ any: boolean }>`select exists (select 1 from ${sql.table(table)}) as any`.execute(db);
    if (row.rows[0]?.any) found.push(table);
  }
  return found;
}

export async function moveData(opts: { dataDir: string; to: string; progress?: (table: string, done: number, total: number) => void }): Promise<Record<string, number>> {
  if (!/^postgres(ql)?:\/\//.test(opts.to)) throw new CommandError('--to must be a PostgreSQL address: postgres://user:password@host:5432/database');
  const file = path.join(opts.dataDir, DATABASE_FILE);
  if (!fs.existsSync(file)) throw new CommandError(`There is no database at ${file} (DATA_DIR)`);
  // The source is brought up to this version's tables first (nothing is dropped).
  const embedded = openDatabase({ file });
  await migrate(embedded);
  await embedded.close();

  const target = openDatabase({ url: opts.to });
  const source = new SQLite(file, { fileMustExist: true });
  try {
    const full = await nonEmpty(target.db).catch((error: Error) => {
      throw new CommandError(`The PostgreSQL database cannot be reached: ${error.message}`);
    });
    if (full.length) throw new CommandError(`The PostgreSQL database is not empty (${full.slice(0, 5).join(', ')} hold rows): move into a new, empty database`);
    await migrate(target);
    const targetTables = await tablesOf(target.db);
    const textIndexes = await textIndexesOf(target.db);
    // Tables of the embedded database (its text-search tables are SQLite's own and have no counterpart).
    const sourceTables = (source.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name").pluck().all() as string[])
      .filter((name) => targetTables.has(name));
    const moved: Record<string, number> = {};
    source.exec('begin');
    await target.db.transaction().execute(async (trx) => {
      for (const index of textIndexes) await sql`drop index ${sql.id(index.name)}`.execute(trx);
      for (const table of sourceTables) {
        const have = new Set((source.prepare(`select name from pragma_table_info(?)`).pluck().all(table) as string[]));
        const types = targetTables.get(table)!;
        const columns = [...types.keys()].filter((c) => have.has(c));
        const total = Number(source.prepare(`select count(*) from ${quote(table)}`).pluck().get());
        // insert … select * from unnest($1::int4[], $2::varchar[], …): a column per parameter.
        const insert = (values: unknown[][]) => sql`insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))})
          select * from unnest(${sql.join(values.map((v, i) => sql`${v}::${sql.raw(`${quote(types.get(columns[i])!)}[]`)}`))})`;
        await sql`alter table ${sql.table(table)} disable trigger user`.execute(trx);
        let done = 0;
        let batch: unknown[][] = columns.map(() => []);
        let size = 0;
        const flush = async () => {
          if (!size) return;
          await insert(batch).execute(trx);
          done += size;
          batch = columns.map(() => []);
          size = 0;
          opts.progress?.(table, done, total);
        };
        const rows = source.prepare(`select ${columns.map(quote).join(', ')} from ${quote(table)} order by rowid`).raw().iterate() as IterableIterator<unknown[]>;
        for (const row of rows) {
          for (let c = 0; c < columns.length; c++) batch[c].push(row[c]);
          if (++size >= BATCH) await flush();
        }
        await flush();
        if (total === 0) opts.progress?.(table, 0, 0);
        await sql`alter table ${sql.table(table)} enable trigger user`.execute(trx);
        if (columns.includes('id')) await syncIdSequence(trx, table);
        moved[table] = done;
      }
      for (const index of textIndexes) await sql.raw(index.definition).execute(trx);
    });
    source.exec('commit');
    await sql`analyze`.execute(target.db);
    return moved;
  } finally {
    if (source.inTransaction) source.exec('rollback');
    source.close();
    await target.close();
  }
}
