/**
 * Reads compiled once per shape (server/db/shaped.ts): each read of a shape answers what the same
 * query built afresh answers, with its own values; constants of the shape stay; a read giving another
 * number of values than its shape has slots is refused.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, readShaped, type Database } from '../../server/db';

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
