/**
 * A real server on a temporary database, listening on a free loopback port, for tests that speak
 * real HTTP to it: a SQLite file, or in the PostgreSQL pass (TEST_DATABASE=postgres, see
 * vite.config.ts) a fresh database on the run's embedded PostgreSQL server.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, afterEach, inject } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { ADMIN_ABILITIES, type Info, type Registry } from '../../contract';
import { buildApp, type ApiExchange, type AppOptions, type Context } from '../../server/app';
import { grantNewAccessTokens } from '../../server/accessTokens';
import { registry as projectRegistry } from '../../server/registry';
import { mismatch } from './documentCheck';
import { migrate, openDatabase, type Database, type DB } from '../../server/db';
import { seedDemo, seedReference } from '../../server/seed';
import { DEMO_ACCOUNTS } from '../../resources/users/demo';
import { createUser } from '../../server/routes/users';
import type { Limits } from '../../server/throttle';
import type { UploadPolicy } from '../../server/attachments';
import type { OpsContext } from '../../server/ops/health';

export interface Answer<D = unknown, H = unknown> {
  http: number;
  body: Info<D, H>;
}

export interface TestServer {
  /** The API base, '<origin>/api'. */
  url: string;
  /** The server itself, for paths outside /api ('/directory/...'). */
  origin: string;
  db: DB;
  /** The server's DATA_DIR (uploaded files live under files/). */
  dataDir: string;
  /** The PostgreSQL database's address (PostgreSQL pass only), for a second connection. */
  databaseUrl?: string;
  /** The mails written to the outbox for this address, oldest first. */
  mails(to: string): Promise<OutboxMail[]>;
  post<D = any, H = any>(path: string, body?: unknown, token?: string | null, headers?: Record<string, string>): Promise<Answer<D, H>>;
  /** Any method on an API path (the REST face's PUT and DELETE), the answer read as JSON when there is one. */
  send<T = any>(method: string, path: string, body?: unknown, token?: string | null): Promise<{ http: number; body: T }>;
  /** GET a path of the server (not only /api), read as JSON. */
  get<T = any>(path: string, headers?: Record<string, string>): Promise<{ http: number; body: T; headers: Headers }>;
  login(email: string, password: string): Promise<string>;
  /** The server's API routes as registered (method, path under /api as Fastify writes it, roles of its gate). */
  routes(): readonly { method: string; url: string; roles?: readonly string[] }[];
  /** A fresh user with these abilities and accesses, signed in. */
  userWith(abilities: number[], granted?: string[]): Promise<{ id: number; token: string; email: string }>;
  close(): Promise<void>;
}

/** A mail of the outbox, as the tests read it. */
export interface OutboxMail {
  id: number;
  serial: string | null;
  from: string;
  subject: string;
  body: string;
  html: string;
  state: string;
}

let counter = 0;

/** Answers (and accepted requests) the API document does not describe, since the last test ended. */
const outsideDocument: string[] = [];
const reportOutside = () => {
  const found = [...new Set(outsideDocument.splice(0))];
  if (found.length) throw new Error(`The server did what its API document does not say:\n- ${found.join('\n- ')}`);
};
/**
 * Texts the server sent as `query` that match no `server.*` template (i18n/en.ts), since the last
 * test ended: every text the server says must be one the console can show in the viewer's language.
 */
const unknownTexts: string[] = [];
const reportUnknown = () => {
  const found = [...new Set(unknownTexts.splice(0))];
  if (process.env.SERVER_TEXTS_LOG) fs.appendFileSync(process.env.SERVER_TEXTS_LOG, found.map((f) => `${f}\n`).join(''));
  else if (found.length) throw new Error(`The server sent texts that match no server.* template of i18n/en.ts:\n- ${found.join('\n- ')}`);
};
const report = () => {
  reportOutside();
  reportUnknown();
};
// A mismatch fails the test whose requests caused it (or, made in a suite's setup, the file).
afterEach(report);
afterAll(report);

/** Holds an answer's `query` to the catalogue: a non-empty one carries its keys (`i18n`), outside strict mode. */
function checkWords(exchange: ApiExchange, strict: boolean) {
  if (strict || !/json/.test(exchange.type ?? '') || typeof exchange.payload !== 'string') return;
  let body: unknown;
  try {
    body = JSON.parse(exchange.payload);
  } catch {
    return;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return;
  const { query, i18n } = body as { query?: unknown; i18n?: unknown };
  if (typeof query === 'string' && query !== '' && i18n === undefined) unknownTexts.push(`${exchange.method} ${exchange.route}: ${query}`);
}

/**
 * The app, as buildApp makes it, holding every answer of its API routes and every request it
 * accepts to the API document it generates (tests/integration/documentCheck.ts).
 */
export async function checkedApp(given: Context, opts: AppOptions = {}): Promise<FastifyInstance> {
  const app: FastifyInstance = await buildApp(given, {
    ...opts,
    onAnswer: (exchange) => {
      checkWords(exchange, given.config.strict);
      try {
        const problem = mismatch(app.apiDocument(), exchange);
        if (problem) outsideDocument.push(problem);
      } catch (error) {
        outsideDocument.push(`${exchange.method} ${exchange.route}: the check failed: ${String(error)}`);
      }
    },
  });
  return app;
}

/** Which database the integration tests run on. */
export const dialect: Database['dialect'] = process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite';

/** Runs one statement on the PostgreSQL server's maintenance database. */
async function admin(statement: string) {
  const client = new pg.Client({ connectionString: inject('postgresUrl') });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * A fresh, empty database: a SQLite file in a temporary folder, or a new PostgreSQL database.
 * `url` is what a server process is given as DATABASE_URL (PostgreSQL only).
 */
export async function freshDatabase(): Promise<{ database: Database; url?: string; dir: string; drop(): Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'marketplace-test-'));
  if (dialect === 'sqlite') {
    const database = openDatabase({ file: path.join(dir, 'test.sqlite') });
    return { database, dir, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `test_${process.pid}_${++counter}_${Date.now()}`;
  await admin(`create database "${name}"`);
  const url = inject('postgresUrl').replace(/\/[^/]*$/, `/${name}`);
  const database = openDatabase({ url });
  return {
    database, url, dir,
    drop: async () => {
      fs.rmSync(dir, { recursive: true, force: true });
      await admin(`drop database if exists "${name}" with (force)`);
    },
  };
}

export interface ServerOptions {
  strict?: boolean;
  /** TRUST_PROXY: how many proxies are in front, or their addresses. */
  trustProxy?: number | string;
  demo?: boolean;
  directoryKey?: string;
  staticDir?: string;
  /** DATA_DIALECT: the dialect config.json is served with. */
  dataDialect?: 'contract' | 'simple-rest';
  /** Resource files other than the project's (a test's own entity). */
  registry?: Registry;
  /**
   * The resource files the database was made with, when they differ from `registry`: the database is
   * prepared with these first (a marketplace that ran before an entity was added), then started again.
   */
  before?: Registry;
  limits?: Limits;
  clock?: () => number;
  /** Storage quota and grace period of uploads. */
  uploads?: Partial<UploadPolicy>;
  /** Settings of the server's own rules (an order's hold time, the cap per buyer). */
  config?: {
    orderHoldMinutes?: number; orderMaxPerBuyer?: number; payoutHoldDays?: number; mfaKey?: string;
    adminSecondFactor?: 'optional' | 'required'; sellerSecondFactor?: 'optional' | 'required'; sessionIdleMinutes?: number;
    breachedPasswordsUrl?: string;
    /** Off: as in production (no demo key for authenticator secrets). */
    demo?: boolean;
  };
  /** The operator's side: METRICS_TOKEN, whether the process is stopping. */
  ops?: OpsContext;
  /** FILES_BUCKET and FILES_PATH_STYLE: files in an S3-compatible bucket (the SDK's environment set). */
  files?: { filesBucket: string; filesPathStyle?: boolean };
}

export async function startServer(opts: ServerOptions = {}): Promise<TestServer> {
  const fresh = await freshDatabase();
  const { database, dir } = fresh;
  // Each start: tables, reference rows, demo data, and new access tokens to the full admins.
  for (const registry of [...(opts.before ? [opts.before] : []), opts.registry ?? projectRegistry]) {
    await migrate(database, registry);
    await seedReference(database.db, registry);
    if (opts.demo !== false) await seedDemo(database.db, registry);
    await grantNewAccessTokens(database.db, registry);
  }
  const app = await checkedApp({
    db: database.db,
    registry: opts.registry,
    config: { strict: opts.strict ?? false, publicUrl: 'http://console.test', demo: true, directoryKey: opts.directoryKey, dataDir: dir, dataDialect: opts.dataDialect, uploads: opts.uploads, ...opts.files, ...opts.config },
    limits: opts.limits,
    clock: opts.clock,
    ops: { connections: database.connections, ...opts.ops },
  }, { staticDir: opts.staticDir, trustProxy: opts.trustProxy });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const url = `${origin}/api`;

  const post: TestServer['post'] = async (p, body, token, headers = {}) => {
    const res = await fetch(url + p, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json',
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { http: res.status, body: await res.json() };
  };
  const send: TestServer['send'] = async (method, p, body, token) => {
    const res = await fetch(url + p, {
      method,
      headers: {
        Accept: 'application/json',
        ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return { http: res.status, body: text ? JSON.parse(text) : null };
  };
  const get: TestServer['get'] = async (p, headers = {}) => {
    const res = await fetch(origin + p, { headers: { Accept: 'application/json', ...headers } });
    return { http: res.status, body: await res.json(), headers: res.headers };
  };
  const mails: TestServer['mails'] = async (to) =>
    (await database.db.selectFrom('mail_outbox').selectAll().where('to_email', '=', to).orderBy('id').execute()).map((m) => ({
      id: Number(m.id), serial: m.serial as string | null, from: String(m.from_email), subject: String(m.subject), body: String(m.body),
      html: String(m.html), state: String(m.state),
    }));
  const login = async (email: string, password: string) => {
    const res = await post<{ token: string }>('/user/terminal', { credential: email, password, source: 'inbuilt', actionType: 'login' });
    if (!res.body.status) throw new Error(`login failed: ${res.body.query}`);
    return res.body.detail!.token;
  };
  const userWith: TestServer['userWith'] = async (abilities, granted = []) => {
    const email = `user${++counter}-${Date.now()}@example.com`;
    const user = await createUser(database.db, { name: `User ${counter}`, email, phone: '', password: 'password123', abilities, granted });
    return { id: Number(user.id), token: await login(email, 'password123'), email };
  };
  return {
    url, origin, db: database.db, dataDir: dir, databaseUrl: fresh.url, mails, post, send, get, login, userWith, routes: () => app.apiRoutes(),
    close: async () => {
      await app.close();
      await database.close();
      await fresh.drop();
    },
  };
}

export const demo = DEMO_ACCOUNTS;
export const ADMIN = ADMIN_ABILITIES;

/** A valid shop body of the contract (`/shop`), for tests that make their own shops. */
export const shopBody = (name: string) => ({
  name, description: 'Durable goods', category_id: 1,
  address: { street_name: '1 Test Road', zip: '1000', country: 'Nigeria' },
  bank: { bank_name: 'Bank', bank_country: 'Nigeria', account_name: 'Test', account_number: '1' },
});

/**
 * A category with one subcategory, of the test's own (through the contract, as an admin), for the
 * shops and products a test makes: no test leans on the demo's categories.
 */
export async function newCategory(server: TestServer, adminToken: string, name: string, fields: Record<string, unknown> = {}) {
  const made = await server.post('/category', {
    name, subcategory_name: `${name} goods`, commission_currency: 'USD', commission_flat_rate: 5, commission_monthly: 0, ...fields,
  }, adminToken);
  if (!made.body.status) throw new Error(`category not made: ${made.body.query}`);
  const detail = made.body.detail as { id: number; subcategories: { id: number }[] };
  return { id: detail.id, subcategoryId: detail.subcategories[0].id };
}

/** A valid product body of the contract (`/product`), in this shop and category. */
export const productBody = (shopId: number, category: { id: number; subcategoryId: number }, name: string, fields: Record<string, unknown> = {}) => ({
  shop_id: shopId, name, description: 'A thing', currency: 'USD', price: 20, sale_price: 0, in_stock: 10,
  category_id: category.id, subcategory_id: category.subcategoryId, band_name: 'Own brand', ...fields,
});
