/**
 * A page's linked records (an order's shop, customer, status and timeline; a category's
 * subcategories...) are the same whichever way they are read: the statement reading the page's rows
 * carries them (on PostgreSQL as json columns, on SQLite its 'one' relations joined, its 'many' read
 * after), and for single records one query per relation reads them. Both are compared here, on lists
 * and searches, with missing links, empty and several-item lists.
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
/** A customer and an admin of the test's own, named by the orders and events it writes. */
let customer = 0;
let admin = 0;

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
  [{ id: customer }, { id: admin }] = (await insert('users', [
    { name: 'Linked Customer', email: 'linked-customer@example.com', is_active: 1 },
    { name: 'Linked Admin', email: 'linked-admin@example.com', is_active: 1 },
  ])).map((r) => ({ id: Number(r.id) }));
  const [category] = await insert('categories', [{ name: 'Linked goods', commission_currency: 'USD', commission_flat_rate: 1, is_active: 1 }]);
  const shops = await insert('shops', Array.from({ length: 6 }, (_, i) => ({ name: `Linked shop ${i}`, owner_id: admin, category_id: category.id, is_active: 1 })));
  // Orders with a customer and without one, with no event, one, or several (out of id order in time).
  const orders = await insert('orders', shops.map((s, i) => ({
    shop_id: s.id, customer_id: i % 3 ? customer : null, payment_gateway: 'card', tracking_number: `TRK-L${i}`, number_of_items: 1,
    status: 1 + (i % 4), currency: 'USD', total: 10, paid_total: 10, is_active: 1,
  })));
  await insert('orderEvents', orders.flatMap((o, i) => Array.from({ length: i % 3 }, (_, k) => ({
    order_id: o.id, from_status: 1 + k, to_status: 2 + k, user_id: admin, user_name: k ? null : 'Linked Admin',
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
    for (const entity of related) {
      const held = Number((await db.selectFrom(entity.name).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
      const queries: ListQuery[] = [
        { page: 1, perPage: 15 },
        { page: 2, perPage: 5 },
        { page: 1, perPage: 15, sort: { field: 'created_at', desc: false } },
        ...(entity.search?.targets.length ? [{ page: 1, perPage: 15, search: { value: 'a', targets: [...entity.search.targets] } }] : []),
      ];
      for (const q of queries) {
        const page = await listPage(db, entity, all, q);
        if (!q.search) expect({ entity: entity.name, q, rows: page.data.length }).toEqual({ entity: entity.name, q, rows: Math.max(0, Math.min(q.perPage, held - (q.page - 1) * q.perPage)) });
        const apart = await readApart(entity, page.data.map((r) => r.id));
        expect({ entity: entity.name, q, data: page.data }).toEqual({ entity: entity.name, q, data: apart });
        page.data.forEach((row, i) => expect(Object.keys(row)).toEqual(Object.keys(apart[i])));
      }
    }
  });

  it('carry missing links as null, an empty list as [], and several in id order', async () => {
    const orders = registry.entity('orders');
    const found = await listPage(db, orders, all, { page: 1, perPage: 15, search: { value: 'TRK-L', targets: ['tracking_number'] } });
    expect(found.total).toBe(6);
    const byNumber = new Map(found.data.map((o) => [o.tracking_number, o]));
    expect(byNumber.get('TRK-L0')).toMatchObject({ customer: null, timeline: [] });
    expect(byNumber.get('TRK-L1')).toMatchObject({ customer: { id: customer, name: 'Linked Customer' } });
    const several = byNumber.get('TRK-L2')!.timeline as Row[];
    expect(several.map((e) => [e.from_status, e.to_status, e.user_name])).toEqual([[1, 2, 'Linked Admin'], [2, 3, null]]);
    // The timeline carries the fields its relation picks, in that order.
    expect(Object.keys(several[0])).toEqual(orders.relations!.find((r) => r.as === 'timeline')!.pick);
    expect(byNumber.get('TRK-L3')!.shop).toEqual({ id: expect.any(Number), name: 'Linked shop 3', owner_id: admin });
  });
});
