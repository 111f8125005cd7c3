/**
 * Reads compiled once per shape (server/db/shaped.ts): each read of a shape answers what the same
 * query built afresh answers, with its own values; constants of the shape stay; a read giving another
 * number of values than its shape has slots is refused. A planned read (readPlanned) is built from
 * its plan's skeleton only: the same shape with other values reuses it, another shape (a list of
 * another length, a part present or not) is built anew, and the builder never sees a value.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bound, openDatabase, readPlanned, readShaped, type Database } from '../../server/db';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'marketplace-shaped-'));
let database: Database;

beforeAll(async () => {
  database = openDatabase({ file: path.join(dir, 'shaped.sqlite') });
  await sql`create table things (id integer primary key, owner integer, name text)`.execute(database.db);
  for (let id = 1; id <= 30; id++) {
    await sql`insert into things (id, owner, name) values (${id}, ${id % 3}, ${id % 5 === 0 ? 'hidden' : `thing ${id}`})`.execute(database.db);
  }
});
afterAll(async () => {
  await database.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('a read compiled once per shape', () => {
  const ownersPage = (owner: number, below: number, limit: number) =>
    readShaped(database.db, 'owner page', [owner, below, limit], (slot) =>
      database.db
        .selectFrom('things')
        .select(['id', 'name'])
        .where('owner', '=', slot(0))
        .where('id', '<', slot(1))
        .where('name', '!=', 'hidden')
        .orderBy('id', 'desc')
        .limit(slot(2)),
    );
  const afresh = (owner: number, below: number, limit: number) =>
    database.db.selectFrom('things').select(['id', 'name']).where('owner', '=', owner).where('id', '<', below).where('name', '!=', 'hidden').orderBy('id', 'desc').limit(limit).execute();

  it('answers each read with its own values, as the query built afresh does, the constants kept', async () => {
    for (const [owner, below, limit] of [[1, 31, 4], [2, 20, 3], [0, 31, 10], [1, 2, 5], [2, 1, 5]]) {
      const rows = await ownersPage(owner, below, limit);
      expect(rows).toEqual(await afresh(owner, below, limit));
      expect(rows.every((r) => r.name !== 'hidden')).toBe(true);
    }
    expect((await ownersPage(0, 31, 10)).map((r) => r.id)).toEqual([27, 24, 21, 18, 12, 9, 6, 3]);
  });

  it('reads lists of another length under another shape', async () => {
    const byIds = (ids: number[]) =>
      readShaped(database.db, `by ids ${ids.length}`, ids, (slot) =>
        database.db.selectFrom('things').select('id').where('id', 'in', ids.map((_, i) => slot(i))).orderBy('id'),
      );
    expect((await byIds([3, 1])).map((r) => r.id)).toEqual([1, 3]);
    expect((await byIds([7, 8, 9])).map((r) => r.id)).toEqual([7, 8, 9]);
    expect((await byIds([2, 30])).map((r) => r.id)).toEqual([2, 30]);
  });

  it('refuses a read giving fewer or more values than its shape has slots', async () => {
    await ownersPage(1, 31, 4);
    const read = (values: number[]) =>
      readShaped(database.db, 'owner page', values, () => {
        throw new Error('a kept shape is not built again');
      });
    await expect(read([1, 31])).rejects.toThrow('takes 3 values, not 2');
    await expect(read([1, 31, 4, 5])).rejects.toThrow('takes 3 values, not 4');
    expect(await read([1, 31, 4])).toEqual(await afresh(1, 31, 4));
  });

  it('reads inside a transaction what the transaction wrote', async () => {
    await database.db.transaction().execute(async (trx) => {
      await trx.insertInto('things').values({ id: 31, owner: 1, name: 'new' }).execute();
      const rows = await readShaped(trx, 'by id 1', [31], (slot) => trx.selectFrom('things').select('name').where('id', '=', slot(0)));
      expect(rows).toEqual([{ name: 'new' }]);
    });
  });
});

describe('a read planned once per shape', () => {
  interface Plan { owner: unknown; names: unknown[]; below?: unknown }
  const built: Plan[] = [];
  const read = (owner: number, names: string[], below?: number) =>
    readPlanned(database.db, 'planned things', { owner: bound(owner), names: names.map(bound), below: below === undefined ? undefined : bound(below) }, (plan: Plan) => {
      built.push(plan);
      let query = database.db.selectFrom('things').select('id').where('owner', '=', plan.owner).where('name', 'in', plan.names);
      if (plan.below !== undefined) query = query.where('id', '<', plan.below);
      return query.orderBy('id');
    });
  const afresh = (owner: number, names: string[], below?: number) =>
    database.db
      .selectFrom('things')
      .select('id')
      .where('owner', '=', owner)
      .where('name', 'in', names)
      .where('id', '<', below ?? 1000)
      .orderBy('id')
      .execute();

  it('reuses a shape with other values, and builds another shape anew, from a skeleton holding no value', async () => {
    const cases: [number, string[], number?][] = [
      [1, ['thing 1', 'thing 4']],
      [2, ['thing 2', 'thing 8']],
      [1, ['thing 7', 'thing 13', 'thing 4'], 10],
      [0, ['thing 3', 'thing 6', 'thing 9'], 7],
      [0, ['thing 3', 'thing 12']],
    ];
    for (const [owner, names, below] of cases) expect(await read(owner, names, below)).toEqual(await afresh(owner, names, below));
    // Three shapes among five reads: two names; three names and a bound; two names again (kept).
    expect(built.map((plan) => [plan.names.length, plan.below !== undefined])).toEqual([[2, false], [3, true]]);
    // Where the plan had a value, the builder got a slot, never the value itself.
    const leaves = built.flatMap((plan) => [plan.owner, ...plan.names, ...(plan.below === undefined ? [] : [plan.below])]);
    expect(leaves.length).toBe(8);
    for (const leaf of leaves) expect(typeof leaf).toBe('object');
    expect(JSON.stringify(built)).not.toMatch(/thing|"owner":\d/);
  });
});
