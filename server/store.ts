/**
 * Reading and writing the records of any contract entity: pages, searches, linked records.
 */
import { sql } from 'kysely';
import { MAX_SEARCH_ROWS, type EntityContract, type Paginated } from '../contract';
import { likeInsensitive, now, type DB, type Row } from './db';
import { scoped, type Scope } from './guard';
import { badRequest, forbidden, notFound } from './errors';
import { present } from './records';


export interface ListQuery {
  page: number;
  perPage: number;
  /** Extension: order by a column of the entity. */
  sort?: { field: string; desc: boolean };
  /** Extension: equality filters on columns of the entity. */
  filter?: Row;
  /** Extension: only the caller's own records, even for an admin who may see all ('My Shops'). */
  own?: boolean;
  /** Search: text matched in these columns (id exactly, others as a part). */
  search?: { value: string; targets: readonly string[] };
}

const columnsOf = (entity: EntityContract) => new Set(['id', 'created_at', ...Object.keys(entity.fields)]);

/** Rows in wire shape, with their linked records loaded in one query per relation. */
export async function presentMany(db: DB, entity: EntityContract, rows: Row[]): Promise<Row[]> {
  const out = rows.map((r) => present(entity, r));
  for (const rel of entity.relations ?? []) {
    if (rel.kind === 'one') {
      const keys = [...new Set(rows.map((r) => r[rel.key]).filter((k) => k !== null && k !== undefined))] as number[];
      const linked = keys.length
        ? await db.selectFrom(rel.entity).select([...rel.pick]).where('id', 'in', keys).execute()
        : [];
      const byId = new Map(linked.map((l) => [Number(l.id), l]));
      rows.forEach((r, i) => (out[i][rel.as] = byId.get(Number(r[rel.key])) ?? null));
    } else {
      const ids = rows.map((r) => Number(r.id));
      const linked = ids.length
        ? await db.selectFrom(rel.entity).select([...new Set([...rel.pick, rel.key])]).where(rel.key, 'in', ids).orderBy('id').execute()
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

function filtered(db: DB, entity: EntityContract, scope: Scope, q: ListQuery) {
  let query = scoped(db, db.selectFrom(entity.name), entity, scope);
  const columns = columnsOf(entity);
  for (const [field, value] of Object.entries(q.filter ?? {})) {
    if (!columns.has(field)) throw badRequest(`Cannot filter on ${field}`);
    if (value !== null && typeof value === 'object') throw badRequest(`The filter on ${field} must be a single value`);
    query = query.where(field, '=', value);
  }
  const text = q.search?.value.trim();
  if (q.search && text) {
    const like = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) =>
      eb.or(
        q.search!.targets.map((target) =>
          target === 'id'
            ? /^\d{1,15}$/.test(text)
              ? eb('id', '=', Number(text))
              : sql<boolean>`1 = 0`
            : likeInsensitive(target, like),
        ),
      ),
    );
  }
  return query;
}

export async function listPage(db: DB, entity: EntityContract, scope: Scope, q: ListQuery) {
  const query = filtered(db, entity, scope, q);
  const { count } = (await query.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow()) as {
    count: number | string;
  };
  const total = Number(count);
  const sort = q.sort && columnsOf(entity).has(q.sort.field) ? q.sort : { field: 'id', desc: true };
  const rows = await query
    .selectAll()
    .orderBy(sort.field, sort.desc ? 'desc' : 'asc')
    .orderBy('id', 'desc')
    .limit(q.perPage)
    .offset((q.page - 1) * q.perPage)
    .execute();
  const data = await presentMany(db, entity, rows);
  const lastPage = Math.max(1, Math.ceil(total / q.perPage));
  const from = data.length ? (q.page - 1) * q.perPage + 1 : null;
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

/** One record the scope allows: 404 when it does not exist, 403 when it is someone else's. */
export async function findScoped(db: DB, entity: EntityContract, scope: Scope, id: number): Promise<Row> {
  const row = await db.selectFrom(entity.name).selectAll().where('id', '=', id).executeTakeFirst();
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
