/**
 * Property-based fuzzing (fast-check) of every endpoint, as every role: 10,000 generated payloads,
 * each answered without a 5xx, in the envelope with a readable query when refused, and a refusal
 * changes nothing in the database (triggers count every insert, update and delete).
 */
import fc from 'fast-check';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../contract';
import { registry } from '../../server/registry';
import { migrate, openDatabase, tableSpecs, type Database } from '../../server/db';
import { seedDemo, seedReference } from '../../server/seed';
import { createUser } from '../../server/routes/users';
import { checkedApp, ADMIN, demo } from './harness';

const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);

let database: Database;
let app: FastifyInstance;
const tokens: Record<string, string | null> = { anonymous: null, malformed: null };

/** POST paths: every entity's list, save and status, and every other call but sign-out (it would end the roles' sessions). */
const POSTS = [
  ...new Set([...registry.entities.flatMap((e) => [e.list, e.save, e.status]), ...Object.values(PATHS).filter((p) => p !== PATHS.logout)]),
];
const KEYS = [
  ...new Set([
    ...registry.entities.flatMap((e) => Object.keys(e.fields)),
    'id', 'page', 'per_page', 'sort', 'order', 'filter', 'scope', 'tyype', 'type', 'keyIndex', 'value', 'targets',
    'credential', 'password', 'current_password', 'reset_token', 'abilities', 'granted_accesses', 'source', 'actionType',
    'owner_id', 'tag', 'address', 'bank', 'paypal', 'band', 'location', 'subcategory_name', 'serial', 'state', 'status',
  ]),
];

/** Changes to any table but the attempt counters (a refused sign-in counts an attempt, by design). */
const changes = async () => Number((await sql<{ n: number }>`select n from fuzz_changes`.execute(database.db)).rows[0].n);

beforeAll(async () => {
  database = openDatabase({});
  await migrate(database);
  await seedReference(database.db);
  await seedDemo(database.db);
  await sql`create table fuzz_changes (n integer)`.execute(database.db);
  await sql`insert into fuzz_changes values (0)`.execute(database.db);
  for (const table of tableSpecs().map((t) => t.name).filter((t) => t !== 'rate_limits')) {
    for (const op of ['insert', 'update', 'delete']) {
      await sql.raw(`create trigger fuzz_${op}_${table} after ${op} on "${table}" begin update fuzz_changes set n = n + 1; end`).execute(database.db);
    }
  }
  app = await checkedApp({ db: database.db, config: { strict: false, publicUrl: 'http://fuzz.test', demo: true } });
  const login = async (email: string, password: string) =>
    (await app.inject({ method: 'POST', url: '/api/user/terminal', payload: { credential: email, password } })).json().detail.token as string;
  tokens.buyer = await login(demo.buyer.email, demo.buyer.password);
  tokens.seller = await login(demo.seller.email, demo.seller.password);
  tokens.admin = await login(demo.admin.email, demo.admin.password);
  await createUser(database.db, { name: 'Partial', email: 'partial@example.com', phone: '', password: 'password123', abilities: ADMIN, granted: ['users', 'products'] });
  tokens.partialAdmin = await login('partial@example.com', 'password123');
}, 120_000);
afterAll(async () => {
  await app?.close();
  await database?.close();
});

const scalar = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.integer({ min: -3, max: 40 }),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(
    '', 'clear', 'active', 'draft', 'yes', 'no', 'popular', 'USD', '[1,2,3]', '["users"]', 'admin@example.com', 'password123',
    "x'); drop table users;--", '%_', '../../etc/passwd', 'Deleted', '+14155550101',
    // Values in each declared format: they pass the format and reach the rules behind it.
    ...registry.entities.flatMap((e) => Object.values(e.fields).flatMap((f) => (f.pattern ? [f.pattern.example] : []))),
  ),
  fc.string({ minLength: 250, maxLength: 300 }),
  fc.string({ unit: 'grapheme', maxLength: 8 }),
);
const { value } = fc.letrec((tie) => ({
  value: fc.oneof({ maxDepth: 3 }, scalar, fc.array(tie('value'), { maxLength: 4 }), fc.dictionary(fc.constantFrom(...KEYS), tie('value'), { maxKeys: 4 })),
}));
const body = fc.oneof(
  { weight: 12, arbitrary: fc.dictionary(fc.oneof(fc.constantFrom(...KEYS), fc.string({ maxLength: 8 })), value, { maxKeys: 8 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('[1,2]', '42', '"text"', '{"name": ', '', '{"__proto__":{"x":1}}', `{"chats":${'['.repeat(40)}${']'.repeat(40)}}`, 'null'),
  },
);
const role = fc.constantFrom('anonymous', 'buyer', 'seller', 'partialAdmin', 'admin', 'admin', 'malformed');
const request = fc.oneof(
  { weight: 20, arbitrary: fc.record({ method: fc.constant('POST' as const), path: fc.constantFrom(...POSTS), body, role }) },
  {
    weight: 1,
    arbitrary: fc.record({
      method: fc.constant('GET' as const),
      path: fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('x_1.png', '..%2F..%2Fetc_1.png', 'cv_1.docx', '%00_1.png')).chain((name) =>
        fc.constantFrom(`/files/images/${name}`, `/download/${name}`),
      ),
      body: fc.constant(''),
      role,
    }),
  },
);

describe('fuzzing every endpoint', () => {
  it(`answers ${RUNS} generated requests without a 5xx, with a readable query, and refusals change nothing`, async () => {
    let seen = 0;
    await fc.assert(
      fc.asyncProperty(request, fc.integer({ min: 1, max: 250 }), async (req, address) => {
        seen++;
        const before = await changes();
        const token = req.role === 'malformed' ? 'Bearer' : tokens[req.role];
        const res = await app.inject({
          method: req.method,
          url: `/api${req.method === 'GET' ? req.path.replace(/[^\x21-\x7e]/g, encodeURIComponent) : req.path}`,
          remoteAddress: `10.0.${address % 5}.${address}`,
          headers: { ...(req.method === 'POST' ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: token.startsWith('Bearer') ? token : `Bearer ${token}` } : {}) },
          payload: req.method === 'POST' ? (typeof req.body === 'string' ? req.body : JSON.stringify(req.body)) : undefined,
        });
        expect(res.statusCode, `${req.method} ${req.path} as ${req.role}: ${res.body.slice(0, 300)}`).toBeLessThan(500);
        const json = String(res.headers['content-type']).startsWith('application/json');
        if (res.statusCode >= 400 || !json) {
          if (res.statusCode < 400) return; // a file served
          const answer = res.json();
          expect(answer).toMatchObject({ status: false, detail: null, HLL: null });
          expect(typeof answer.query).toBe('string');
          expect(answer.query).toMatch(/^[A-Z0-9a-z].{2,}/s);
          expect(answer.query).not.toMatch(/\[object Object\]|undefined|NaN|SQLITE|Error:/);
          expect(await changes(), `${req.path} as ${req.role} was refused (${answer.query}) but wrote`).toBe(before);
        } else {
          expect(res.json()).toMatchObject({ status: true });
        }
      }),
      { numRuns: RUNS },
    );
    expect(seen).toBeGreaterThanOrEqual(RUNS);
  }, 180_000);
});
