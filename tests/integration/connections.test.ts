/**
 * Connections (issue 22, item 4): a socket that never sends a request is closed after the opening time, a
 * client address holds a bounded number of connections, and a refused upload is answered with
 * `Connection: close` and its socket dropped without the body being read.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Timeouts } from '../../server/app';
import { checkedApp, freshDatabase, demo } from './harness';
import { migrate, type Database } from '../../server/db';
import { seedDemo, seedReference } from '../../server/seed';

let database: Database;
let drop: () => Promise<void>;
beforeAll(async () => {
  const fresh = await freshDatabase();
  ({ database, drop } = fresh);
  await migrate(database);
  await seedReference(database.db);
  await seedDemo(database.db);
});
afterAll(async () => {
  await database.close();
  await drop();
});

async function serve(timeouts: Partial<Timeouts>): Promise<{ app: FastifyInstance; port: number }> {
  const app = await checkedApp({ db: database.db, config: { strict: false, publicUrl: 'http://console.test', demo: true } }, { timeouts });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, port: (app.server.address() as AddressInfo).port };
}

/** A raw connection: what the server answered, and a promise that resolves when the server closes it. */
function connect(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  let answer = '';
  socket.on('data', (d) => (answer += d));
  socket.on('error', () => undefined);
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(answer)));
  const opened = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return { socket, closed, opened, answer: () => answer };
}

/** Resolves with the first whole answer head (status line and headers) on the connection. */
const head = (c: ReturnType<typeof connect>) =>
  new Promise<string>((resolve) => {
    const check = () => (c.answer().includes('\r\n\r\n') ? resolve(c.answer()) : undefined);
    c.socket.on('data', check);
    check();
  });

const GET = 'GET /api/files/images/none_1.png HTTP/1.1\r\nHost: x\r\n\r\n';

describe('connections that never ask', () => {
  // The headers' and the whole request's timeouts are long here, so only the opening time can close these.
  const timeouts = { opening: 400, headers: 60_000, request: 120_000, checkEvery: 100, keepAlive: 60_000 };

  it('closes a socket that sends nothing within the opening time; one that asks in time is answered and kept', async () => {
    const { app, port } = await serve(timeouts);
    try {
      const silent = connect(port);
      expect(await silent.closed).toBe('');

      const prompt = connect(port);
      await prompt.opened;
      prompt.socket.write(GET);
      expect(await head(prompt)).toMatch(/^HTTP\/1\.1 404/);
      // Past the opening time, the answered keep-alive connection is still open and serves a second request.
      const before = prompt.answer().length;
      await connect(port).closed;
      expect(prompt.socket.destroyed).toBe(false);
      prompt.socket.write(GET);
      await expect.poll(() => prompt.answer().length > before && prompt.answer().slice(before)).toMatch(/^HTTP\/1\.1 404/);
      prompt.socket.destroy();
    } finally {
      await app.close();
    }
  }, 10_000);

  it('counts from the moment the connection opens: a request trickled a byte at a time is closed at the opening time', async () => {
    const { app, port } = await serve(timeouts);
    try {
      const slow = connect(port);
      const bytes = 'GET /api/files/images/none_1.png HTTP/1.1\r\nHost: x\r\nX-Pad: ' + 'x'.repeat(10_000);
      let at = 0;
      const drip = setInterval(() => slow.socket.write(bytes[at++] ?? 'x'), 50);
      expect(await slow.closed).toBe('');
      clearInterval(drip);
    } finally {
      await app.close();
    }
  }, 10_000);
});

describe('connections per address', () => {
  it('holds 3 connections from one address, closes the 4th at once, and takes a new one when one ends', async () => {
    const { app, port } = await serve({ connectionsPerAddress: 3 });
    try {
      const three = [connect(port), connect(port), connect(port)];
      for (const c of three) {
        c.socket.write(GET);
        expect(await head(c)).toMatch(/^HTTP\/1\.1 404/);
      }
      const fourth = connect(port);
      fourth.socket.write(GET);
      expect(await fourth.closed).toBe('');

      three[0].socket.destroy();
      await three[0].closed;
      // The server sees the close a moment after the client: ask until a new connection is served.
      await expect.poll(async () => {
        const next = connect(port);
        next.socket.write(GET);
        const answer = await Promise.race([head(next), next.closed]);
        next.socket.destroy();
        return answer;
      }).toMatch(/^HTTP\/1\.1 404/);
      for (const c of three) c.socket.destroy();
    } finally {
      await app.close();
    }
  }, 10_000);
});

describe('refused uploads', () => {
  const BODY = 40 * 1024 * 1024;
  const upload = (token?: string, length = BODY) =>
    [
      'POST /api/upload-image HTTP/1.1', 'Host: x', 'Content-Type: multipart/form-data; boundary=XyZ',
      `Content-Length: ${length}`, ...(token ? [`Authorization: Bearer ${token}`] : []), '', '',
    ].join('\r\n') + '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n' + 'x'.repeat(1000);

  const tokens: Record<string, string> = {};
  let server: { app: FastifyInstance; port: number };
  beforeAll(async () => {
    server = await serve({ linger: 1_000 });
    for (const [who, account] of [['buyer', demo.buyer], ['seller', demo.seller]] as const) {
      const res = await server.app.inject({ method: 'POST', url: '/api/user/terminal', payload: { credential: account.email, password: account.password } });
      tokens[who] = JSON.parse(res.body).detail.token;
    }
  });
  afterAll(() => server.app.close());

  it.each([
    ['anonymous (401)', () => upload(), 401],
    ['a buyer (403)', () => upload(tokens.buyer), 403],
    ['a form larger than 4 images can be (413)', () => upload(tokens.seller, 41 * 1024 * 1024 + 1), 413],
  ])('%s: answered with Connection: close, the socket dropped with most of the body never sent', async (_who, request, status) => {
    const c = connect(server.port);
    c.socket.write(request());
    // The client sent about 1 kB of the 40 MB it announced; the server answers and closes anyway.
    const answer = await c.closed;
    expect(answer).toMatch(new RegExp(`^HTTP/1\\.1 ${status}`));
    expect(answer.toLowerCase()).toContain('connection: close');
    expect(c.socket.bytesWritten).toBeLessThan(4096);
  }, 10_000);

  it('a client that sends the rest of its body after the refusal still reads the answer, and the server closes without a reset', async () => {
    const rest = 64 * 1024;
    const c = connect(server.port);
    const errors: string[] = [];
    c.socket.on('error', (e: NodeJS.ErrnoException) => errors.push(e.code ?? e.message));
    const part = '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n';
    c.socket.write(['POST /api/upload-image HTTP/1.1', 'Host: x', 'Content-Type: multipart/form-data; boundary=XyZ', `Content-Length: ${part.length + rest}`, '', part].join('\r\n'));
    expect(await head(c)).toMatch(/^HTTP\/1\.1 401/);
    // As a fetch client does: it goes on sending the body it announced, then reads.
    for (let sent = 0; sent < rest; sent += 4096) await new Promise<void>((resolve) => c.socket.write('x'.repeat(4096), () => resolve()));
    const answer = await c.closed;
    expect(errors).toEqual([]);
    expect(answer).toMatch(/^HTTP\/1\.1 401/);
  }, 10_000);

  it('an answer to a whole request keeps the connection open', async () => {
    const c = connect(server.port);
    c.socket.write(GET);
    const answer = await head(c);
    expect(answer.toLowerCase()).not.toContain('connection: close');
    expect(c.socket.destroyed).toBe(false);
    c.socket.destroy();
  });
});
