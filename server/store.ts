/**
 * Reading and writing the records of any contract entity: pages, searches, linked records.
 */
import { sql, type SelectQueryBuilder } from 'kysely';
import { MAX_SEARCH_ROWS, type EntityContract, type Paginated, type Relation } from '../contract';
import { GenerationCache, PAGE_BUCKET, PAGE_INDEX, SELLER_COLUMN, bound, dialectOf, ftsTable, likeInsensitive, now, readPlanned, readShaped, textSearchColumns, type DB, type Row } from './db';
import { scoped, type Scope } from './guard';
import { badRequest, forbidden, notFound } from './errors';
import { present } from './records';
import { rarePieces } from './trigrams';


export interface ListQuery {
  page: number;
  perPage: number;
  /** Extension: order by a column of the entity. */
  sort?: { field: string; desc: boolean };
  /** Extension: equality filters on columns of the entity. */
  filter?: Row;
  /** Extension: only the caller's own records, even for an admin who may see all ('My Shops'). */
  own?: boolean;
  /** Only these ids (the REST face's getMany, one record by id). */
  ids?: readonly number[];
  /** Search: text matched in these columns (id exactly, others as a part). */
  search?: { value: string; targets: readonly string[]; plain?: boolean };
}

const columnsOf = (entity: EntityContract) => new Set(['id', 'created_at', ...Object.keys(entity.fields)]);

/** Linked records read one relation at a time (single records; SQLite's 'many' relations), kept while the database is unchanged (most pages link to the same few). */
const linkedRows = new GenerationCache<Row[]>(1000, { keptWhenAskedAgain: true });

/** The column (PostgreSQL), or the columns' prefix (SQLite), a row carries a relation's linked records in (withLinked). */
const linkedColumn = (rel: Relation) => `linked_${rel.as}`;

/**
 * The statement that reads a page's rows reads their linked records too. PostgreSQL: each relation as
 * a json column (one round trip where there was one more per relation); linked rows keep their picked
 * columns in order, 'many' ordered by id. SQLite: each 'one' relation joined, its picked columns named
 * `linked_<as>.<column>` (one statement where there was one more per relation; a 'many' relation is
 * read by presentMany). `from` is the table or alias the rows are read from; the query must name its
 * own columns by table (`selectAll(table)`), as the joined tables' come beside them.
 */
function withLinked<Q extends SelectQueryBuilder<Record<string, Row>, string, object>>(db: DB, entity: EntityContract, from: string, query: Q): Q {
  const postgres = dialectOf(db) === 'postgres';
  return (entity.relations ?? []).reduce((q, rel) => {
    if (!postgres) {
      if (rel.kind !== 'one') return q;
      const alias = linkedColumn(rel);
      // The linked row's id marks whether there is one (the join's columns are all null when not).
      return q
        .leftJoin(`${rel.entity} as ${alias}`, `${alias}.id`, `${from}.${rel.key}`)
        .select([...new Set(['id', ...rel.pick])].map((p) => sql.ref(`${alias}.${p}`).as(`${alias}.${p}`))) as unknown as Q;
    }
    const object = sql`json_build_object(${sql.join(rel.pick.map((p) => sql`${sql.lit(p)}, ${sql.ref(`linked.${p}`)}`))})`;
    const linked =
      rel.kind === 'one'
        ? sql`(select ${object} from ${sql.table(rel.entity)} as linked where linked.id = ${sql.ref(`${from}.${rel.key}`)})`
        : sql`(select coalesce(json_agg(${object} order by linked.id), '[]') from ${sql.table(rel.entity)} as linked where ${sql.ref(`linked.${rel.key}`)} = ${sql.ref(`${from}.id`)})`;
    return q.select(linked.as(linkedColumn(rel))) as Q;
  }, query);
}

/** The names a relation's linked records are carried under in a row (withLinked), worked out once. */
const carriedNames = new WeakMap<Relation, { column: string; id: string; picks: [string, string][] }>();

/**
 * A relation's linked record (or records) as the row's own statement carried them (withLinked), or
 * undefined when it did not: a 'one' relation whose linked row is missing is carried as null.
 */
function carried(rel: Relation, row: Row): unknown {
  let names = carriedNames.get(rel);
  if (!names) {
    const column = linkedColumn(rel);
    carriedNames.set(rel, (names = { column, id: `${column}.id`, picks: rel.pick.map((p) => [p, `${column}.${p}`]) }));
  }
  if (names.column in row) return row[names.column] ?? null;
  if (!(names.id in row)) return undefined;
  if (row[names.id] === null) return null;
  const one: Row = {};
  for (const [pick, name] of names.picks) one[pick] = row[name];
  return one;
}

/**
 * Rows in wire shape, with their linked records: those the rows' own statement carried (withLinked),
 * the others loaded in one query per relation.
 */
export async function presentMany(db: DB, entity: EntityContract, rows: Row[]): Promise<Row[]> {
  const out = rows.map((r) => present(entity, r));
  const relations: Relation[] = [];
  for (const rel of entity.relations ?? []) {
    if (rows.length && carried(rel, rows[0]) !== undefined) rows.forEach((r, i) => (out[i][rel.as] = carried(rel, r)));
    else relations.push(rel);
  }
  const read = (key: unknown[], query: () => Promise<Row[]>) => linkedRows.get(db, JSON.stringify(key), query);
  for (const rel of relations) {
    if (rel.kind === 'one') {
      const keys = [...new Set(rows.map((r) => r[rel.key]).filter((k) => k !== null && k !== undefined))] as number[];
      const linked = keys.length
        ? await read([rel.entity, rel.pick, keys], () =>
            readShaped(db, JSON.stringify(['one', rel.entity, rel.pick, keys.length]), keys, (slot) =>
              db.selectFrom(rel.entity).select([...rel.pick]).where('id', 'in', keys.map((_, i) => slot(i))),
            ),
          )
        : [];
      const byId = new Map(linked.map((l) => [Number(l.id), l]));
      // A copy each: kept rows are shared by every answer that reads them.
      rows.forEach((r, i) => {
        const one = byId.get(Number(r[rel.key]));
        out[i][rel.as] = one ? { ...one } : null;
      });
    } else {
      const ids = rows.map((r) => Number(r.id));
      const columns = [...new Set([...rel.pick, rel.key])];
      const linked = ids.length
        ? await read([rel.entity, columns, ids], () =>
            readShaped(db, JSON.stringify(['many', rel.entity, columns, rel.key, ids.length]), ids, (slot) =>
              db.selectFrom(rel.entity).select(columns).where(rel.key, 'in', ids.map((_, i) => slot(i))).orderBy('id'),
            ),
          )
        : [];
      rows.forEach((r, i) => {
        out[i][rel.as] = linked
          .filter((l) => Number(l[rel.key]) === Number(r.id))
          .map((l) => Object.fromEntries(rel.pick.map((p) => [p, l[p]])));
      });
    }
  }
  return out;
}

/** A search value long enough for the trigram index: 3 characters (1–2 character values scan). */
const TRIGRAM = 3;

/** What narrows a search before the rule decides (see planOf). */
interface Narrowed {
  /** SQLite: the few rows the FTS5 index found. */
  found?: unknown[];
  /** A short value: the lowest id of the newest SHORT_WINDOW records. */
  since?: number;
  /** PostgreSQL: per searched column, the value's rare pieces for pg_trgm to look up (rarePieces). */
  pieces?: Record<string, string[]>;
  /** SQLite: the FTS5 query that narrows the search (textMatch). */
  fts?: { table: string; match: string };
}

/**
 * What a list call asks for, as a plan (readPlanned): its values `bound`, so that each statement of
 * the same shape is built and compiled once. Filters are checked here, before any statement.
 */
interface ListPlan {
  scope: Scope;
  filter: [string, unknown][];
  ids?: unknown[];
  search?: {
    /** The value read as an id, when it is one and `id` is a target. */
    exactId?: unknown;
    /** The other targets: each with the value's rare pieces (`%piece%`) where the index looks those up. */
    parts: { column: string; pieces?: unknown[] }[];
    /** The substring rule's reference form (`plain`): the lowered value's position in each text. */
    plain?: boolean;
    /** The value (`plain`, or beside rare pieces) and its LIKE pattern. */
    text?: unknown;
    like?: unknown;
    since?: unknown;
    /** SQLite: the few rows the text index found, or else its query. */
    found?: unknown[];
    fts?: { table: string; match: unknown };
  };
}

/**
 * The rows a list call asks for, before paging. A search keeps today's rule everywhere: `id` matches
 * exactly, other targets contain the value, case-insensitively, `%` and `_` being plain characters.
 * On SQLite a value of 3 characters or more first narrows the rows through the entity's FTS5 trigram
 * table (a superset of the matches), then the rule itself decides; on PostgreSQL the rule's own
 * expression, lower(column) LIKE, is what the pg_trgm index is built on, and on a large table the
 * index is asked for the value's rare pieces only, the rule deciding after. `plain` skips the
 * indexes (the reference the tests compare against).
 */
function planOf(entity: EntityContract, scope: Scope, q: ListQuery, narrowed: Narrowed = {}): ListPlan {
  const columns = columnsOf(entity);
  const filter = Object.entries(q.filter ?? {}).map(([field, value]): [string, unknown] => {
    if (!columns.has(field)) throw badRequest(`Cannot filter on ${field}`);
    if (value !== null && typeof value === 'object') throw badRequest(`The filter on ${field} must be a single value`);
    return [field, bound(value)];
  });
  const plan: ListPlan = { scope: scope.kind === 'all' ? scope : { ...scope, userId: bound(scope.userId) as number }, filter, ids: q.ids?.map(bound) };
  const text = q.search?.value.trim();
  if (!q.search || !text) return plan;
  const targets = q.search.targets;
  const exactId = targets.includes('id') && /^\d{1,15}$/.test(text) ? bound(Number(text)) : undefined;
  const names = targets.filter((t) => t !== 'id');
  if (q.search.plain) return { ...plan, search: { exactId, parts: names.map((column) => ({ column })), plain: true, text: names.length ? bound(text) : undefined } };
  const { found, since, pieces, fts } = narrowed;
  const parts = names.map((column) => ({ column, pieces: pieces?.[column]?.map((p) => bound(`%${p}%`)) }));
  return {
    ...plan,
    search: {
      exactId,
      parts,
      text: parts.some((p) => p.pieces) ? bound(text) : undefined,
      like: parts.some((p) => !p.pieces) ? bound(`%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) : undefined,
      since: since === undefined || !parts.length ? undefined : bound(since),
      found: fts && found ? found.map(bound) : undefined,
      fts: fts && !found ? { table: fts.table, match: bound(fts.match) } : undefined,
    },
  };
}

/** The rows of a plan's skeleton (see planOf), as a query to page, count or read. */
function filtered(db: DB, entity: EntityContract, plan: ListPlan) {
  let query = scoped(db, db.selectFrom(entity.name), entity, plan.scope);
  for (const [field, value] of plan.filter) query = query.where(field, '=', value);
  if (plan.ids) query = plan.ids.length ? query.where('id', 'in', plan.ids) : query.where(sql<boolean>`1 = 0`);
  const search = plan.search;
  if (!search) return query;
  const { exactId, parts, text, like, since, found, fts } = search;
  const postgres = dialectOf(db) === 'postgres';
  if (search.plain) {
    // The substring rule said another way: position of the lowered value in the lowered text.
    const position = postgres ? 'strpos' : 'instr';
    return query.where((eb) =>
      eb.or([
        ...(exactId !== undefined ? [eb('id', '=', exactId)] : []),
        ...parts.map(({ column }) => sql<boolean>`${sql.raw(position)}(lower(cast(${sql.ref(column)} as text)), lower(${text})) > 0`),
      ]),
    );
  }
  const indexed = textSearchColumns(entity);
  query = query.where((eb) => {
    const contains = parts.map(({ column, pieces }) =>
      pieces
        ? // The index finds the rows holding the value's rare pieces; the rule (not indexed) decides.
          eb.and([...pieces.map((p) => likeInsensitive(column, p as string)), sql<boolean>`strpos(lower(${sql.ref(column)}), lower(${text})) > 0`])
        : likeInsensitive(column, like as string, !indexed.includes(column) && postgres),
    );
    // A short value's text matches are looked for among the newest records only (SHORT_WINDOW).
    const inText = since === undefined ? contains : [eb.and([eb('id', '>=', since), eb.or(contains)])];
    return eb.or([...(exactId !== undefined ? [eb('id', '=', exactId)] : []), ...inText]);
  });
  if (found) {
    const ids = exactId !== undefined ? [...found, exactId] : found;
    query = ids.length ? query.where('id', 'in', ids) : query.where(sql<boolean>`1 = 0`);
  } else if (fts) {
    const candidates =
      exactId !== undefined
        ? sql`select rowid from ${sql.table(fts.table)} where ${sql.table(fts.table)} match ${fts.match} union all select ${exactId}`
        : sql`select rowid from ${sql.table(fts.table)} where ${sql.table(fts.table)} match ${fts.match}`;
    query = query.where(sql<boolean>`${sql.ref('id')} in (${candidates})`);
  }
  return query;
}

/**
 * SQLite: the FTS5 query that narrows a search, when every searched column has the trigram index
 * and the value has 3 characters or more: per column, its rare pieces (rarePieces) when a large
 * table has some, each one phrase that must all be there, or else the whole value as one phrase;
 * the columns' queries joined by OR. Phrases are quoted (quotes doubled); the client's text is a
 * bound parameter and never read as query syntax. Every row holding the value matches (a superset):
 * the rule decides after.
 */
function textMatch(db: DB, entity: EntityContract, q: ListQuery, pieces: Record<string, string[]> = {}): { table: string; match: string } | undefined {
  const text = q.search?.value.trim();
  if (!q.search || !text || q.search.plain || dialectOf(db) === 'postgres' || [...text].length < TRIGRAM) return undefined;
  const parts = q.search.targets.filter((t) => t !== 'id');
  const indexed = textSearchColumns(entity);
  if (!parts.length || !parts.every((t) => indexed.includes(t))) return undefined;
  const phrase = (value: string) => `"${value.replace(/"/g, '""')}"`;
  // Columns looked up the same way share one query: each trigram's list is read once.
  const groups = new Map<string, string[]>();
  for (const t of parts) {
    const query = pieces[t] ? `(${pieces[t].map(phrase).join(' AND ')})` : phrase(text);
    groups.set(query, [...(groups.get(query) ?? []), t]);
  }
  const match = [...groups].map(([query, columns]) => `{${columns.join(' ')}} : ${query}`).join(' OR ');
  return { table: ftsTable(entity.name), match };
}

/** The rare pieces of a search's value, for each searched column with a trigram index (rarePieces). */
async function piecesOf(db: DB, entity: EntityContract, q: ListQuery): Promise<Record<string, string[]> | undefined> {
  const text = q.search?.value.trim();
  if (!q.search || !text || q.search.plain || [...text].length < TRIGRAM) return undefined;
  const pieces: Record<string, string[]> = {};
  const indexed = textSearchColumns(entity);
  for (const column of q.search.targets.filter((t) => indexed.includes(t))) {
    const rare = await rarePieces(db, entity, column, text);
    if (rare) pieces[column] = rare;
  }
  return pieces;
}

/**
 * A value shorter than a trigram (1 or 2 characters) can use no text index: it is matched against
 * the text of the newest SHORT_WINDOW records the caller can see (an exact id match is still found
 * anywhere). Below that many records the answer is the substring rule's; above, a bounded scan.
 */
export const SHORT_WINDOW = { records: 20_000 };

/** The lowest id of the newest SHORT_WINDOW records in scope, when a short value needs the window. */
async function shortWindow(db: DB, entity: EntityContract, scope: Scope, q: ListQuery): Promise<number | undefined> {
  const text = q.search?.value.trim();
  if (!q.search || !text || q.search.plain || [...text].length >= TRIGRAM) return undefined;
  if (!q.search.targets.some((t) => t !== 'id')) return undefined;
  const edge = await scoped(db, db.selectFrom(entity.name), entity, scope)
    .select('id')
    .orderBy('id', 'desc')
    .limit(1)
    .offset(SHORT_WINDOW.records - 1)
    .executeTakeFirst();
  return edge ? Number(edge.id) : undefined;
}

/** Up to this many text matches are read once and reused by the count and the page. */
const FEW_MATCHES = 2000;
/** The column a page's rows carry their count in, in the one statement of a search with few matches. */
const MATCHES = 'matches_total';

/** The owner column PAGE_INDEX counts a table by: the column its owner scope filters on. */
function pageOwner(entity: EntityContract): string | undefined {
  if (entity.owner?.via === 'owner_id') return 'owner_id';
  if (entity.owner?.via === 'shop_id') return SELLER_COLUMN;
  return undefined;
}

/** Each list's range counters, kept while the database is unchanged. */
const pageRanges = new GenerationCache<Row[]>(200);

/**
 * The ids of a page of a plain list (no filter, no search, in id order) through PAGE_INDEX: the
 * total from the range counters, then the page from the range its offset falls in.
 */
async function indexedPage(db: DB, entity: EntityContract, scope: Scope, q: ListQuery, desc: boolean) {
  // The counters know every record and each owner's; a buyer's scope is counted by querying.
  const owner = scope.kind === 'all' ? 0 : scope.kind === 'own' && pageOwner(entity) ? scope.userId : undefined;
  if (owner === undefined) return undefined;
  const ranges = await pageRanges.get(db, JSON.stringify([entity.name, owner, desc]), () =>
    db
      .selectFrom(PAGE_INDEX)
      .select(['bucket', 'n'])
      .where('tbl', '=', entity.name)
      .where('owner', '=', owner)
      .where('n', '>', 0)
      .orderBy('bucket', desc ? 'desc' : 'asc')
      .execute(),
  );
  const total = ranges.reduce((sum, r) => sum + Number(r.n), 0);
  const offset = (q.page - 1) * q.perPage;
  let skip = offset;
  const range = ranges.find((r) => (skip < Number(r.n) ? true : ((skip -= Number(r.n)), false)));
  if (!range) return { total, ids: [] };
  const edge = desc ? (Number(range.bucket) + 1) * PAGE_BUCKET : Number(range.bucket) * PAGE_BUCKET;
  // A range holding every id of it (no row deleted there) has the page's first id `skip` from its
  // edge: the page is read from there, not skipped through.
  const full = Number(range.n) === PAGE_BUCKET;
  const start = full ? (desc ? edge - 1 - skip : edge + skip) : edge;
  const values = [start, q.perPage, full ? 0 : skip, ...(scope.kind === 'all' ? [] : [scope.userId])];
  const found = await readShaped(db, JSON.stringify(['page', entityKey(entity), scope.kind, desc, full]), values, (slot) =>
    scoped(db, db.selectFrom(entity.name), entity, scope.kind === 'all' ? scope : { ...scope, userId: slot(3) })
      .select('id')
      .where('id', desc ? (full ? '<=' : '<') : '>=', slot(0))
      .orderBy('id', desc ? 'desc' : 'asc')
      .limit(slot(1))
      .offset(slot(2)),
  );
  return { total, ids: found.map((r) => r.id) };
}

/**
 * Columns whose text only the server writes, always in one format: a value holding a character that
 * format never has is in none of their rows, so a search does not look there. The rule's answer is
 * the same (the `plain` reference still looks); an orders search for a tracking number no longer
 * reads the timestamps' trigram index for it.
 */
const WRITTEN_AS: Readonly<Record<string, RegExp>> = {
  // An ISO timestamp (now()): 2026-11-29T22:30:03.123Z, compared without case.
  created_at: /^[0-9tz:.-]*$/i,
};

/** The targets of a search its value may be found in (WRITTEN_AS): any other than those, `id` included. */
export function searchable(targets: readonly string[], value: string): string[] {
  const text = value.trim();
  return targets.filter((t) => !Object.hasOwn(WRITTEN_AS, t) || WRITTEN_AS[t].test(text));
}

/** Counts and pages any other list: the matching ids, a page of them read from the nearer end. */
async function queriedPage(db: DB, entity: EntityContract, scope: Scope, given: ListQuery, sort: { field: string; desc: boolean }) {
  const q = given.search && !given.search.plain ? { ...given, search: { ...given.search, targets: searchable(given.search.targets, given.search.value) } } : given;
  const pieces = await piecesOf(db, entity, q);
  const fts = textMatch(db, entity, q, pieces);
  let found: unknown[] | undefined;
  if (fts) {
    const matches = await sql<{ id: unknown }>`select rowid as id from ${sql.table(fts.table)} where ${sql.table(fts.table)} match ${fts.match} limit ${FEW_MATCHES + 1}`.execute(db);
    if (matches.rows.length <= FEW_MATCHES) found = matches.rows.map((r) => r.id);
  }
  const postgres = dialectOf(db) === 'postgres';
  const plan = planOf(entity, scope, q, { found, since: await shortWindow(db, entity, scope, q), pieces: postgres ? pieces : undefined, fts });
  // Each statement below is built and compiled once per shape of its plan (readPlanned): `shape`
  // names what the builder reads besides the plan.
  const shape = (statement: string, ...more: unknown[]) => JSON.stringify([statement, entityKey(entity), sort, ...more]);
  // The list's order (or, with `desc` flipped, its reverse), then newest first among equals;
  // `from` names the columns' table or alias.
  const inOrder = <Q extends SelectQueryBuilder<Record<string, Row>, string, object>>(
    rows: Q,
    { desc = sort.desc, from }: { desc?: boolean; from?: string } = {},
  ) => {
    const column = (name: string) => (from ? `${from}.${name}` : name);
    const first = rows.orderBy(column(sort.field), desc ? 'desc' : 'asc');
    return (sort.field === 'id' ? first : first.orderBy(column('id'), desc === sort.desc ? 'desc' : 'asc')) as Q;
  };
  const offset = (q.page - 1) * q.perPage;
  if (q.search?.value.trim() && postgres) {
    // PostgreSQL: a search's matches are read once, in the list's order, up to FEW_MATCHES, and
    // when there are no more, one statement answers both the page's rows and the count.
    // When every searched text is looked up by its rare pieces, the matches are few and are gathered
    // whole first: told only of the LIMIT, the planner may otherwise walk the whole table in the
    // list's order waiting for them (half a second at a million rows, for a value with one rare piece).
    const rare = Object.keys(pieces ?? {}).length > 0 && q.search.targets.every((t) => t === 'id' || pieces?.[t]);
    const paging = { ...plan, few: bound(FEW_MATCHES + 1), take: bound(q.perPage), skip: bound(offset) };
    const rows = await readPlanned(db, shape('search', rare), paging, (p) => {
      const query = filtered(db, entity, p);
      const source = rare ? db.with((cte) => cte('found').materialized(), () => query.selectAll()).selectFrom('found') : query;
      const matches = inOrder(source.selectAll()).limit(p.few as number).as('few');
      const page = inOrder(db.selectFrom(matches).selectAll().select(sql<number>`count(*) over ()`.as(MATCHES)), { from: 'few' })
        .limit(p.take as number)
        .offset(p.skip as number)
        .as('paged');
      // The page's linked records are read for its rows only, after the page is cut.
      return inOrder(withLinked(db, entity, 'paged', db.selectFrom(page).selectAll()), { from: 'paged' });
    });
    // No row: no match at all, or a page past the last (counted below).
    const total = rows.length ? Number(rows[0][MATCHES]) : offset === 0 ? 0 : undefined;
    if (total !== undefined && total <= FEW_MATCHES) return { total, rows: rows.map(({ [MATCHES]: _, ...row }) => row) };
  }
  if (found) {
    // SQLite: the few rows the text index found are checked by the rule once, in the list's order:
    // their number is the total and the page is cut from them (a count, then the page, checked each
    // row twice).
    const matching = (await readPlanned(db, shape('found'), plan, (p) => inOrder(filtered(db, entity, p).select('id')))).map((r) => r.id);
    return { total: matching.length, ids: matching.slice(offset, offset + q.perPage) };
  }
  const [{ count }] = await readPlanned(db, shape('count'), plan, (p) => filtered(db, entity, p).select((eb) => eb.fn.countAll<number>().as('count')));
  const total = Number(count);
  let ids: unknown[] = [];
  if (offset < total) {
    const take = Math.min(q.perPage, total - offset);
    const fromEnd = total - offset - take;
    const reverse = fromEnd < offset;
    const paging = { ...plan, take: bound(take), skip: bound(reverse ? fromEnd : offset) };
    const found = await readPlanned(db, shape('ids', reverse), paging, (p) =>
      inOrder(filtered(db, entity, p).select('id'), { desc: reverse ? !sort.desc : sort.desc })
        .limit(p.take as number)
        .offset(p.skip as number),
    );
    ids = found.map((r) => r.id);
    if (reverse) ids.reverse();
  }
  return { total, ids };
}

/** Pages of up to this many rows are kept while the database is unchanged, from their second ask. */
const KEPT_PAGE_ROWS = 100;
const pages = new GenerationCache<Paginated<Row>>(500, { keptWhenAskedAgain: true });
const entityKeys = new WeakMap<EntityContract, number>();
let entityCount = 0;
/** Entities are told apart by identity: a test's own registry may declare another with the same name. */
const entityKey = (entity: EntityContract) => entityKeys.get(entity) ?? (entityKeys.set(entity, ++entityCount), entityCount);

/**
 * A page of a list or search. From its second ask, the answer is kept until anything is written to
 * the database, by any process (generationOf): the same page asked again after that costs no query
 * (one small read on PostgreSQL). A page asked for once is not kept (GenerationCache).
 */
export async function listPage(db: DB, entity: EntityContract, scope: Scope, q: ListQuery): Promise<Paginated<Row>> {
  if (q.perPage > KEPT_PAGE_ROWS) return readPage(db, entity, scope, q);
  return pages.get(db, JSON.stringify([entityKey(entity), scope, q]), () => readPage(db, entity, scope, q));
}

async function readPage(db: DB, entity: EntityContract, scope: Scope, q: ListQuery): Promise<Paginated<Row>> {
  const sort = q.sort && columnsOf(entity).has(q.sort.field) ? q.sort : { field: 'id', desc: true };
  const plain = sort.field === 'id' && !q.ids && Object.keys(q.filter ?? {}).length === 0 && !q.search?.value.trim();
  // Deferred join: page through ids only (an index), then read the page's rows by id.
  const found: { total: number; ids?: unknown[]; rows?: Row[] } =
    (plain && (await indexedPage(db, entity, scope, q, sort.desc))) || (await queriedPage(db, entity, scope, q, sort));
  const { total, ids = [] } = found;
  const offset = (q.page - 1) * q.perPage;
  let rows = found.rows;
  if (!rows) {
    const byId = new Map(
      (ids.length
        ? await readShaped(db, JSON.stringify(['rows', entityKey(entity), ids.length]), ids, (slot) =>
            withLinked(db, entity, entity.name, db.selectFrom(entity.name).selectAll(entity.name).where(`${entity.name}.id`, 'in', ids.map((_, i) => slot(i)))),
          )
        : []
      ).map(
        (r) => [Number(r.id), r],
      ),
    );
    rows = ids.map((i) => byId.get(Number(i))).filter((r): r is Row => r !== undefined);
  }
  const data = await presentMany(db, entity, rows);
  const lastPage = Math.max(1, Math.ceil(total / q.perPage));
  const from = data.length ? offset + 1 : null;
  const page: Paginated<Row> = {
    data,
    total,
    from,
    to: from === null ? null : from + data.length - 1,
    current_page: q.page,
    last_page: lastPage,
    per_page: q.perPage,
  };
  return page;
}

/** Every matching row up to the search cap, as a legacy client expects a plain array. */
export async function listAll(db: DB, entity: EntityContract, scope: Scope, q: Omit<ListQuery, 'page' | 'perPage'>) {
  return (await listPage(db, entity, scope, { ...q, page: 1, perPage: MAX_SEARCH_ROWS })).data;
}

/**
 * One record the scope allows, read to change it: 404 when it does not exist, 403 when it is someone
 * else's. On PostgreSQL the row is locked until the transaction ends, so two changes of one record run
 * one after the other, the second reading what the first wrote (two reopenings of a cancelled order
 * take its stock once); SQLite runs write transactions one at a time.
 */
export async function findScoped(db: DB, entity: EntityContract, scope: Scope, id: number): Promise<Row> {
  let query = db.selectFrom(entity.name).selectAll().where('id', '=', id);
  if (dialectOf(db) === 'postgres') query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row) throw notFound(`No ${entity.name} record has id ${id}`);
  if (scope.kind === 'own') {
    const mine = await scoped(db, db.selectFrom(entity.name).select('id').where('id', '=', id), entity, scope).executeTakeFirst();
    if (!mine) throw forbidden('You can only change your own records');
  }
  return row;
}

export async function insertRow(db: DB, entity: EntityContract, values: Row): Promise<Row> {
  const stamp = now();
  const row = await db
    .insertInto(entity.name)
    .values({ ...values, created_at: stamp, updated_at: stamp })
    .returningAll()
    .executeTakeFirstOrThrow();
  return row;
}

export async function updateRow(db: DB, entity: EntityContract, id: number, values: Row): Promise<Row> {
  return db
    .updateTable(entity.name)
    .set({ ...values, updated_at: now() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteRow(db: DB, entity: EntityContract, id: number): Promise<void> {
  await db.deleteFrom(entity.name).where('id', '=', id).execute();
}

/** Linked ids must point at existing records (a product's shop, a shop's category...). */
export async function checkLinks(db: DB, entity: EntityContract, values: Row): Promise<void> {
  for (const rel of entity.relations ?? []) {
    const key = values[rel.key];
    if (rel.kind !== 'one' || key === undefined || key === null) continue;
    const found = await db.selectFrom(rel.entity).select('id').where('id', '=', Number(key)).executeTakeFirst();
    if (!found) throw badRequest(`${rel.key.replace(/_/g, ' ')} ${key} does not match any ${rel.as}`);
  }
}
