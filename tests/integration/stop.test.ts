/**
 * Stopping cleanly: the two API processes of WORKERS=2 are restarted one after the other (SIGHUP to
 * the primary: a new process listens, then the old one gets SIGTERM) while 20 clients write; no
 * request fails or answers 5xx, and every acknowledged write is in the database. The metrics of
 * both processes are gathered by the primary. An event stream ends with a reconnection hint. A
 * process whose log output nobody reads any more still exits. A process stopping while it sends a
 * mail finishes that mail and leaves the others it had taken to the next process at once.
 */
import fs from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../server/config';
import { migrate, openDatabase } from '../../server/db';
import { startProcess, type ServerProcess } from '../../server/dev/process';
import { enqueue } from '../../server/mail';
import { endStreams, openStreams, trackStream } from '../../server/ops/streams';
import { demo, dialect, freshDatabase } from './harness';
import { startSmtp } from './smtp';

const started: ServerProcess[] = [];
afterAll(async () => {
  await Promise.all(started.map((s) => s.stop()));
});

const shop = (name: string) => ({
  name, description: 'Rolling goods', category_id: 1,
  address: { street_name: '1 Test Road', zip: '1000', country: 'Nigeria' },
  bank: { bank_name: 'Bank', bank_country: 'Nigeria', account_name: 'Test', account_number: '1' },
});

/** The API processes the primary started (Linux: the primary's children). */
const workersOf = (pid: number) =>
  fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number).sort();

describe(`a rolling restart of WORKERS=2 on ${dialect}`, () => {
  it('under 20 writing clients: no failed request, no 5xx, no acknowledged write lost; metrics gathered from both', async () => {
    const fresh = await freshDatabase();
    await fresh.database.close();
    const env: Record<string, string> = fresh.url ? { DATABASE_URL: fresh.url } : { DATA_DIR: fresh.dir };
    const server = await startProcess({ ...env, WORKERS: '2', METRICS_TOKEN: 'rolling-token', LOG_LEVEL: 'warn' });
    started.push(server);
    let output = '';
    server.child.stdout!.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-10_000)));
    const restarted = new Promise<void>((resolve) => server.child.stdout!.on('data', () => output.includes('API processes restarted') && resolve()));

    const token = await server.login(demo.admin.email, demo.admin.password);
    const before = workersOf(server.child.pid!);
    expect(before).toHaveLength(2);

    const acknowledged = new Map<number, string>();
    const failures: string[] = [];
    let failed!: () => void;
    const failing = new Promise<void>((resolve) => (failed = resolve));
    let stop = false;
    let target = 100;
    let reached!: () => void;
    let enough = new Promise<void>((resolve) => (reached = resolve));
    const client = async (c: number) => {
      for (let i = 0; !stop; i++) {
        const name = `rolling ${c}-${i}`;
        try {
          const answer = await server.post('/shop', shop(name), token);
          if (answer.http !== 200 || !answer.body.status) failures.push(`${answer.http} ${answer.body.query}`);
          else acknowledged.set(Number(answer.body.detail.id), name);
        } catch (error) {
          failures.push(String((error as Error).cause ?? error));
        }
        if (failures.length) failed();
        if (acknowledged.size >= target) reached();
      }
    };
    const clients = Array.from({ length: 20 }, (_, c) => client(c));
    // A failure ends the run at once (the assertion below shows it).
    await Promise.race([enough, failing]);
    server.child.kill('SIGHUP');
    await Promise.race([restarted, failing]);
    // As many writes again once both processes are new.
    target = acknowledged.size + 100;
    enough = new Promise<void>((resolve) => (reached = resolve));
    await Promise.race([enough, failing]);
    stop = true;
    await Promise.all(clients);
    expect(failures).toEqual([]);

    const after = workersOf(server.child.pid!);
    expect(after).toHaveLength(2);
    expect(after.filter((pid) => before.includes(pid))).toEqual([]);
    const database = fresh.url ? openDatabase({ url: fresh.url }) : openDatabase({ file: `${fresh.dir}/marketplace.sqlite` });
    try {
      const rows = await database.db.selectFrom('shops').select(['id', 'name']).where('id', 'in', [...acknowledged.keys()]).execute();
      expect(new Map(rows.map((r) => [Number(r.id), r.name]))).toEqual(acknowledged);
    } finally {
      await database.close();
    }

    // The metrics answer for both processes, whichever is asked.
    const res = await fetch(server.url.replace(/\/api$/, '/metrics'), { headers: { Authorization: 'Bearer rolling-token' } });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(/^marketplace_api_processes 2$/m);
    expect(text).toMatch(/^http_request_duration_seconds_count\{method="POST",route="\/api\/shop",status="200"\} \d+$/m);

    expect(await server.stop()).toBe('0');
    await fresh.drop();
  }, 240_000);
});

describe('one process stopping', () => {
  it('answers the request in flight, then cuts what outlasts SHUTDOWN_GRACE_SECONDS and exits 0', async () => {
    const fresh = await freshDatabase();
    await fresh.database.close();
    const env: Record<string, string> = fresh.url ? { DATABASE_URL: fresh.url } : { DATA_DIR: fresh.dir };
    const server = await startProcess({ ...env, SHUTDOWN_GRACE_SECONDS: '1', LOG_LEVEL: 'warn' });
    started.push(server);
    const token = await server.login(demo.admin.email, demo.admin.password);
    const { port } = new URL(server.url);
    // A request whose body never finishes: in flight until the grace period ends.
    const stuck = net.connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => stuck.once('connect', resolve));
    stuck.write(`POST /api/shops HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"page":`);
    const cut = new Promise<void>((resolve) => stuck.once('close', () => resolve()));
    stuck.on('error', () => {});
    // A write in flight when the signal comes is answered.
    const write = server.post('/shop', shop('in flight'), token);
    server.child.kill('SIGTERM');
    const answer = await write;
    expect(answer.http).toBe(200);
    expect(answer.body).toMatchObject({ status: true });
    await cut;
    expect(await server.exited).toBe('0');
    const database = fresh.url ? openDatabase({ url: fresh.url }) : openDatabase({ file: `${fresh.dir}/marketplace.sqlite` });
    try {
      expect(await database.db.selectFrom('shops').select('name').where('id', '=', answer.body.detail.id).executeTakeFirst()).toEqual({ name: 'in flight' });
    } finally {
      await database.close();
    }
    await fresh.drop();
  }, 120_000);

  for (const reader of ['stopped reading', 'gone'] as const) {
    it(`exits 0 when the reader of its log output has ${reader}`, async () => {
      const fresh = await freshDatabase();
      await fresh.database.close();
      const env: Record<string, string> = fresh.url ? { DATABASE_URL: fresh.url } : { DATA_DIR: fresh.dir };
      const server = await startProcess({ ...env, SHUTDOWN_GRACE_SECONDS: '1' });
      started.push(server);
      const output = server.child.stdout!;
      if (reader === 'gone') output.destroy();
      else output.pause();
      // A line per request: 1,500 of them fill the output, which nobody takes any more.
      const ask = () =>
        new Promise<void>((resolve, reject) => {
          const req = http.request(`${server.url}/products`, { method: 'POST', agent: false, headers: { 'content-type': 'application/json' } }, (res) => res.resume().on('end', resolve));
          req.on('error', reject);
          req.end('{"page":1}');
        });
      for (let i = 0; i < 1500; i += 25) await Promise.all(Array.from({ length: 25 }, ask));
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe('0');
      await fresh.drop();
    }, 120_000);
  }

  it('with SHUTDOWN_DELAY_SECONDS, answers new connections while not ready, then stops listening and exits 0', async () => {
    const fresh = await freshDatabase();
    await fresh.database.close();
    const env: Record<string, string> = fresh.url ? { DATABASE_URL: fresh.url } : { DATA_DIR: fresh.dir };
    const server = await startProcess({ ...env, SHUTDOWN_DELAY_SECONDS: '3', SHUTDOWN_GRACE_SECONDS: '1', LOG_LEVEL: 'warn' });
    started.push(server);
    /** A request on a connection of its own (none kept alive), as a balancer's probe makes it. */
    const token = await server.login(demo.admin.email, demo.admin.password);
    const ask = (p: string, body?: string) =>
      new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
        const headers = body ? { 'content-type': 'application/json', authorization: `Bearer ${token}` } : {};
        const req = http.request(`${server.url}${p}`, { method: body ? 'POST' : 'GET', agent: false, headers }, (res) => {
          res.resume().on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection }));
        });
        req.on('error', reject);
        req.end(body);
      });
    expect((await ask('/ready')).status).toBe(200);
    server.child.kill('SIGTERM');
    // Within the delay: a new connection is taken; the probe says not ready, a call is still answered.
    await expect.poll(async () => (await ask('/ready')).status).toBe(503);
    const call = await ask('/products', '{"page":1}');
    expect(call).toEqual({ status: 200, connection: 'close' });
    // Then it stops listening and exits.
    expect(await server.exited).toBe('0');
    await expect(ask('/ready')).rejects.toThrow(/ECONNREFUSED/);
    await fresh.drop();
  }, 120_000);

  it('reads its grace period, delay and metrics token from the environment', () => {
    expect(readConfig({}).shutdownGraceSeconds).toBe(20);
    expect(readConfig({ SHUTDOWN_GRACE_SECONDS: '5' }).shutdownGraceSeconds).toBe(5);
    expect(readConfig({ SHUTDOWN_GRACE_SECONDS: '0' }).shutdownGraceSeconds).toBe(0);
    for (const bad of ['-1', 'soon', '']) expect(readConfig({ SHUTDOWN_GRACE_SECONDS: bad }).shutdownGraceSeconds, bad).toBe(20);
    expect(readConfig({}).shutdownDelaySeconds).toBe(0);
    for (const [given, read] of [['0', 0], ['15', 15], ['3600', 3600], ['3601', 0], ['-1', 0], ['1.5', 0], ['soon', 0]] as const) {
      expect(readConfig({ SHUTDOWN_DELAY_SECONDS: given }).shutdownDelaySeconds, given).toBe(read);
    }
    expect(readConfig({ METRICS_TOKEN: '' }).metricsToken).toBeUndefined();
    expect(readConfig({ METRICS_TOKEN: 'abc' }).metricsToken).toBe('abc');
  });
});

describe('a process stopping while it sends a mail', () => {
  /**
   * Three mails in the outbox before a process starts (its first look takes them all); the SMTP
   * server holds its answer to the first while `holding`. The process is sent SIGTERM while the
   * first is being sent; resolves once it is stopping.
   */
  async function stoppingWhileSending(env: Record<string, string>) {
    const held = { holding: true };
    const smtp = await startSmtp({ hold: () => held.holding });
    const fresh = await freshDatabase();
    await fresh.database.close();
    const shared: Record<string, string> = {
      ...(fresh.url ? { DATABASE_URL: fresh.url } : { DATA_DIR: fresh.dir }), DEMO: '0', SMTP_URL: smtp.url, MAIL_POLL_SECONDS: '1',
    };
    const open = () => (fresh.url ? openDatabase({ url: fresh.url }) : openDatabase({ file: `${fresh.dir}/marketplace.sqlite` }));
    const ids: number[] = [];
    const outbox = async () => {
      const database = open();
      try {
        const rows = await database.db.selectFrom('mail_outbox').select(['id', 'state', 'leased_by']).where('id', 'in', ids).orderBy('id').execute();
        return rows.map((r) => ({ id: Number(r.id), state: r.state, leased: r.leased_by !== null }));
      } finally {
        await database.close();
      }
    };
    const database = open();
    try {
      await migrate(database);
      for (let k = 0; k < 3; k++) {
        ids.push(await enqueue(database.db, { to: `stopping-${k}@example.com`, from: 'hello@example.com', serial: null, rendered: { subject: `Mail ${k}`, text: 'Hello', html: '' } }));
      }
    } finally {
      await database.close();
    }
    const first = await startProcess({ ...shared, ...env });
    started.push(first);
    let output = '';
    const stopping = new Promise<void>((resolve) =>
      first.child.stdout!.on('data', (chunk: Buffer) => {
        output = (output + chunk.toString()).slice(-10_000);
        if (output.includes('stopping: finishing the requests in flight')) resolve();
      }),
    );
    // The first mail is being sent (the SMTP server has it and has not said yes) when the signal comes.
    await smtp.until((received) => received.some((r) => r.outboxId === ids[0]));
    first.child.kill('SIGTERM');
    await stopping;
    const done = async () => {
      await smtp.stop();
      await fresh.drop();
    };
    return { ids, first, smtp, held, outbox, shared, done };
  }

  it('finishes that mail, releases the others it had taken to the next process at once, and sends none twice', async () => {
    const { ids, first, smtp, held, outbox, shared, done } = await stoppingWhileSending({});
    smtp.answer(ids[0]);
    expect(await first.exited).toBe('0');
    // The first is recorded as sent; the other two wait, held by nobody.
    expect(await outbox()).toEqual([
      { id: ids[0], state: 'sent', leased: false },
      { id: ids[1], state: 'waiting', leased: false },
      { id: ids[2], state: 'waiting', leased: false },
    ]);
    // The next process sends them without waiting for a lease to end; each mail arrives once.
    held.holding = false;
    const second = await startProcess(shared);
    started.push(second);
    await smtp.until((received) => ids.every((id) => received.some((r) => r.outboxId === id)));
    await expect.poll(async () => (await outbox()).map((r) => r.state), { timeout: 10_000 }).toEqual(['sent', 'sent', 'sent']);
    for (const id of ids) expect(smtp.of(id), `mail ${id}`).toHaveLength(1);
    expect(await second.stop()).toBe('0');
    await done();
  }, 120_000);

  it('waits no longer than SHUTDOWN_GRACE_SECONDS: the mail being sent keeps its lease (as after a crash), the others are released', async () => {
    const { ids, first, smtp, outbox, done } = await stoppingWhileSending({ SHUTDOWN_GRACE_SECONDS: '0' });
    expect(await first.exited).toBe('0');
    expect(await outbox()).toEqual([
      { id: ids[0], state: 'waiting', leased: true },
      { id: ids[1], state: 'waiting', leased: false },
      { id: ids[2], state: 'waiting', leased: false },
    ]);
    smtp.answer(ids[0]);
    await done();
  }, 120_000);
});

describe('event streams when the process stops', () => {
  it('end with a reconnection hint, and are counted while open', async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.write('retry: 3000\n\n');
      trackStream(res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      const reader = res.body!.getReader();
      expect(new TextDecoder().decode((await reader.read()).value)).toBe('retry: 3000\n\n');
      expect(openStreams()).toBe(1);
      endStreams();
      let rest = '';
      for (let part = await reader.read(); !part.done; part = await reader.read()) rest += new TextDecoder().decode(part.value);
      expect(rest).toMatch(/^retry: \d{4}\n\n$/);
      expect(Number(/\d+/.exec(rest)![0])).toBeGreaterThanOrEqual(1000);
      expect(openStreams()).toBe(0);
    } finally {
      server.close();
    }
  });
});
