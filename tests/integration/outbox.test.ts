/**
 * Issue 22, item 6: the outbox keeps a reset link only as long as it is needed. A reset mail leaves
 * the outbox once delivered over SMTP, once its link is used or ended (another password, a changed
 * email), or once the link has expired (housekeeping); until then, without SMTP, it stays there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESET_TTL_MS } from '../../server/auth';
import { MailWorker, smtpTransport } from '../../server/mail';
import { purgeExpired } from '../../server/maintenance';
import { startServer, demo, type TestServer } from './harness';
import { startSmtp } from './smtp';

let s: TestServer;
let admin: string;
beforeAll(async () => {
  s = await startServer();
  admin = await s.login(demo.admin.email, demo.admin.password);
});
afterAll(() => s.close());

const outbox = (email: string) => s.db.selectFrom('mail_outbox').selectAll().where('to_email', '=', email).execute();
const tokenOf = async (email: string) => /token=([\w-]+)/.exec((await s.mails(email)).at(-1)!.body)![1];

async function asked() {
  const user = await s.userWith([1]);
  expect((await s.post('/user/reset', { email: user.email })).body.status).toBe(true);
  expect(await outbox(user.email)).toHaveLength(1);
  return user;
}

describe('a reset link in the outbox', () => {
  it('stays until used, then goes', async () => {
    const user = await asked();
    const token = await tokenOf(user.email);
    expect((await outbox(user.email))[0].body).toContain(token);
    expect((await s.post('/user/update', { reset_token: token, password: 'a-brand-new-pass' })).body.status).toBe(true);
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

  it('goes once the SMTP server has taken the mail', async () => {
    const smtp = await startSmtp();
    const worker = new MailWorker({ db: s.db, transport: smtpTransport(smtp.url), envelopeFrom: 'no-reply@console.test' });
    try {
      const user = await asked();
      const [mail] = await s.mails(user.email);
      await worker.tick();
      expect(smtp.of(mail.id)).toHaveLength(1);
      expect(await outbox(user.email)).toEqual([]);
    } finally {
      await smtp.stop();
    }
  });
});
