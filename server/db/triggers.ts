/**
 * What triggers keep in step with a table in the writing transaction: its text-search index, the
 * seller column of records owned through their shop, the page counters of its lists, and the tables
 * of sums derived from it.
 */
import { sql } from 'kysely';
import type { Database, DB } from './connection';
import { id } from './queries';
import type { TableSpec } from './schema';

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

/** The FTS5 table that indexes an entity's searched text. */
export const ftsTable = (table: string) => `${table}_fts`;

/**
 * SQLite: an external-content FTS5 table with the trigram tokenizer over the searched columns,
 * kept in step by triggers, so every write updates it in the write's own transaction.
 */
export async function sqliteTextSearch(db: DB, table: string, columns: readonly string[]): Promise<void> {
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

/** The name of PostgreSQL's trigram index of a table's searched column. */
export const trigramIndex = (table: string, column: string) => `${table}_${column}_trgm`;

/**
 * PostgreSQL: a pg_trgm GIN index on lower(column), the very expression the search compares,
 * written in place by each write (`fastupdate = off`). With GIN's default pending list, a write's
 * entries wait in an unsorted list that every search reads whole until a vacuum or a 4 MB list moves
 * them into the index: searches slowed with the writes since (the orders search's p50 from 3.3 to 7.5
 * ms after 12,000 order updates at a million orders), in a saw-tooth no benchmark without writes sees.
 * A write pays for its own entries instead (docs/decisions.md). An index made before with the list on
 * is switched, and its list emptied.
 */
export async function postgresTextSearch(db: DB, table: string, columns: readonly string[]): Promise<void> {
  const there = await sql`select 1 from pg_extension where extname = 'pg_trgm'`.execute(db);
  if (!there.rows.length) return;
  for (const col of columns) {
    const index = trigramIndex(table, col);
    await sql
      .raw(`create index if not exists ${id(index)} on ${id(table)} using gin (lower(${id(col)}) gin_trgm_ops) with (fastupdate = off)`)
      .execute(db);
    const listed = await sql<{ pending: boolean }>`select not coalesce('fastupdate=off' = any(reloptions), false) as pending
      from pg_class where oid = to_regclass(${id(index)})`.execute(db);
    if (!listed.rows[0]?.pending) continue;
    await sql.raw(`alter index ${id(index)} set (fastupdate = off)`).execute(db);
    await sql`select gin_clean_pending_list(to_regclass(${id(index)}))`.execute(db);
  }
}

/** Keeps SELLER_COLUMN equal to the owner of the record's shop, on insert, on a move, and when a shop changes hands. */
export async function sellerTriggers(db: DB, dialect: Database['dialect'], table: string, via: NonNullable<TableSpec['sellerVia']>, backfill: boolean) {
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
export async function pageTriggers(db: DB, dialect: Database['dialect'], table: string, owner: string | undefined) {
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

/** An expression of a source row: `r` is `new.`, `old.` or '' (the table's own columns, when counting existing rows). */
type OfRow = (r: string) => string;

/**
 * A table of sums kept from a source table by row triggers in the writing transaction: one row per
 * key, each sum adding what a source row brings (with its sign: an insert adds it, a delete takes it
 * back, an update does both).
 */
export interface KeptSums {
  table: string;
  source: string;
  /** The triggers' name (and on PostgreSQL their function's). */
  trigger: string;
  /** The key columns: their type and their value for a source row. */
  keys: Record<string, { type: string; of: OfRow }>;
  /** The summed columns: their type and what one source row adds. */
  sums: Record<string, { type: string; of: OfRow }>;
  /** The source rows that count (all when absent). */
  where?: OfRow;
  /** The source columns whose change moves a row's sums. */
  watched: string[];
}

/** Creates a KeptSums table when it did not exist (and counts the source's rows once), and (re)creates its triggers. */
export async function keptSumsTriggers(db: DB, dialect: Database['dialect'], kept: KeptSums, existed: boolean): Promise<void> {
  const t = id(kept.table);
  const keys = Object.keys(kept.keys);
  const sums = Object.keys(kept.sums);
  const columns = [...keys, ...sums].map(id).join(', ');
  if (!existed) {
    const defs = Object.entries({ ...kept.keys, ...kept.sums }).map(([c, { type }]) => `${id(c)} ${type} not null`);
    await sql.raw(`create table ${t} (${defs.join(', ')}, constraint ${id(`${kept.table}_pk`)} primary key (${keys.map(id).join(', ')}))`).execute(db);
  }
  const where = (r: string) => (kept.where ? kept.where(r) : 'true');
  // SQLite reads `insert … select … on conflict` only when the select has a where clause.
  const add = (r: 'new.' | 'old.', sign: 1 | -1) =>
    `insert into ${t} (${columns}) select ${[...keys.map((k) => kept.keys[k].of(r)), ...sums.map((s) => `${sign} * ${kept.sums[s].of(r)}`)].join(', ')}
       where ${where(r)} on conflict (${keys.map(id).join(', ')}) do update set ${sums.map((s) => `${id(s)} = ${t}.${id(s)} + excluded.${id(s)}`).join(', ')};`;
  const source = id(kept.source);
  const watched = kept.watched.map(id).join(', ');
  const name = (suffix: string) => id(suffix ? `${kept.trigger}_${suffix}` : kept.trigger);
  if (dialect === 'sqlite') {
    for (const suffix of ['ai', 'ad', 'au']) await sql.raw(`drop trigger if exists ${name(suffix)}`).execute(db);
    await sql.raw(`create trigger ${name('ai')} after insert on ${source} begin ${add('new.', 1)} end`).execute(db);
    await sql.raw(`create trigger ${name('ad')} after delete on ${source} begin ${add('old.', -1)} end`).execute(db);
    await sql.raw(`create trigger ${name('au')} after update of ${watched} on ${source} begin ${add('old.', -1)} ${add('new.', 1)} end`).execute(db);
  } else {
    await sql
      .raw(`create or replace function ${name('')}() returns trigger language plpgsql as $$ begin
        if tg_op in ('UPDATE', 'DELETE') then ${add('old.', -1)} end if;
        if tg_op in ('UPDATE', 'INSERT') then ${add('new.', 1)} end if;
        return null; end $$`)
      .execute(db);
    await sql.raw(`drop trigger if exists ${name('')} on ${source}`).execute(db);
    await sql.raw(`create trigger ${name('')} after insert or delete or update of ${watched} on ${source} for each row execute function ${name('')}()`).execute(db);
  }
  // Source rows written before the table existed are counted once.
  if (!existed) {
    const keyed = keys.map((k) => kept.keys[k].of(''));
    await sql
      .raw(`insert into ${t} (${columns}) select ${[...keyed, ...sums.map((s) => `sum(${kept.sums[s].of('')})`)].join(', ')}
        from ${source} where ${where('')} group by ${keyed.map((_, i) => i + 1).join(', ')}`)
      .execute(db);
  }
}
