/**
 * A page's linked records (an order's shop, customer, status and timeline; a category's
 * subcategories...) are the same whichever way they are read: on PostgreSQL the statement reading the
 * page's rows carries them as json columns, elsewhere (and for single records) one query per
 * relation reads them. Both are compared here, on lists and searches, with missing links, empty
 * and several-item lists.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntityContract } from '../../contract';
import { registry } from '../../server/registry';
import { migrate, type Database, type DB, type Row } from '../../server/db';
import { seedDemo, seedReference } from '../../server/seed';
import { listPage, presentMany, type ListQuery } from '../../server/store';
import { dialect, freshDatabase } from './harness';

let database: Database;
let db: DB;
let drop: () => Promise<void>;

const stamp = new Date().toISOString();
const insert = (table: string, rows: Row[]) =>
  db.insertInto(table).values(rows.map((r) => ({ ...r, created_at: stamp, updated_at: stamp }))).returning('id').execute();

beforeAll(async () => {
  const fresh = await freshDatabase();
  database = fresh.database;
  db = database.db;
  drop = fresh.drop;
  await migrate(database);
  await seedReference(db);
  await seedDemo(db);
  const shops = await db.selectFrom('shops').select('id').orderBy('id').execute();
  // Orders with a customer and without one, with no event, one, or several (out of id order in time).
  const orders = await insert('orders', shops.slice(0, 6).map((s, i) => ({
    shop_id: s.id, customer_id: i % 3 ? 3 : null, payment_gateway: 'card', tracking_number: `TRK-L${i}`, number_of_items: 1,
    status: 1 + (i % 4), currency: 'USD', total: 10, paid_total: 10, is_active: 1,
  })));
  await insert('orderEvents', orders.flatMap((o, i) => Array.from({ length: i % 3 }, (_, k) => ({
    order_id: o.id, from_status: 1 + k, to_status: 2 + k, user_id: 1, user_name: k ? null : 'Ada Admin',
  }))));
});
afterAll(async () => {
  await database.close();
  await drop();
});

/** Each row's linked records, read one query per relation from the rows as the table holds them. */
async function readApart(entity: EntityContract, ids: unknown[]) {
  const rows = ids.length ? await db.selectFrom(entity.name).selectAll().where('id', 'in', ids as number[]).execute() : [];
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  return presentMany(db, entity, ids.map((i) => byId.get(Number(i))!));
}

const all = { kind: 'all' } as const;
const related = registry.entities.filter((e) => e.relations?.length);

describe(`linked records on ${dialect}`, () => {
  it('are the same in a page read in one statement as read one relation at a time', async () => {
    expect(related.map((e) => e.name)).toEqual(expect.arrayContaining(['orders', 'products', 'shops', 'categories', 'users']));
    let compared = 0;
    for (const entity of related) {
      const queries: ListQuery[] = [
        { page: 1, perPage: 15 },
        { page: 2, perPage: 5 },
        { page: 1, perPage: 15, sort: { field: 'created_at', desc: false } },
        ...(entity.search?.targets.length ? [{ page: 1, perPage: 15, search: { value: 'a', targets: [...entity.search.targets] } }] : []),
      ];
      for (const q of queries) {
        const page = await listPage(db, entity, all, q);
        const apart = await readApart(entity, page.data.map((r) => r.id));
        expect({ entity: entity.name, q, data: page.data }).toEqual({ entity: entity.name, q, data: apart });
        page.data.forEach((row, i) => expect(Object.keys(row)).toEqual(Object.keys(apart[i])));
        compared += page.data.length;
      }
    }
    expect(compared).toBeGreaterThan(100);
  });

  it('carry missing links as null, an empty list as [], and several in id order', async () => {
    const orders = registry.entity('orders');
    const found = await listPage(db, orders, all, { page: 1, perPage: 15, search: { value: 'TRK-L', targets: ['tracking_number'] } });
    expect(found.total).toBe(6);
    const byNumber = new Map(found.data.map((o) => [o.tracking_number, o]));
    expect(byNumber.get('TRK-L0')).toMatchObject({ customer: null, timeline: [] });
    expect(byNumber.get('TRK-L1')).toMatchObject({ customer: { id: 3, name: expect.any(String) } });
    const several = byNumber.get('TRK-L2')!.timeline as Row[];
    expect(several.map((e) => [e.from_status, e.to_status, e.user_name])).toEqual([[1, 2, 'Ada Admin'], [2, 3, null]]);
    // The timeline carries the fields its relation picks, in that order.
    expect(Object.keys(several[0])).toEqual(orders.relations!.find((r) => r.as === 'timeline')!.pick);
    expect(byNumber.get('TRK-L3')!.shop).toEqual({ id: expect.any(Number), name: expect.any(String), owner_id: expect.any(Number) });
  });
});
