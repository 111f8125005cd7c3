/**
 * PostgreSQL's page reads prepared once per connection and run by name (server/db/prepared.ts):
 * only the statements marked so (a page read, shaped.ts) and reused, at most
 * PREPARED.perConnection a connection, those with more than PREPARED.maxParameters values sent
 * unnamed, a statement whose table gained a column run again unnamed (the connection closed
 * afterwards), and nothing prepared when turned off. Read from PostgreSQL's own list of a
 * session's prepared statements.
 */
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bound, openDatabase, readPlanned, readShaped, type DB, type Database } from '../../server/db';
import { PREPARED, runByName } from '../../server/db/prepared';
import { dialect, freshDatabase } from './harness';

const limits = { ...PREPARED };
let url: string;
let drop: () => Promise<void>;
const opened: Database[] = [];

/** A database of its own for each test, so that its first connection has prepared nothing yet. */
function open(prepare?: boolean): DB {
  const database = openDatabase({ url, prepare });
  opened.push(database);
  return database.db;
}

/** The statements this connection has prepared whose text names the probe table, and how often each ran. */
async function preparedOn(connection: DB): Promise<{ statement: string; runs: number }[]> {
  const { rows } = await sql<{ statement: string; runs: string }>`
    select statement, generic_plans + custom_plans as runs from pg_prepared_statements
    where not from_sql and statement like ${'%prepared_probe%'} order by prepare_time`.execute(connection);
  return rows.map((r) => ({ statement: r.statement, runs: Number(r.runs) }));
}

/** A statement of its own kind for each `n`, reading the probe table: its rows' names. */
const kindOf = (n: number) => `select name from prepared_probe where id <= $1 and ${n} = ${n} order by id`;
const named = async (connection: DB, n: number) =>
  (await sql<{ name: string }>`select name from prepared_probe where id <= ${n} and ${sql.lit(n)} = ${sql.lit(n)} order by id`.execute(connection)).rows.map((r) => r.name);
const byId = 'select name from prepared_probe where id = $1';
const everything = 'select * from prepared_probe where id = $1';

describe.runIf(dialect === 'postgres')('statements prepared on PostgreSQL', () => {
  beforeAll(async () => {
    const fresh = await freshDatabase();
    url = fresh.url!;
    drop = fresh.drop;
    await sql`create table prepared_probe (id integer primary key, name text not null)`.execute(fresh.database.db);
    await sql`insert into prepared_probe (id, name) select i, 'row ' || i from generate_series(1, 5) as i`.execute(fresh.database.db);
    await fresh.database.close();
  });
  afterEach(async () => {
    Object.assign(PREPARED, limits);
    await Promise.all(opened.splice(0).map((d) => d.close()));
  });
  afterAll(async () => {
    await drop();
  });

  it('prepares a statement marked to run by name once on a connection, and runs it by name after', async () => {
    runByName(byId);
    await open().connection().execute(async (connection) => {
      for (const id of [1, 2, 3]) {
        const { rows } = await sql<{ name: string }>`select name from prepared_probe where id = ${id}`.execute(connection);
        expect(rows).toEqual([{ name: `row ${id}` }]);
      }
      expect(await preparedOn(connection)).toEqual([{ statement: byId, runs: 3 }]);
    });
  });

  it('sends a statement not marked unnamed: a search, a filter, any other', async () => {
    await open().connection().execute(async (connection) => {
      // kindOf(7), marked by no test: run twice, prepared never.
      for (let i = 0; i < 2; i++) expect(await named(connection, 7)).toEqual(['row 1', 'row 2', 'row 3', 'row 4', 'row 5']);
      expect(await preparedOn(connection)).toEqual([]);
    });
  });

  it("runs a list page's reads by name (shaped.ts marks them)", async () => {
    await open().connection().execute(async (connection) => {
      const read = (id: number) => readShaped(connection, JSON.stringify(['prepared probe', 'by id']), [id], (slot) => connection.selectFrom('prepared_probe').select('name').where('id', '=', slot(0)));
      expect(await read(4)).toEqual([{ name: 'row 4' }]);
      expect(await read(5)).toEqual([{ name: 'row 5' }]);
      expect(await preparedOn(connection)).toEqual([{ statement: 'select "name" from "prepared_probe" where "id" = $1', runs: 2 }]);
    });
  });

  it("sends a planned read (a search's statements) unnamed: its best plan depends on its values", async () => {
    await open().connection().execute(async (connection) => {
      const read = (id: number) =>
        readPlanned(connection, JSON.stringify(['prepared probe', 'planned']), { id: bound(id) }, (plan) => connection.selectFrom('prepared_probe').select(['id', 'name']).where('id', '=', plan.id));
      expect(await read(4)).toEqual([{ id: 4, name: 'row 4' }]);
      expect(await read(5)).toEqual([{ id: 5, name: 'row 5' }]);
      expect(await preparedOn(connection)).toEqual([]);
    });
  });

  it('keeps at most PREPARED.perConnection statements a connection, and sends the others unnamed', async () => {
    PREPARED.perConnection = 3;
    [1, 2, 3, 4, 5].forEach((n) => runByName(kindOf(n)));
    await open().connection().execute(async (connection) => {
      // Five kinds of statement marked: the first three are prepared, the fourth and fifth are not;
      // every one answers.
      for (const n of [1, 2, 3, 4, 5]) expect(await named(connection, n)).toEqual(Array.from({ length: n }, (_, i) => `row ${i + 1}`));
      for (const n of [4, 5]) await named(connection, n);
      const prepared = await preparedOn(connection);
      expect(prepared.map((p) => p.statement)).toEqual([1, 2, 3].map(kindOf));
      expect(prepared.map((p) => p.runs)).toEqual([1, 1, 1]);
    });
  });

  it(`sends a statement with more than PREPARED.maxParameters values unnamed`, async () => {
    PREPARED.maxParameters = 3;
    for (const n of [3, 4]) runByName(`select id from prepared_probe where id in (${Array.from({ length: n }, (_, i) => `$${i + 1}`).join(', ')}) order by id`);
    await open().connection().execute(async (connection) => {
      const among = async (ids: number[]) =>
        (await sql<{ id: number }>`select id from prepared_probe where id in (${sql.join(ids)}) order by id`.execute(connection)).rows.map((r) => r.id);
      expect(await among([1, 2, 3])).toEqual([1, 2, 3]);
      expect(await among([1, 2, 3, 4])).toEqual([1, 2, 3, 4]);
      expect((await preparedOn(connection)).map((p) => p.statement)).toEqual(['select id from prepared_probe where id in ($1, $2, $3) order by id']);
    });
  });

  it('answers a statement whose table gained a column, and closes that connection when it is handed back', async () => {
    runByName(everything);
    runByName(kindOf(2));
    const db = open();
    let first = 0;
    try {
      await db.connection().execute(async (connection) => {
        first = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(connection)).rows[0].pid;
        const read = async () => (await sql<Record<string, unknown>>`select * from prepared_probe where id = ${1}`.execute(connection)).rows;
        expect(await read()).toEqual([{ id: 1, name: 'row 1' }]);
        // Another process migrating, as a rolling upgrade does.
        await sql`alter table prepared_probe add column note text not null default 'new'`.execute(open(false));
        expect(await read()).toEqual([{ id: 1, name: 'row 1', note: 'new' }]);
        // From then on, nothing more is prepared on it.
        await named(connection, 2);
        expect((await preparedOn(connection)).map((p) => p.statement)).toEqual([everything]);
      });
      const other = open(false);
      await expect.poll(async () => Number((await sql<{ n: string }>`select count(*) as n from pg_stat_activity where pid = ${first}`.execute(other)).rows[0].n)).toBe(0);
      // The pool opens another connection, which prepares its statements again.
      await db.connection().execute(async (connection) => {
        expect((await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(connection)).rows[0].pid).not.toBe(first);
        expect((await sql`select * from prepared_probe where id = ${1}`.execute(connection)).rows).toEqual([{ id: 1, name: 'row 1', note: 'new' }]);
      });
    } finally {
      await sql`alter table prepared_probe drop column if exists note`.execute(open(false));
    }
  });

  it('fails a transaction whose prepared statement changed under it, as PostgreSQL has ended the transaction', async () => {
    runByName(everything);
    const db = open();
    const inside = db.transaction().execute(async (trx) => {
      await sql`select * from prepared_probe where id = ${1}`.execute(trx);
      await sql`alter table prepared_probe add column later text`.execute(trx);
      await sql`select * from prepared_probe where id = ${1}`.execute(trx);
    });
    await expect(inside).rejects.toThrow(/cached plan must not change result type/);
    // Rolled back whole: no column added, and the database answers.
    expect((await sql`select * from prepared_probe where id = ${1}`.execute(db)).rows).toEqual([{ id: 1, name: 'row 1' }]);
  });

  it('prepares nothing when turned off', async () => {
    runByName(byId);
    await open(false).connection().execute(async (connection) => {
      for (const id of [1, 2]) await sql`select name from prepared_probe where id = ${id}`.execute(connection);
      expect(await preparedOn(connection)).toEqual([]);
    });
  });
});
