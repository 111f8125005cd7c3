/**
 * Issue 22, item 6: the outbox keeps a reset link only as long as it is needed. A reset mail leaves
 * the outbox once delivered over SMTP, once its link is used or ended (another password, a changed
 * email), or once the link has expired (housekeeping); until then, without SMTP, it stays there.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESET_TTL_MS } from '../../server/auth';
import { smtpSender } from '../../server/mail';
import { purgeExpired } from '../../server/maintenance';
import { startServer, demo, type TestServer } from './harness';

let s: TestServer;
let admin: string;
beforeAll(async () => {
  s = await startServer();
  admin = await s.login(demo.admin.email, demo.admin.password);
});
afterAll(() => s.close());

const outbox = (email: string) => s.db.selectFrom('mail_outbox').selectAll().where('to_email', '=', email).execute();
const lastMail = (email: string) => [...s.mails].reverse().find((m) => m.to === email)!;
const tokenOf = (email: string) => /token=([\w-]+)/.exec(lastMail(email).body)![1];

async function asked() {
  const user = await s.userWith([1]);
  expect((await s.post('/user/reset', { email: user.email })).body.status).toBe(true);
  expect(await outbox(user.email)).toHaveLength(1);
  return user;
}

describe('a reset link in the outbox', () => {
  it('stays until used, then goes', async () => {
    const user = await asked();
    expect((await outbox(user.email))[0].body).toContain(tokenOf(user.email));
    expect((await s.post('/user/update', { reset_token: tokenOf(user.email), password: 'a-brand-new-pass' })).body.status).toBe(true);
    expect(await outbox(user.email)).toEqual([]);
  });

  it('goes when the link is ended another way: a new password, or the email changed', async () => {
    const user = await asked();
    expect((await s.post('/user/update', { current_password: 'password123', password: 'a-brand-new-pass' }, user.token)).body.status).toBe(true);
    expect(await outbox(user.email)).toEqual([]);
    const moved = await asked();
    expect((await s.post('/user/edit', { id: moved.id, email: `moved-${moved.id}@example.com` }, admin)).body.status).toBe(true);
    expect(await outbox(moved.email)).toEqual([]);
  });

  it('stays while the link lives, and goes with its expiry', async () => {
    const user = await asked();
    await purgeExpired(s.db, Date.now() + RESET_TTL_MS - 60_000);
    expect(await outbox(user.email)).toHaveLength(1);
    await purgeExpired(s.db, Date.now() + RESET_TTL_MS + 60_000);
    expect(await outbox(user.email)).toEqual([]);
  });

  it('goes once the mail is delivered', async () => {
    const user = await asked();
    await lastMail(user.email).sent!();
    expect(await outbox(user.email)).toEqual([]);
  });
});

describe('SMTP delivery', () => {
  /** A minimal SMTP server: accepts every mail, keeps what it received. */
  let server: net.Server;
  const received: string[] = [];
  beforeAll(async () => {
    server = net.createServer((socket) => {
      socket.write('220 test SMTP\r\n');
      let buffer = '';
      let data: string[] | undefined;
      socket.on('data', (chunk) => {
        buffer += chunk.toString();
        let end;
        while ((end = buffer.indexOf('\r\n')) >= 0) {
          const line = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (data) {
            if (line === '.') {
              received.push(data.join('\n'));
              data = undefined;
              socket.write('250 queued\r\n');
            } else data.push(line);
            continue;
          }
          const verb = line.slice(0, 4).toUpperCase();
          if (verb === 'DATA') {
            data = [];
            socket.write('354 go on\r\n');
          } else if (verb === 'QUIT') socket.end('221 bye\r\n');
          else socket.write('250 ok\r\n');
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('tells the outbox once the SMTP server has taken the mail, and not when it refused it', async () => {
    const { port } = server.address() as AddressInfo;
    const errors: unknown[] = [];
    const delivered = new Promise<void>((resolve) => {
      smtpSender(`smtp://127.0.0.1:${port}`, 'shop@example.com', (e) => errors.push(e))({
        to: 'reader@example.com', subject: 'Reset your password', body: 'the link', sent: async () => resolve(),
      });
    });
    await delivered;
    expect(received.some((m) => m.includes('reader@example.com'))).toBe(true);
    expect(errors).toEqual([]);

    // Nobody listening: the mail is not delivered, and the outbox is not told it was.
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const gone = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    let told = false;
    await new Promise<void>((resolve) => {
      smtpSender(`smtp://127.0.0.1:${gone}`, 'shop@example.com', () => resolve())({
        to: 'reader@example.com', subject: 's', body: 'b', sent: async () => void (told = true),
      });
    });
    expect(told).toBe(false);
  });
});
