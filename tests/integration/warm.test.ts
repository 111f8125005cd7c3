/**
 * The warm-up a server runs once it listens (server/warm.ts): every searched column's sample is
 * taken (the first search of a column no longer takes it), searches and pages are read, and it
 * stops at once when the server stops; before it, the database's connections are opened (PostgreSQL's
 * pool, kept open from then on).
 */
import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../server/registry';
import { migrate, openDatabase, textSearchColumns, type Database } from '../../server/db';
import { TRIGRAM_PIECES, sampled } from '../../server/trigrams';
import { WARM_UP, textFrom, warmUp } from '../../server/warm';
import { dialect, freshDatabase } from './harness';

let database: Database;
let drop: () => Promise<void>;
const kept = { ...TRIGRAM_PIECES };

beforeAll(async () => {
  // Samples are taken on tables of any size here (large ones only, in production).
  Object.assign(TRIGRAM_PIECES, { minRows: 0 });
  const fresh = await freshDatabase();
  database = fresh.database;
  drop = fresh.drop;
  await migrate(database);
  const stamp = new Date().toISOString();
  await database.db.insertInto('users')
    .values(Array.from({ length: 50 }, (_, i) => ({ name: `Warm Person ${i}`, email: `warm${i}@example.com`, is_active: 1, created_at: stamp, updated_at: stamp })))
    .execute();
  await database.db.insertInto('distances')
    .values(Array.from({ length: 50 }, (_, i) => ({ location_A: `Town ${i}`, location_B: 'City', distance_km: i, created_at: stamp, updated_at: stamp })))
    .execute();
});
afterAll(async () => {
  Object.assign(TRIGRAM_PIECES, kept);
  await database.close();
  await drop();
});

describe(`the warm-up at start on ${dialect}`, () => {
  const searched = registry.entities.flatMap((e) => (e.search ? e.search.targets.filter((t) => textSearchColumns(e).includes(t)).map((column) => [e, column] as const) : []));

  it('opens every connection the database keeps, and no more when asked again', async () => {
    await database.openConnections();
    const open = database.connections().open;
    expect(open).toBe(dialect === 'postgres' ? Number(process.env.PG_POOL_SIZE ?? 10) : 1);
    await database.openConnections();
    await Promise.all(Array.from({ length: 3 }, () => database.db.selectFrom('users').select('id').execute()));
    expect(database.connections().open).toBe(open);
  });

  it.runIf(dialect === 'postgres')('a kept connection the database ends is reported, not fatal, and the next query opens another', async () => {
    const fresh = await freshDatabase();
    await fresh.database.close();
    const ended: Error[] = [];
    const pooled = openDatabase({ url: fresh.url, onConnectionError: (error) => ended.push(error) });
    try {
      await pooled.openConnections();
      const open = pooled.connections().open;
      expect(open).toBeGreaterThan(0);
      // As a restart or an operator would: every other connection to the database ended by the server.
      const operator = new pg.Client({ connectionString: fresh.url });
      await operator.connect();
      await operator.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
      await operator.end();
      await expect.poll(() => ended.length).toBe(open);
      expect(ended[0].message).toMatch(/terminating connection/);
      expect((await sql<{ one: number }>`select 1 as one`.execute(pooled.db)).rows).toEqual([{ one: 1 }]);
    } finally {
      await pooled.close();
      await fresh.drop();
    }
  });

  it('stops at once when the server is stopping', async () => {
    expect(await warmUp(database.db, registry.entities, () => true)).toBe(0);
    expect(await sampled(database.db, registry.entity('users'), 'name')).toBe(false);
  });

  it("takes every searched column's sample, then reads searches and pages", async () => {
    expect(searched.length).toBeGreaterThan(0);
    for (const [entity, column] of searched) expect(await sampled(database.db, entity, column)).toBe(false);
    const steps = await warmUp(database.db, registry.entities);
    for (const [entity, column] of searched) expect({ table: entity.name, column, sampled: await sampled(database.db, entity, column) }).toEqual({ table: entity.name, column, sampled: true });
    // More than the samples: lists with records were read too.
    expect(steps).toBeGreaterThan(searched.length);
    expect(steps).toBeLessThanOrEqual(searched.length + registry.entities.length * WARM_UP.rounds);
  });

  it("reads a row's text from a random id on through the id's index, never by walking the table", async () => {
    // Enough rows that PostgreSQL's planner, asked for any one row from an id on, would rather walk
    // the table from its start (a fifth of a second at a million rows, on every start).
    const stamp = new Date().toISOString();
    for (let from = 0; from < 20_000; from += 1_000) {
      await database.db.insertInto('distances')
        .values(Array.from({ length: 1_000 }, (_, i) => ({ location_A: `Far ${from + i}`, location_B: 'City', distance_km: i, created_at: stamp, updated_at: stamp })))
        .execute();
    }
    await sql`analyze`.execute(database.db);
    const read = textFrom(database.db, registry.entity('distances'), 'location_A', 15_000).compile();
    const explained = await database.db.executeQuery<Record<string, string>>({ ...read, sql: `${dialect === 'postgres' ? 'explain' : 'explain query plan'} ${read.sql}` });
    const plan = explained.rows.map((r) => r['QUERY PLAN'] ?? r.detail).join('\n');
    expect(plan).toMatch(dialect === 'postgres' ? /Index (Only )?Scan using \w+ on distances/ : /SEARCH distances USING INTEGER PRIMARY KEY \(rowid>\?\)/);
    expect(plan).not.toMatch(/Seq Scan|SCAN distances|USE TEMP B-TREE/);
    // The first row from that id on: the row of that very id, as ids run without gaps here.
    const row = await textFrom(database.db, registry.entity('distances'), 'location_A', 15_000).executeTakeFirstOrThrow();
    const [own] = await database.db.selectFrom('distances').select('location_A').where('id', '=', 15_000).execute();
    expect(own.location_A).toMatch(/^Far \d+$/);
    expect(row.v).toBe(own.location_A);
  });
});
