/**
 * Demo rows come from each entity's own declaration (resources/README.md, "Rows"): rows linked to
 * other entities' rows are built by a module the declaration loads, which asks for those rows by name
 * and so has them seeded first, once; each table gets its demo rows while it holds nothing but its
 * reference rows (an entity added to a marketplace already running in demo mode gets its rows, linked
 * to the rows there); the entities' hooks write their own (the demo accounts) and finish them once
 * every table has its rows (the products' pictures, the orders' money).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createRegistry, i, j, REQ, s, type DeclaredRow, type DemoBuilder, type Registry, type ResourceApi } from '../../contract';
import { migrate, type Database } from '../../server/db';
import { registry as projectRegistry } from '../../server/registry';
import { seedDemo, seedReference } from '../../server/seed';
import { openFileStore, readAll } from '../../server/storage';
import { freshDatabase } from './harness';

/** A throwaway entity of these tests, its demo rows built by `build`. */
const entity = (name: string, build: DemoBuilder): ResourceApi => ({
  name,
  title: name,
  api: {
    access: 'shops', save: `/${name}-save`, list: `/${name}-list`, status: `/${name}-status`,
    listShape: 'array', remove: 'none', activeAs: 'int', statusFields: [],
    rules: { read: 'admin', create: 'none', update: 'none' },
    fields: { shop_id: i(), shelf_id: i(), label: s(REQ), tags: j() },
  },
  rows: { demo: async () => ({ default: build }) },
});

const ids = (rows: readonly DeclaredRow[]) => rows.map((row) => Number(row.id));

let opened: { database: Database; dir: string; drop(): Promise<void> } | undefined;
afterEach(async () => {
  await opened?.database.close();
  await opened?.drop();
  opened = undefined;
});

/** A fresh database, made and seeded with these resource files in turn (each as a start of the server in demo mode). */
async function started(registries: Registry[], files = false) {
  opened = await freshDatabase();
  const { database, dir } = opened;
  const seeded: string[][] = [];
  for (const registry of registries) {
    await migrate(database, registry);
    await seedReference(database.db, registry);
    seeded.push(await seedDemo(database.db, registry, files ? { files: { dataDir: dir } } : {}));
  }
  return { db: database.db, dir, seeded };
}

const count = async (db: Database['db'], table: string) => (await db.selectFrom(table).select('id').execute()).length;

describe("the project's demo data", () => {
  it('fills every table whose declaration gives demo rows, and only those', async () => {
    const { db, seeded } = await started([projectRegistry]);
    const declared = projectRegistry.resources.filter((r) => r.rows?.demo).map((r) => r.name);
    expect([...seeded[0]].sort()).toEqual([...declared].sort());
    for (const name of declared) expect(await count(db, name), name).toBeGreaterThan(projectRegistry.resources.find((r) => r.name === name)!.rows?.reference?.length ?? 0);
  });

  it("gives each demo product its pictures in the file store, and tells the demo orders' money in the ledger", async () => {
    const { db, dir } = await started([projectRegistry], true);
    const products = await db.selectFrom('products').select(['id', 'image']).execute();
    expect(products.length).toBeGreaterThan(0);
    const store = openFileStore({ dataDir: dir });
    try {
      for (const product of products) {
        const images = JSON.parse(String(product.image)) as { image: string }[];
        expect(images.length, `product ${product.id}`).toBeGreaterThan(0);
        for (const { image } of images) expect(await readAll(store, 'images', image.split('/').pop()!), image).not.toBeNull();
      }
    } finally {
      await store.close();
    }
    expect(await count(db, 'uploads')).toBe(products.reduce((n, p) => n + (JSON.parse(String(p.image)) as unknown[]).length, 0));
    expect(await db.selectFrom('payouts').select(['state', 'reference']).execute()).toContainEqual({ state: 'paid', reference: 'DEMO-TRANSFER-1' });
    const reasons = (await db.selectFrom('refunds').select('reason').execute()).map((r) => r.reason);
    expect(reasons).toEqual(expect.arrayContaining(['Arrived damaged', 'Returned by the buyer']));
  });

  it('writes no file without a file store (a test server), and its products link none', async () => {
    const { db } = await started([projectRegistry]);
    expect(await count(db, 'uploads')).toBe(0);
    for (const product of await db.selectFrom('products').select('image').execute()) expect(JSON.parse(String(product.image))).toEqual([]);
  });
});

describe('an entity added to a marketplace running in demo mode', () => {
  // Labels come before shelves in the registry (by name) and ask for them: shelves are seeded first.
  const labels = entity('demoLabels', async ({ rows }) => (await rows('demoShelves')).map((shelf) => ({ shelf_id: shelf.id, label: `Label of ${String(shelf.label)}` })));
  const shelves = entity('demoShelves', async ({ rows, now }) => {
    const shops = await rows('shops');
    return shops.slice(0, 2).map((shop, k) => ({
      shop_id: shop.id, label: `Shelf ${k + 1}`, tags: ['demo', k], created_at: new Date(now - 86_400_000).toISOString(),
    }));
  });
  const later = createRegistry([...projectRegistry.resources, labels, shelves]);

  it("gets rows built from the rows already there, an entity asked for seeded first, and leaves the others' tables alone", async () => {
    const { db, seeded } = await started([projectRegistry, later]);
    expect(seeded[1]).toEqual(['demoShelves', 'demoLabels']);
    const shops = await db.selectFrom('shops').select('id').orderBy('id').execute();
    const shelfRows = await db.selectFrom('demoShelves').selectAll().orderBy('id').execute();
    expect(shelfRows.map((r) => Number(r.shop_id))).toEqual(ids(shops).slice(0, 2));
    const labelRows = await db.selectFrom('demoLabels').selectAll().orderBy('id').execute();
    expect(labelRows.map((r) => [Number(r.shelf_id), r.label])).toEqual(shelfRows.map((r) => [Number(r.id), `Label of ${String(r.label)}`]));
    // JSON given as a value is stored as text; a row's own time is kept, the others stamped now.
    expect(shelfRows[1].tags).toBe('["demo",1]');
    expect(Date.now() - Date.parse(String(shelfRows[0].created_at))).toBeGreaterThanOrEqual(86_400_000);
    expect(Date.now() - Date.parse(String(labelRows[0].created_at))).toBeLessThan(86_400_000);
  });

  it('gets them once: a table holding more than its reference rows is left as it is', async () => {
    const { db, seeded } = await started([projectRegistry, later, later]);
    expect(seeded[2]).toEqual([]);
    expect(await count(db, 'demoShelves')).toBe(2);
  });
});

describe('demo rows that cannot be written', () => {
  it('fail naming the entities when they ask for each other', async () => {
    const loops = createRegistry([
      ...projectRegistry.resources,
      entity('demoLoopA', async ({ rows }) => (await rows('demoLoopB')).map(() => ({ label: 'a' }))),
      entity('demoLoopB', async ({ rows }) => (await rows('demoLoopA')).map(() => ({ label: 'b' }))),
    ]);
    await expect(started([loops])).rejects.toThrow('Demo rows ask for each other: demoLoopA → demoLoopB → demoLoopA');
  });

  it("fail naming the entity and the rule when a built row breaks the entity's rules", async () => {
    const broken = createRegistry([...projectRegistry.resources, entity('demoShelves', () => [{ shop_id: 1, tags: [] }])]);
    await expect(started([broken])).rejects.toThrow(/A demo row of demoShelves breaks its rules: label is required/);
  });
});
