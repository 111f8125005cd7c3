/**
 * SQLite rows as objects (server/db/connection.ts reads them as arrays and builds each object from
 * the statement's column names): the same objects better-sqlite3 gives, on a kept statement too after
 * another connection adds a column.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import SQLite from '../../server/sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'marketplace-rows-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('SQLite rows', () => {
  it('are objects of the columns, in their order, the later of two equal names winning, __proto__ an own field', async () => {
    const { db, close } = openDatabase({ file: path.join(dir, 'a.sqlite') });
    try {
      const rows = await sql<Record<string, unknown>>`select 1 as a, 'x' as b, null as c, 2 as a, 3 as "__proto__"`.execute(db);
      expect(rows.rows).toHaveLength(1);
      const [row] = rows.rows;
      expect(Object.keys(row)).toEqual(['a', 'b', 'c', '__proto__']);
      expect(row.a).toBe(2);
      expect(row.b).toBe('x');
      expect(row.c).toBeNull();
      expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
      expect(Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toBe(3);
    } finally {
      await close();
    }
  });

  it('show a column another connection added, through the statement kept for the same text', async () => {
    const file = path.join(dir, 'b.sqlite');
    const { db, close } = openDatabase({ file });
    try {
      await sql`create table things (id integer primary key, name text)`.execute(db);
      await sql`insert into things (name) values ('one'), ('two')`.execute(db);
      const read = () => db.selectFrom('things').selectAll().orderBy('id').execute();
      expect(await read()).toEqual([{ id: 1, name: 'one' }, { id: 2, name: 'two' }]);
      const other = new SQLite(file);
      other.exec("alter table things add column colour text default 'red'");
      other.close();
      expect(await read()).toEqual([{ id: 1, name: 'one', colour: 'red' }, { id: 2, name: 'two', colour: 'red' }]);
      expect(await db.selectFrom('things').select('name').where('id', '=', 2).execute()).toEqual([{ name: 'two' }]);
      // Writes still answer what they changed.
      const inserted = await db.insertInto('things').values({ name: 'three' }).executeTakeFirst();
      expect(Number(inserted.insertId)).toBe(3);
      const streamed = [];
      for await (const row of db.selectFrom('things').select(['id', 'colour']).where('id', '>', 1).orderBy('id').stream()) streamed.push(row);
      expect(streamed).toEqual([{ id: 2, colour: 'red' }, { id: 3, colour: 'red' }]);
    } finally {
      await close();
    }
  });
});
