/**
 * Part-of-text search through the indexes (FTS5 trigram on SQLite, pg_trgm on PostgreSQL) answers
 * exactly what the substring rule answers: generated rows with mixed case, `%`, `_`, quotes, FTS
 * syntax and non-ASCII letters, searched by generated values, through both paths, before and after
 * updates and deletes (the triggers keep the index in step). Also: a seller's records through the
 * trigger-kept seller column are exactly those of their shops; any page, including the last, is the
 * slice of the whole ordered list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntityContract } from '../../contract';
import { registry } from '../../server/registry';
import { sql } from 'kysely';
import { migrate, textSearchColumns, type Database, type DB, type Row } from '../../server/db';
import { SHORT_WINDOW, listPage, type ListQuery } from '../../server/store';
import { TRIGRAM_PIECES, rarePieces } from '../../server/trigrams';
import { trigramIndex } from '../../server/db/triggers';
import { dialect, freshDatabase } from './harness';

let database: Database;
let db: DB;
let drop: () => Promise<void>;

/** A small deterministic generator, so a failure names its seed and repeats. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = random(20240612);
const pick = <T,>(list: readonly T[]) => list[Math.floor(rand() * list.length)];
const PIECES = ['ab', 'AB', 'Ab', 'x', '%', '_', '\\', '"', "'", ' ', '10', '100%', 'a_b', 'NEAR', 'AND', 'OR', '*', '{name}', ':',
  'é', 'É', 'ß', 'İ', 'ı', '東京', 'Lagos', 'lagos', 'Shop', 'shop', '-', '^', '(', ')'];
const phrase = (parts: number) => Array.from({ length: parts }, () => pick(PIECES)).join('');

const stamp = new Date().toISOString();
async function insert(table: string, rows: Row[]) {
  return db.insertInto(table).values(rows.map((r) => ({ ...r, created_at: stamp, updated_at: stamp }))).returning('id').execute();
}

const all = { kind: 'all' } as const;
async function search(entity: EntityContract, value: string, targets: string[], plain: boolean) {
  const q: ListQuery = { page: 1, perPage: 1000, search: { value, targets, plain } };
  const page = await listPage(db, entity, all, q);
  return { total: page.total, ids: page.data.map((r) => r.id) };
}

/** Values worth searching: parts of stored texts, shifted case, and generated strings. */
function values(texts: string[]): string[] {
  const out = new Set<string>();
  for (let i = 0; i < 50; i++) {
    const text = pick(texts);
    const start = Math.floor(rand() * text.length);
    const part = text.slice(start, start + 1 + Math.floor(rand() * 6));
    out.add(rand() < 0.3 ? part.toUpperCase() : part);
    out.add(phrase(1 + Math.floor(rand() * 3)));
  }
  for (const v of ['%', '_', '%%', 'a%b', '"', '""', 'shop"', '{name} : x', 'NEAR(ab', '*', 'ab*', '  ab  ', 'İ', 'é', 'É', '東京', '12', '1']) out.add(v);
  return [...out].filter((v) => v.trim());
}

async function compareAll(entity: EntityContract, texts: string[], targetSets: string[][]) {
  let compared = 0;
  for (const value of values(texts)) {
    for (const targets of targetSets) {
      const indexed = await search(entity, value, targets, false);
      const reference = await search(entity, value, targets, true);
      expect({ value, targets, ...indexed }).toEqual({ value, targets, ...reference });
      compared++;
    }
  }
  return compared;
}

const pieces = { ...TRIGRAM_PIECES };
beforeAll(async () => {
  // PostgreSQL looks up a value's rare pieces on large tables only: here on every table, each
  // search weighing the pieces against the rows as they are now.
  Object.assign(TRIGRAM_PIECES, { minRows: 0, maxAgeMs: 0 });
  const fresh = await freshDatabase();
  database = fresh.database;
  db = database.db;
  drop = fresh.drop;
  await migrate(database);
});
afterAll(async () => {
  Object.assign(TRIGRAM_PIECES, pieces);
  await database.close();
  await drop();
});

describe(`search through the indexes on ${dialect}`, () => {
  it('answers what the substring rule answers, before and after updates and deletes', async () => {
    const names = Array.from({ length: 400 }, (_, i) => `${phrase(2 + (i % 5))} ${i}`);
    const cities = Array.from({ length: 400 }, () => phrase(3));
    const ids = await insert('users', names.map((name, i) => ({
      name, email: `u${i}@example.com`, phone: `+1 555 ${String(i).padStart(4, '0')}`, city: cities[i], country: pick(['Nigeria', 'Ghana', 'Côte d’Ivoire', null]),
      abilities: '[1]', granted_accesses: '[]', is_active: 1,
    })));
    const users = registry.entity('users');
    const targetSets = [['name'], ['id', 'name'], ['id', 'name', 'email', 'phone', 'city', 'country']];
    expect(await compareAll(users, [...names, ...cities], targetSets)).toBeGreaterThan(250);
    if (dialect === 'postgres') {
      // The whole value looked up, as on a small table.
      TRIGRAM_PIECES.minRows = Infinity;
      await compareAll(users, [...names, ...cities], targetSets);
      TRIGRAM_PIECES.minRows = 0;
    }

    // Writes go through the triggers: rename some, empty some, delete some, then compare again.
    const every = (k: number) => ids.filter((_, i) => i % k === 0).map((r) => r.id);
    await db.updateTable('users').set((eb) => ({ name: eb.fn('upper', ['name']), city: null })).where('id', 'in', every(3)).execute();
    await db.updateTable('users').set({ name: 'Renamed %_ Shop' }).where('id', 'in', every(5)).execute();
    await db.deleteFrom('users').where('id', 'in', every(7)).execute();
    await db.updateTable('users').set({ is_active: 0 }).where('id', 'in', every(11)).execute();
    const now = (await db.selectFrom('users').select(['name', 'city']).execute()).flatMap((r) => [String(r.name), String(r.city ?? '')]);
    await compareAll(users, now.filter(Boolean), targetSets);
    // A part known to be there is found, in any case; an id matches exactly.
    const sample = String((await db.selectFrom('users').select(['id', 'name']).where('name', '=', 'Renamed %_ Shop').executeTakeFirstOrThrow()).name);
    expect((await search(users, sample.toUpperCase(), ['name'], false)).total).toBeGreaterThanOrEqual(1);
    const one = Number(ids[2].id);
    expect((await search(users, String(one), ['id'], false)).ids).toEqual([one]);
  });

  it('answers the same when the text index finds more rows than it hands over at once', async () => {
    await insert('users', Array.from({ length: 2100 }, (_, i) => ({ name: `Common Name ${i % 3 ? 'x' : '%'} ${i}`, email: `c${i}@example.com`, is_active: 1 })));
    const users = registry.entity('users');
    for (const value of ['common name', 'MON NAME %', 'name x 1', 'Name % 2']) {
      const indexed = await search(users, value, ['id', 'name'], false);
      expect(indexed).toEqual(await search(users, value, ['id', 'name'], true));
    }
    expect((await listPage(db, users, all, { page: 1, perPage: 15, search: { value: 'common name', targets: ['name'] } })).total).toBe(2100);
  });

  it('answers a one- or two-character value from the newest records only, and exactly below that many', async () => {
    const users = registry.entity('users');
    const total = Number((await db.selectFrom('users').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const kept = SHORT_WINDOW.records;
    try {
      // The whole table fits in the window: the substring rule's answer, short values included.
      SHORT_WINDOW.records = total;
      for (const value of ['x', 'X', '%', '_', '1', '12', 'ab', 'é']) {
        expect(await search(users, value, ['id', 'name'], false)).toEqual(await search(users, value, ['id', 'name'], true));
      }
      // A smaller window: the matches among the newest `window` records, plus an exact id anywhere.
      const window = Math.floor(total / 3);
      SHORT_WINDOW.records = window;
      const newest = (await db.selectFrom('users').select(['id', 'name']).orderBy('id', 'desc').limit(window).execute());
      const oldest = Number((await db.selectFrom('users').select('id').orderBy('id', 'asc').limit(1).executeTakeFirstOrThrow()).id);
      for (const value of ['x', '1', 'Co', '%']) {
        const expected = newest.filter((r) => String(r.name ?? '').toLowerCase().includes(value.toLowerCase())).map((r) => Number(r.id));
        const found = await search(users, value, ['name'], false);
        expect(found).toEqual({ total: expected.length, ids: expected });
      }
      if (String(oldest).length <= 2) {
        expect((await search(users, String(oldest), ['id', 'name'], false)).ids).toContain(oldest);
      }
      // Three characters or more: the whole table, whatever the window.
      expect(await search(users, 'mon', ['name'], false)).toEqual(await search(users, 'mon', ['name'], true));
    } finally {
      SHORT_WINDOW.records = kept;
    }
  });

  it('looks up only the rare pieces of a value in the trigram index, the rule deciding after', async () => {
    await insert('users', Array.from({ length: 3000 }, (_, i) => ({ name: `Frequent Label ${i}`, email: `f${i}@example.com`, is_active: 1 })));
    const pieces = await rarePieces(db, registry.entity('users'), 'name', 'FREQUENT label 2345');
    // Only the digits are rare: the letters are in every row (a word's edge, " 23", may be rare or not
    // depending on the sample: 2% of these rows hold it).
    expect(pieces).toEqual(expect.arrayContaining(['234', '345']));
    for (const piece of pieces!) expect(piece).toMatch(/^[ \d]+$/);
    const users = registry.entity('users');
    for (const value of ['FREQUENT label 2345', 'label 23', 'quent Label 299', 'Label 1%', 'frequent label', 'ent Lab']) {
      expect(await search(users, value, ['id', 'name'], false)).toEqual(await search(users, value, ['id', 'name'], true));
    }
    // A word's edge: "-37" (rows whose number starts with 37) is rare where "TRACK" and "37" alone are not.
    await insert('users', Array.from({ length: 3000 }, (_, i) => ({ name: `Track-${String((i * 7919) % 100000).padStart(5, '0')}`, email: `t${i}@example.com`, is_active: 1 })));
    expect(await rarePieces(db, registry.entity('users'), 'name', 'TRACK-37')).toEqual(['-37']);
    expect(await rarePieces(db, registry.entity('users'), 'name', 'ack-370')).toEqual(expect.arrayContaining(['-37', '370']));
    for (const value of ['TRACK-37', 'ack-370', 'k-3', 'Track 37', 'track-37)', 'CK-0']) {
      expect(await search(users, value, ['id', 'name'], false)).toEqual(await search(users, value, ['id', 'name'], true));
    }
    expect((await search(users, 'TRACK-37', ['name'], false)).total).toBeGreaterThan(10);
    // Nothing rare in the value: the whole value is looked up.
    expect(await rarePieces(db, registry.entity('users'), 'name', 'Frequent Label')).toBeUndefined();
    expect(await rarePieces(db, registry.entity('users'), 'name', '%_ é')).toBeUndefined();
  });

  it("weighs a piece by every column the index's lists cover: the column's own on PostgreSQL, the table's on SQLite", async () => {
    // Every new email holds "zqv", no name does. pg_trgm's index is one column's: "zqv" is rare among
    // names. FTS5 keeps one list per trigram for all the table's columns: "zqv"'s holds every new row,
    // and reading it to search names would read them all.
    for (let batch = 0; batch < 3; batch++) {
      await insert('users', Array.from({ length: 2000 }, (_, i) => ({ name: `Member ${batch * 2000 + i}`, email: `zqv${batch * 2000 + i}@example.org`, is_active: 1 })));
    }
    const users = registry.entity('users');
    const pieces = await rarePieces(db, users, 'name', 'zqv 4321');
    expect(pieces).toEqual(expect.arrayContaining(['432', '321']));
    if (dialect === 'postgres') expect(pieces).toContain('zqv');
    else expect(pieces).not.toContain('zqv');
    for (const value of ['zqv 4321', 'zqv4321', 'Member 4321', 'ber 432']) {
      expect(await search(users, value, ['id', 'name', 'email'], false)).toEqual(await search(users, value, ['id', 'name', 'email'], true));
    }
    expect((await search(users, 'zqv4321', ['name', 'email'], false)).total).toBe(1);
  });

  it('searches number columns as text, as before', async () => {
    await insert('distances', [1.5, 12.25, 100, 7].map((d, i) => ({ location_A: `Town ${i}`, location_B: 'City', distance_km: d })));
    const distances = registry.entity('distances');
    for (const value of ['1', '12', '2.2', '100', 'town', 'Town 1', '%']) {
      for (const targets of [['distance_km'], ['id', 'location_A', 'distance_km']]) {
        expect(await search(distances, value, targets, false)).toEqual(await search(distances, value, targets, true));
      }
    }
    expect((await search(distances, '12.2', ['distance_km'], false)).total).toBe(1);
  });

  it('answers what the rule answers when a value cannot be in a timestamp, which is then not looked in', async () => {
    const users = registry.entity('users');
    const [row] = await db.selectFrom('users').select(['id', 'name', 'created_at']).orderBy('id').limit(1).execute();
    const stamp = String(row.created_at);
    // In a timestamp: parts of it, in any case. Not: a letter of no timestamp, a space, a sign.
    const values = [stamp.slice(0, 7), stamp.slice(5, 13).toUpperCase(), stamp.slice(11, 19), 'T', 'z', ':', 'TRK-1', 'x', `${stamp.slice(0, 10)} `, `${stamp.slice(0, 4)} ${stamp.slice(5, 7)}`, '+', String(row.name).slice(0, 3), String(row.id)];
    for (const value of values) {
      for (const targets of [['created_at'], ['id', 'created_at'], ['id', 'name', 'created_at']]) {
        expect({ value, targets, ...(await search(users, value, targets, false)) }).toEqual({ value, targets, ...(await search(users, value, targets, true)) });
      }
    }
    const stamped = await db.selectFrom('users').select('id').where('created_at', '=', stamp).execute();
    expect((await search(users, stamp.toLowerCase(), ['created_at'], false)).total).toBe(stamped.length);
  });

  it.runIf(dialect === 'postgres')('writes into the trigram indexes in place, and empties the waiting list of an index made before', async () => {
    // Moves what waits in an index's pending list into it, and says how many pages of the list it emptied.
    const emptied = async (index: string) =>
      Number((await sql<{ n: string }>`select gin_clean_pending_list(to_regclass(${`"${index}"`}))::text as n`.execute(db)).rows[0].n);
    const listOff = async (index: string) =>
      (await sql<{ off: boolean }>`select coalesce('fastupdate=off' = any(reloptions), false) as off from pg_class where oid = to_regclass(${`"${index}"`})`.execute(db)).rows[0].off;
    const indexes = registry.entities.flatMap((entity) => textSearchColumns(entity).map((column) => trigramIndex(entity.name, column)));
    expect(indexes.length).toBeGreaterThan(1);

    // A write's entries go into the index at once: nothing waits in a list every search reads whole.
    await insert('users', [{ name: 'Pending Probe', email: 'pending.probe@example.com', is_active: 1 }]);
    for (const index of indexes) expect({ index, emptied: await emptied(index), off: await listOff(index) }).toEqual({ index, emptied: 0, off: true });

    // Two indexes made with the list on, as before this rule: a write waits in both (shown on one).
    const users = registry.entity('users');
    const [first, second] = textSearchColumns(users).map((column) => trigramIndex(users.name, column));
    for (const index of [first, second]) await sql.raw(`alter index "${index}" set (fastupdate = on)`).execute(db);
    await insert('users', [{ name: 'Waiting Probe', email: 'waiting.probe@example.com', is_active: 1 }]);
    expect(await emptied(second)).toBeGreaterThan(0);
    await insert('users', [{ name: 'Waiting Again', email: 'waiting.again@example.com', is_active: 1 }]);
    // Migrating switches them off and moves what waited into the index.
    await migrate(database);
    for (const index of [first, second]) expect({ index, emptied: await emptied(index), off: await listOff(index) }).toEqual({ index, emptied: 0, off: true });
    expect((await search(users, 'waiting', ['name'], false)).total).toBe(2);
  });
});

describe(`lists on ${dialect}`, () => {
  it("scopes a seller to the products of their shops, also after a shop changes hands", async () => {
    const shops = await insert('shops', Array.from({ length: 6 }, (_, i) => ({ owner_id: 100 + (i % 2), name: `S${i}`, is_active: 1 })));
    await insert('products', Array.from({ length: 60 }, (_, i) => ({ shop_id: shops[i % 6].id, name: `P${i}`, price: 1 })));
    const products = registry.entity('products');
    const mine = async (userId: number) => (await listPage(db, products, { kind: 'own', userId }, { page: 1, perPage: 100 })).data.map((r) => r.id);
    const viaShops = async (userId: number) =>
      (await db.selectFrom('products').select('id').where('shop_id', 'in', db.selectFrom('shops').select('id').where('owner_id', '=', userId)).orderBy('id', 'desc').execute()).map((r) => r.id);
    expect(await mine(100)).toEqual(await viaShops(100));
    expect(await mine(100)).toHaveLength(30);
    await db.updateTable('shops').set({ owner_id: 101 }).where('id', '=', shops[0].id).execute();
    expect(await mine(101)).toEqual(await viaShops(101));
    expect(await mine(101)).toHaveLength(40);
    await db.updateTable('products').set({ shop_id: shops[2].id }).where('shop_id', '=', shops[1].id).execute();
    expect(await mine(101)).toEqual(await viaShops(101));
    expect(await mine(100)).toEqual(await viaShops(100));
  });

  it('weighs pieces by a sample kept while it is fresh, and taken again once it is not', async () => {
    const users = registry.entity('users');
    await insert('users', Array.from({ length: 3000 }, (_, i) => ({ name: `Filler ${i}`, email: `filler${i}@example.com`, is_active: 1 })));
    const before = await rarePieces(db, users, 'name', 'Qzx-Wvq');
    expect(before).toEqual(expect.arrayContaining(['qzx', 'wvq'].map((p) => expect.stringMatching(new RegExp(p, 'i')))));
    await insert('users', Array.from({ length: 1500 }, (_, i) => ({ name: `Qzx-Wvq ${i}`, email: `qzx${i}@example.com`, is_active: 1 })));
    TRIGRAM_PIECES.maxAgeMs = 60_000;
    try {
      // The sample taken before the rows came is still fresh: the pieces are still weighed as rare.
      expect(await rarePieces(db, users, 'name', 'Qzx-Wvq')).toEqual(before);
      expect(await rarePieces(db, users, 'name', 'Qzx-Wvq')).toEqual(before);
    } finally {
      TRIGRAM_PIECES.maxAgeMs = 0;
    }
    // Stale: a new sample holds the new rows, in which every piece of the value is common.
    expect(await rarePieces(db, users, 'name', 'Qzx-Wvq')).toBeUndefined();
  });

  it('serves every page, the last included, as a slice of the whole list or search, in any order', async () => {
    const products = registry.entity('products');
    await db.deleteFrom('products').where('id', 'in', db.selectFrom('products').select('id').where('name', 'like', 'P1%')).execute();
    await insert('products', Array.from({ length: 47 }, (_, i) => ({ shop_id: 1, name: `Quill ${i % 5}`, price: i % 4 === 0 ? null : i % 9 })));
    // A search's few matches found through the text index are checked once and paged from there.
    for (const search of [undefined, { value: 'quill', targets: ['name'] }, { value: 'LL 3', targets: ['id', 'name'] }]) {
      for (const sort of [undefined, { field: 'price', desc: false }, { field: 'price', desc: true }, { field: 'name', desc: false }]) {
        const whole = (await listPage(db, products, all, { page: 1, perPage: 100, sort, search })).data.map((r) => r.id);
        if (search) expect(whole.length).toBe(search.value === 'LL 3' ? 9 : 47);
        const pages: unknown[] = [];
        const first = await listPage(db, products, all, { page: 1, perPage: 7, sort, search });
        for (let page = 1; page <= first.last_page + 1; page++) {
          const answer = await listPage(db, products, all, { page, perPage: 7, sort, search });
          expect(answer).toMatchObject({ total: whole.length, current_page: page, last_page: Math.ceil(whole.length / 7) });
          pages.push(...answer.data.map((r) => r.id));
        }
        expect(pages).toEqual(whole);
      }
    }
  });

  it('pages through the range counters exactly, across ranges, after deletes and owner moves', async () => {
    const shops = registry.entity('shops');
    // Ids spread over several counter ranges (4,096 ids each), two owners.
    const ids = [...Array.from({ length: 40 }, (_, i) => 10_000 + i * 97), ...Array.from({ length: 30 }, (_, i) => 30_000 + i * 613)];
    await db.insertInto('shops').values(ids.map((id, i) => ({ id, owner_id: 200 + (i % 3 === 0 ? 1 : 0), name: `R${i}`, is_active: 1, created_at: stamp, updated_at: stamp }))).execute();
    await db.deleteFrom('shops').where('id', 'in', ids.filter((_, i) => i % 7 === 3)).execute();
    await db.updateTable('shops').set({ owner_id: 201 }).where('id', 'in', ids.filter((_, i) => i % 5 === 2)).execute();
    const check = async (scope: Parameters<typeof listPage>[2], owner?: number) => {
      for (const desc of [true, false]) {
        let all = db.selectFrom('shops').select('id').orderBy('id', desc ? 'desc' : 'asc');
        if (owner !== undefined) all = all.where('owner_id', '=', owner);
        const whole = (await all.execute()).map((r) => r.id);
        for (const perPage of [1, 7, 15]) {
          const pages: unknown[] = [];
          for (let page = 1; page <= Math.ceil(whole.length / perPage) + 1; page++) {
            const answer = await listPage(db, shops, scope, { page, perPage, sort: { field: 'id', desc } });
            expect(answer.total).toBe(whole.length);
            pages.push(...answer.data.map((r) => r.id));
          }
          expect(pages).toEqual(whole);
        }
      }
    };
    await check(all);
    await check({ kind: 'own', userId: 200 }, 200);
    await check({ kind: 'own', userId: 201 }, 201);
  });

  it('reads a page of a range holding every id from where it starts, and skips through a range with gaps', async () => {
    const shops = registry.entity('shops');
    // Ranges 20 and 21 full (4,096 ids each), 22 with a few ids, 19 with one, then one id deleted from 21.
    const full = Array.from({ length: 2 * 4096 }, (_, i) => 20 * 4096 + i);
    const ids = [19 * 4096 + 5, ...full, 22 * 4096 + 1, 22 * 4096 + 900, 22 * 4096 + 4000];
    for (let i = 0; i < ids.length; i += 500) {
      await db.insertInto('shops').values(ids.slice(i, i + 500).map((id) => ({ id, owner_id: 300, name: `F${id}`, is_active: 1, created_at: stamp, updated_at: stamp }))).execute();
    }
    const check = async () => {
      for (const desc of [true, false]) {
        const whole = (await db.selectFrom('shops').select('id').orderBy('id', desc ? 'desc' : 'asc').execute()).map((r) => r.id);
        for (const perPage of [100, 15]) {
          const last = Math.ceil(whole.length / perPage);
          // Every page of 100; pages of 15 around each full range's edges.
          const near = [20 * 4096, 21 * 4096 - 1, 21 * 4096, 22 * 4096 - 1].flatMap((id) => {
            const page = Math.floor(whole.indexOf(id) / perPage) + 1;
            return [page - 1, page, page + 1].filter((p) => p >= 1);
          });
          const pages = perPage === 100 ? Array.from({ length: last + 1 }, (_, i) => i + 1) : [1, ...near, last, last + 1];
          for (const page of pages) {
            const answer = await listPage(db, shops, all, { page, perPage, sort: { field: 'id', desc } });
            expect(answer.data.map((r) => r.id), `page ${page} of ${perPage}, ${desc ? 'newest' : 'oldest'} first`).toEqual(whole.slice((page - 1) * perPage, page * perPage));
          }
        }
      }
    };
    await check();
    await db.deleteFrom('shops').where('id', '=', 21 * 4096 + 2000).execute();
    await check();
  });
});
