/**
 * List and search speed of the reference server at scale, over real HTTP on loopback.
 *
 *   npm run bench                 # 200,000 shops and products
 *   BENCH_ROWS=1000000 npm run bench
 *
 * Seeds a temporary SQLite database, then times each call (median and 95th percentile of
 * BENCH_RUNS calls) and prints the query plans of the scoped list and the search.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Compilable } from 'kysely';
import { buildApp } from '../server/app';
import { migrate, openDatabase, type Row } from '../server/db';
import { seedDemo, seedReference, DEMO_ACCOUNTS } from '../server/seed';

const ROWS = Number(process.env.BENCH_ROWS ?? 200_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'marketplace-bench-'));
const database = openDatabase({ file: path.join(dir, 'bench.sqlite') });
const { db } = database;

async function seed() {
  await migrate(database);
  await seedReference(db);
  await seedDemo(db);
  const stamp = new Date().toISOString();
  const batch = 500;
  for (let start = 0; start < ROWS; start += batch) {
    const shops: Row[] = [];
    for (let i = start; i < Math.min(ROWS, start + batch); i++) {
      shops.push({
        owner_id: i % 10 === 0 ? 2 : 4, name: `Bench shop ${i}`, description: 'Generated', category_id: 1 + (i % 3),
        street_name: `${i} Long Road`, zip: '1000', city: 'Lagos', state: 'Lagos', country: 'Nigeria',
        bank_name: 'Bank', bank_country: 'Nigeria', account_name: 'Bench', account_number: String(i), is_active: 1,
        created_at: stamp, updated_at: stamp,
      });
    }
    const inserted = await db.insertInto('shops').values(shops).returning('id').execute();
    await db
      .insertInto('products')
      .values(inserted.map((s, k) => ({
        shop_id: s.id, name: `Bench product ${start + k}`, description: 'Generated', currency: 'USD', price: 10, sale_price: 9,
        in_stock: 5, category_id: 1, subcategory_id: 1, band_name: 'Acme', state: 'active', premier: 'no', product_type: 'new',
        created_at: stamp, updated_at: stamp,
      })))
      .execute();
  }
}

async function main() {
  const t0 = performance.now();
  await seed();
  console.log(`Seeded ${ROWS.toLocaleString()} shops and products in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const app = await buildApp({ db, config: { strict: false, publicUrl: 'http://bench', demo: true } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api`;
  const post = async (p: string, body: unknown, token?: string) => {
    const res = await fetch(url + p, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    const json = await res.json();
    if (!json.status) throw new Error(`${p}: ${json.query}`);
    return json;
  };
  const login = async (a: { email: string; password: string }) =>
    (await post('/user/terminal', { credential: a.email, password: a.password })).detail.token as string;
  const admin = await login(DEMO_ACCOUNTS.admin);
  const seller = await login(DEMO_ACCOUNTS.seller);
  const middle = Math.floor(ROWS / 2);

  const cases: [string, string, unknown, string][] = [
    ['shops, page 1 (admin)', '/shops', { page: 1 }, admin],
    ['shops, page 1,000 (admin)', '/shops', { page: 1000 }, admin],
    ['shops, page 1 (seller, scoped)', '/shops', { page: 1 }, seller],
    ['products, page 1 (seller, scoped by shop)', '/products', { page: 1 }, seller],
    ['search shops by id', '/search-dive', { keyIndex: 10, value: String(middle), targets: ['id'], page: 1, per_page: 15 }, admin],
    ['search shops by name part', '/search-dive', { keyIndex: 10, value: `shop ${middle}`, targets: ['id', 'name'], page: 1, per_page: 15 }, admin],
    ['search products by name part (seller)', '/search-dive', { keyIndex: 7, value: 'product 1234', targets: ['name'], page: 1, per_page: 15 }, seller],
  ];
  console.log(`\n${'call'.padEnd(44)} ${'median'.padStart(9)} ${'p95'.padStart(9)}`);
  for (const [label, p, body, token] of cases) {
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const start = performance.now();
      await post(p, body, token);
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(1);
    console.log(`${label.padEnd(44)} ${`${at(0.5)} ms`.padStart(9)} ${`${at(0.95)} ms`.padStart(9)}`);
  }

  const plan = async (label: string, query: Compilable) => {
    const compiled = query.compile();
    const result = await db.executeQuery<{ detail: string }>({ ...compiled, sql: `explain query plan ${compiled.sql}` });
    console.log(`\n${label}:\n${result.rows.map((r) => `  ${r.detail}`).join('\n')}`);
  };
  await plan('Seller-scoped products page', db.selectFrom('products').selectAll()
    .where('shop_id', 'in', db.selectFrom('shops').select('id').where('owner_id', '=', 2)).orderBy('id', 'desc').limit(15));
  await plan('Shops page 1,000', db.selectFrom('shops').selectAll().orderBy('id', 'desc').limit(15).offset(14985));

  await app.close();
  await database.close();
  fs.rmSync(dir, { recursive: true, force: true });
}

await main();
