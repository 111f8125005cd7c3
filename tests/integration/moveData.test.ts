/**
 * Moving the embedded database to PostgreSQL (the PostgreSQL pass only: it needs a server): the demo
 * database with 100,000 more products is moved by `npm run move-data`, with its progress lines; every
 * table has the same count, sampled rows are equal, the lists' counters came along (a seller's list
 * and the last page answer), an old password signs in, and the next record takes the next id. A
 * database that already holds rows is refused.
 */
import fs from 'node:fs';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import SQLite from '../../server/sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { migrate, openDatabase, type DB } from '../../server/db';
import { seedDemo, seedReference } from '../../server/seed';
import { startProcess, type ServerProcess } from '../../server/dev/process';
import { demo, dialect, freshDatabase } from './harness';

const run = promisify(execFile);
const started: ServerProcess[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(started.map((s) => s.stop()));
  for (const cleanup of cleanups) await cleanup();
});

const ROWS = 100_000;
/** Every GIN (text-search) index of a PostgreSQL database, as PostgreSQL defines it. */
const textIndexes = async (db: DB) =>
  (await sql<{ indexdef: string }>`select indexdef from pg_indexes where schemaname = current_schema() and indexdef like '% USING gin %' order by indexname`.execute(db)).rows.map((r) => r.indexdef);
/** Values as text: SQLite and PostgreSQL hand numbers back in different JavaScript types. */
const asText = (row: Record<string, unknown>) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v === null ? null : String(v)]));

describe.runIf(dialect === 'postgres')('moving the embedded database to PostgreSQL', () => {
  it(`moves every table of the demo database and ${ROWS.toLocaleString('en')} more products: counts, rows, counters, passwords, ids`, async () => {
    // The embedded database: the demo, then the products written straight into the table.
    const source = await (async () => {
      const fresh = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'marketplace-move-'));
      cleanups.push(async () => fs.rmSync(fresh, { recursive: true, force: true }));
      const database = openDatabase({ file: path.join(fresh, 'marketplace.sqlite') });
      await migrate(database);
      await seedReference(database.db);
      await seedDemo(database.db);
      await database.close();
      return fresh;
    })();
    const file = path.join(source, 'marketplace.sqlite');
    const sqlite = new SQLite(file);
    const shop = sqlite.prepare('select id from shops order by id limit 1').get() as { id: number };
    sqlite.prepare(`with recursive n(i) as (select 1 union all select i + 1 from n where i < ?)
      insert into products (shop_id, name, description, currency, price, sale_price, in_stock, state, premier, product_type, category_id, subcategory_id, created_at, updated_at)
      select ?, 'Moved product ' || i, 'Bulk row', 'USD', i * 1.5, i, i % 7, 'active', 'no', 'new', 1, 1, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z' from n`).run(ROWS, shop.id);
    const tables = (sqlite.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '%_fts%'").pluck().all() as string[]);
    const counts = Object.fromEntries(tables.map((t) => [t, Number(sqlite.prepare(`select count(*) from "${t}"`).pluck().get())]));
    const lastIds = Object.fromEntries(['shops', 'products'].map((t) => [t, Number(sqlite.prepare(`select max(id) from "${t}"`).pluck().get())]));
    const sample = sqlite.prepare('select * from products where id % 9973 = 0 or id in (select min(id) from products) order by id').all() as Record<string, unknown>[];
    const users = sqlite.prepare('select * from users order by id').all() as Record<string, unknown>[];
    sqlite.close();
    expect(counts.products).toBeGreaterThanOrEqual(ROWS);

    const target = await freshDatabase();
    await target.database.close();
    cleanups.push(target.drop);
    const move = (to: string) => run(process.execPath, ['--import', 'tsx', 'server/ops/commands.ts', 'move-data', '--to', to], {
      env: { ...process.env, DATA_DIR: source }, maxBuffer: 10 * 1024 * 1024,
    });
    const { stdout } = await move(target.url!);
    // Progress: a line on the way, and one at the end of each table.
    const total = counts.products.toLocaleString('en');
    expect(stdout.match(new RegExp(`^products: [\\d,]+ / ${total} rows$`, 'gm'))?.length).toBeGreaterThanOrEqual(2);
    expect(stdout).toMatch(new RegExp(`^products: ${total} / ${total} rows$`, 'm'));
    expect(stdout).toMatch(/^Moved [\d,]+ rows of \d+ tables into PostgreSQL/m);

    const moved = openDatabase({ url: target.url });
    try {
      for (const table of tables) {
        const row = await moved.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
        expect(Number(row.n), table).toBe(counts[table]);
      }
      const rows = await moved.db.selectFrom('products').selectAll().where('id', 'in', sample.map((r) => Number(r.id))).orderBy('id').execute();
      expect(rows.map(asText)).toEqual(sample.map(asText));
      expect((await moved.db.selectFrom('users').selectAll().orderBy('id').execute()).map(asText)).toEqual(users.map(asText));
      // The text indexes, dropped while the rows were copied, are made again as migrating makes them.
      const empty = await freshDatabase();
      cleanups.push(empty.drop);
      await migrate(empty.database);
      const made = await textIndexes(empty.database.db);
      await empty.database.close();
      expect(made.length).toBeGreaterThan(0);
      expect(await textIndexes(moved.db)).toEqual(made);
    } finally {
      await moved.close();
    }

    // The server on PostgreSQL: old passwords sign in, counters answer, ids continue.
    const server = await startProcess({ DATABASE_URL: target.url!, DEMO: '0' });
    started.push(server);
    const admin = await server.login(demo.admin.email, demo.admin.password);
    const list = await server.post('/products', { page: 1 }, admin);
    expect(list.body.HLL.total).toBe(counts.products);
    expect(list.body.HLL.data[0]).toMatchObject({ id: lastIds.products });
    const last = await server.post('/products', { page: list.body.HLL.last_page }, admin);
    expect(last.body.HLL.data.length).toBeGreaterThan(0);
    const found = await server.post('/search-dive', { keyIndex: 7, value: 'Moved product 4242', targets: ['name'] }, admin);
    const names = ['Moved product 4242', ...Array.from({ length: 10 }, (_, i) => `Moved product 4242${i}`)];
    expect(found.body.HLL.map((r: { name: string }) => r.name).sort()).toEqual(names.sort());
    const created = await server.post('/shop', {
      name: 'After the move', description: 'New', category_id: 1,
      address: { street_name: '1 Test Road', zip: '1000', country: 'Nigeria' },
      bank: { bank_name: 'Bank', bank_country: 'Nigeria', account_name: 'Test', account_number: '1' },
    }, admin);
    expect(created.body).toMatchObject({ status: true, detail: { id: lastIds.shops + 1 } });

    // A database that holds rows is refused, and left as it was.
    await expect(move(target.url!)).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('The PostgreSQL database is not empty') });
  }, 180_000);
});
