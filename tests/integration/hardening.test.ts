/**
 * Input that used to poison the server: JSON nested thousands deep, filters that are not values,
 * searches with a thousand targets. Each answers 4xx with a readable query and stores nothing; a
 * 5xx that remains is logged with its request id and without secrets.
 */
import net from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../server/registry';
import { buildApp } from '../../server/app';
import { loggerOptions } from '../../server/logging';
import { migrate, openDatabase } from '../../server/db';
import { startServer, demo, type TestServer } from './harness';
import { servedBy } from './matrix';

let s: TestServer;
let admin: string;
beforeAll(async () => {
  s = await startServer();
  admin = await s.login(demo.admin.email, demo.admin.password);
});
afterAll(() => s.close());

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const count = async (table: string) => (await s.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n;

describe('deep JSON', () => {
  it('a body nested 4,100 deep answers 400 and stores nothing; lists keep working', async () => {
    const before = await count('chats');
    const body = `{"user_name":"x","user_email":"x@example.com","chats":${nested(4100)}}`;
    const res = await s.post('/chat', body);
    expect(res.http).toBe(400);
    expect(res.body).toMatchObject({ status: false, query: 'The request body is nested too deeply (at most 32 levels)' });
    expect(await count('chats')).toBe(before);
    for (const [path, payload] of [['/chats', { page: 1 }], ['/products', { page: 1 }], ['/search-dive', { keyIndex: 7, value: '', targets: ['id'] }]] as const) {
      expect((await s.post(path, payload, admin)).http).toBe(200);
    }
  });

  it('a JSON field is checked for depth, list size and text length before it is written', async () => {
    const before = await count('chats');
    const deepObject = JSON.parse(`{"chats":${nested(17)}}`);
    const cases: [unknown, string][] = [
      [deepObject.chats, 'chats is nested too deeply (at most 16 levels)'],
      [Array.from({ length: 1001 }, () => 0), 'chats holds a list longer than 1000 items'],
      [[{ message: 'x'.repeat(5001) }], 'chats holds text longer than 5000 characters'],
    ];
    for (const [chats, query] of cases) {
      const res = await s.post('/chat/status', { id: 1, chats }, admin);
      expect(res.http).toBe(400);
      expect(res.body.query).toBe(query);
    }
    expect(await count('chats')).toBe(before);
  });

  it('refuses keys that would poison prototypes', async () => {
    const res = await s.post('/brand', '{"name":"P","type":"popular","__proto__":{"admin":true}}', admin);
    expect(res.http).toBe(400);
    expect(res.body.query).toBe('The request body uses a reserved name: __proto__');
  });
});

describe('list filters and searches', () => {
  // Every list the server answers (an entity nobody may call through the API, such as an order's timeline, has none).
  const lists = [...new Set(servedBy(registry).map((e) => e.list))];
  // A list of values is taken for `id` alone (several records in one call, the console's getMany).
  it.each([
    ['id', true], ['id', { a: 1 }], ['name', [1, 2]], ['id', 'x'.repeat(256)],
  ])('a filter on %s of %j answers 400 on every list', async (column, value) => {
    for (const list of lists) {
      const res = await s.post(list, { page: 1, filter: { [column]: value } }, admin);
      expect(res.http, list).toBe(400);
      expect(res.body.query).toBe(`The filter on ${column} must be a single text or number`);
    }
  });

  it('a search with 1,000 targets answers 400', async () => {
    const res = await s.post('/search-dive', { keyIndex: 7, value: 'a', targets: Array.from({ length: 1000 }, () => 'name') }, admin);
    expect(res.http).toBe(400);
    expect(res.body.query).toBe('targets may name at most 2 columns: id, name');
  });
});

describe('requests refused before routing', () => {
  /** Sends raw bytes on a new connection and reads everything the server writes until it closes. */
  const raw = (bytes: string) =>
    new Promise<string>((resolve) => {
      let answer = '';
      const socket = net.connect(Number(new URL(s.origin).port), '127.0.0.1', () => socket.write(bytes));
      socket.on('data', (chunk) => (answer += String(chunk)));
      socket.on('close', () => resolve(answer));
      socket.on('error', () => undefined);
    });
  const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));

  it('headers over 16 kB answer 431 in the envelope, and the server goes on answering', async () => {
    const res = await fetch(`${s.url}/products`, {
      method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Filler': 'x'.repeat(17 * 1024) }, body: '{"page":1}',
    });
    expect(res.status).toBe(431);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await res.json()).toEqual({
      status: false, query: 'The request headers are too large (at most 16 kB)', detail: null, reset_token: null, HLL: null,
      i18n: [{ key: 'server.headers_too_large', values: { size: '16' } }],
    });
    // Just under the limit is an ordinary request.
    expect((await fetch(`${s.url}/health`, { headers: { 'X-Filler': 'x'.repeat(15 * 1024) } })).status).toBe(200);
  });

  it('a request line or header Node cannot read answers 400 in the envelope', async () => {
    for (const request of ['BREW /api/health HTTP/1.1\r\nHost: x\r\n\r\n', 'POST /api/products HTTP/1.1\r\nHost: x\r\nContent-Length: ten\r\n\r\n']) {
      const answer = await raw(request);
      expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(bodyOf(answer)).toMatchObject({ status: false, query: 'The request is not valid', detail: null, i18n: [{ key: 'server.request_invalid' }] });
    }
  });
});

describe('a remaining 5xx', () => {
  it('is logged with its request id and without secrets, and the answer names the id', async () => {
    const lines: string[] = [];
    const stream = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
    const database = openDatabase({});
    await migrate(database);
    const app = await buildApp(
      { db: database.db, config: { strict: false, publicUrl: 'http://x.test', demo: false } },
      { logger: { ...(loggerOptions('info') as object), stream } },
    );
    app.post('/api/boom', async (request) => {
      // Any object logged has its secrets redacted, wherever they sit.
      request.log.warn({ attempt: request.body }, 'an attempt');
      throw new Error('kaboom');
    });
    const res = await app.inject({ method: 'POST', url: '/api/boom?token=secret-in-url', headers: { authorization: 'Bearer secret-token', cookie: 'sid=secret-cookie' }, payload: { password: 'secret-pass' } });
    await app.close();
    await database.close();
    expect(res.statusCode).toBe(500);
    const id = /request ([0-9a-f]{16})\)$/.exec(res.json().query)![1];
    const log = lines.join('');
    const failed = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'request failed');
    expect(failed).toMatchObject({ level: 50, reqId: id, err: { message: 'kaboom' } });
    // One line per request, when answered: what was asked, by whom, the answer's status and time.
    const requests = lines.map((l) => JSON.parse(l)).filter((l) => l.reqId === id && l.level === 30);
    expect(requests).toEqual([
      expect.objectContaining({ msg: 'request completed', req: { method: 'POST', url: '/api/boom', remoteAddress: '127.0.0.1' }, res: { statusCode: 500 }, responseTime: expect.any(Number) }),
    ]);
    expect(lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'an attempt')).toMatchObject({ reqId: id, attempt: { password: '[redacted]' } });
    expect(log).not.toMatch(/secret/);
  });
});
