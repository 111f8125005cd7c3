/**
 * Issue 25, items 1 and 2: mails from the Mail templates, through a durable outbox. Each event
 * writes its mail, rendered from its template as it is now, in its own transaction; an inactive
 * template sends nothing; templates that do not render are refused. A worker delivers the outbox to
 * a real SMTP server (smtp-server): each mail arrives once; with the server down mails wait and
 * arrive after it comes back; after the last attempt a mail is failed, listed for admins and sent
 * again on their word; two workers on one database never send a mail twice.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIL_PATHS } from '../../contract';
import { MAIL_EVENTS, type MailSerial } from '../../resources/templates/events';
import { openDatabase, type Database } from '../../server/db';
import { purgeExpired, SENT_MAIL_DAYS, sweepEntities } from '../../server/maintenance';
import { registry } from '../../server/registry';
import { LEASE_MS, MailWorker, queueMail, smtpTransport } from '../../server/mail';
import { startProcess, type ServerProcess } from '../../server/dev/process';
import { ADMIN, demo, dialect, freshDatabase, shopBody, startServer, type TestServer } from './harness';
import { startSmtp, type TestSmtp } from './smtp';

let s: TestServer;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  s = await startServer();
  tokens.admin = await s.login(demo.admin.email, demo.admin.password);
  tokens.seller = await s.login(demo.seller.email, demo.seller.password);
  tokens.buyer = await s.login(demo.buyer.email, demo.buyer.password);
  tokens.adminWithout = (await s.userWith(ADMIN, ['users'])).token;
});
afterAll(() => s.close());

const templateOf = (serial: MailSerial) => s.db.selectFrom('templates').selectAll().where('serial', '=', serial).executeTakeFirstOrThrow();
const userByEmail = (email: string) => s.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
let counter = 0;
const email = (what: string) => `${what}-${++counter}-${Date.now()}@example.com`;

async function register(name: string, address = email('reg')) {
  const res = await s.post('/user', { name, email: address, phone: `+1555${Date.now().toString().slice(-6)}${counter}`, password: 'a-good-password' });
  expect(res.body.status, res.body.query).toBe(true);
  return address;
}

async function editTemplate(serial: MailSerial, change: Record<string, unknown>) {
  const { id } = await templateOf(serial);
  return s.post('/templates', { id, ...change }, tokens.admin);
}

describe('every event writes its mail, from its template as it is now', () => {
  it('registering: the welcome mail, with the values escaped in its HTML', async () => {
    expect((await editTemplate('WELCOME', { subject: 'Hello {{ name }}, welcome' })).body.status).toBe(true);
    const address = await register('<b>Ann</b> & Co');
    const [mail, ...more] = await s.mails(address);
    expect(more).toEqual([]);
    expect(mail).toMatchObject({ serial: 'WELCOME', from: 'hello@example.com', subject: 'Hello <b>Ann</b> & Co, welcome', state: 'waiting' });
    expect(mail.body).toContain(`Your account (${address}) is ready. Sign in at http://console.test to start.`);
    expect(mail.html).toContain('Hello &lt;b&gt;Ann&lt;/b&gt; &amp; Co,<br>');
    expect(mail.html).not.toContain('<b>');
  });

  it('an inactive template sends nothing for its event; active again, it sends', async () => {
    const { id } = await templateOf('WELCOME');
    expect((await s.post('/templates/status', { id, is_active: 0 }, tokens.admin)).body.status).toBe(true);
    expect(await s.mails(await register('Quiet One'))).toEqual([]);
    expect((await s.post('/templates/status', { id, is_active: 1 }, tokens.admin)).body.status).toBe(true);
    expect(await s.mails(await register('Loud One'))).toHaveLength(1);
  });

  it('asking for a password reset: the link, from the template', async () => {
    const address = await register('Reset Me');
    expect((await editTemplate('RESET', { message: 'Dear {{ name }}, here: {{ reset_link }}' })).body.status).toBe(true);
    expect((await s.post('/user/reset', { email: address })).body.status).toBe(true);
    const mail = (await s.mails(address)).find((m) => m.serial === 'RESET')!;
    expect(mail.body).toMatch(/^Dear Reset Me, here: http:\/\/console\.test\/forgot-password\?token=[\w-]+$/);

    // A template kept without the link (as an older database may hold it): the seeded text goes instead.
    await s.db.updateTable('templates').set({ message: 'Hello {{ name }}' }).where('serial', '=', 'RESET').execute();
    expect((await s.post('/user/reset', { email: address })).body.status).toBe(true);
    const seeded = (await s.mails(address)).at(-1)!;
    expect(seeded.body).toMatch(/^Hello Reset Me,\n\nOpen this link within one hour to choose a new password:\nhttp:\/\/console\.test\/forgot-password\?token=[\w-]+\n/);
  });

  it('placing an order: the buyer and the shop\'s seller; a status change: the buyer', async () => {
    const seller = await userByEmail(demo.seller.email);
    const product = await s.db
      .selectFrom('products').selectAll().where('state', '=', 'active').where('in_stock', '>', 3)
      .where('shop_id', 'in', s.db.selectFrom('shops').select('id').where('owner_id', '=', Number(seller.id)).where('is_active', '=', 1))
      .orderBy('id').executeTakeFirstOrThrow();
    const shop = await s.db.selectFrom('shops').selectAll().where('id', '=', Number(product.shop_id)).executeTakeFirstOrThrow();
    const before = (await s.mails(demo.seller.email)).length;
    const placed = await s.post('/order', {
      shop_id: product.shop_id, items: [{ product_id: product.id, quantity: 2 }],
      shipping_address: { street_name: '5 Broad Street', city: 'Monrovia', state: 'Montserrado', country: 'Liberia', zip: '1000' },
    }, tokens.buyer);
    expect(placed.body.status, placed.body.query).toBe(true);
    const order = placed.body.detail;
    const total = `${order.currency} ${Number(order.total).toFixed(2)}`;
    const buyerMail = (await s.mails(demo.buyer.email)).at(-1)!;
    expect(buyerMail).toMatchObject({ serial: 'ORDER_PLACED', subject: `We received your order ${order.tracking_number}` });
    expect(buyerMail.body).toContain(`Thank you for your order ${order.tracking_number} from ${String(shop.name)}: 2 item(s), ${total}.`);
    const sellerMails = (await s.mails(demo.seller.email)).slice(before);
    expect(sellerMails).toHaveLength(1);
    expect(sellerMails[0]).toMatchObject({ serial: 'ORDER_RECEIVED', subject: `New order ${order.tracking_number} for ${String(shop.name)}` });

    expect((await s.post('/order/status', { state: 2, id: order.id }, tokens.seller)).body.status).toBe(true);
    const status = (await s.mails(demo.buyer.email)).at(-1)!;
    expect(status).toMatchObject({ serial: 'ORDER_STATUS', subject: `Your order ${order.tracking_number}: Order Confirmed` });
    expect(status.body).toContain('is now: Order Confirmed (it was: New Order)');
    // A save that leaves the status as it is mails nobody.
    const count = (await s.mails(demo.buyer.email)).length;
    expect((await s.post('/order/status', { status: 2, id: order.id }, tokens.admin)).body.status).toBe(true);
    expect(await s.mails(demo.buyer.email)).toHaveLength(count);
  });

  it('an unpaid order whose hold ends is cancelled by the sweep: the buyer is told', async () => {
    const product = await s.db
      .selectFrom('products').selectAll().where('state', '=', 'active').where('in_stock', '>', 3)
      .where('shop_id', 'in', s.db.selectFrom('shops').select('id').where('is_active', '=', 1).where('owner_id', '!=', (await userByEmail(demo.buyer.email)).id as number))
      .orderBy('id', 'desc').executeTakeFirstOrThrow();
    const placed = await s.post('/order', {
      shop_id: product.shop_id, items: [{ product_id: product.id, quantity: 1 }],
      shipping_address: { street_name: '5 Broad Street', city: 'Monrovia', state: 'Montserrado', country: 'Liberia', zip: '1000' },
    }, tokens.buyer);
    expect(placed.body.status, placed.body.query).toBe(true);
    await sweepEntities(s.db, registry.entities, Date.now() + 24 * 3_600_000);
    const mail = (await s.mails(demo.buyer.email)).at(-1)!;
    expect(mail).toMatchObject({ serial: 'ORDER_STATUS', subject: `Your order ${placed.body.detail.tracking_number}: Order Cancelled` });
    expect(mail.body).toContain('(it was: New Order)');
  });

  it('activating a subscription: its shop\'s seller, once', async () => {
    const seller = await s.userWith([1, 2]);
    const shop = await s.post('/shop', shopBody(`Mail Shop ${Date.now()}`), seller.token);
    expect(shop.body.status, shop.body.query).toBe(true);
    const plans = (await s.post('/packages', {}, seller.token)).body.HLL.plans as { id: number; type: string; nature: string }[];
    const subscribed = await s.post('/package/subscribe', { plan_id: plans[0].id, shop_id: shop.body.detail.id }, seller.token);
    expect(subscribed.body.status, subscribed.body.query).toBe(true);
    const record = subscribed.body.detail;
    expect(await s.mails(seller.email)).toEqual([]);
    expect((await s.post('/subcription/status', { ...record, is_active: true }, tokens.admin)).body.status).toBe(true);
    const [mail, ...more] = await s.mails(seller.email);
    expect(more).toEqual([]);
    expect(mail).toMatchObject({ serial: 'SUBSCRIPTION_ACTIVE', subject: `Your ${plans[0].type} ${plans[0].nature} package is active` });
    expect(mail.body).toContain(`of Mail Shop`);
    expect(mail.body).toContain(`from ${String(record.start_date)} to ${String(record.end_date)}.`);
    // Already active: no second mail.
    expect((await s.post('/subcription/status', { ...record, is_active: true }, tokens.admin)).body.status).toBe(true);
    expect(await s.mails(seller.email)).toHaveLength(1);
  });

  it('settling a deletion request: the user, at the address they had', async () => {
    for (const [status, deleted] of [['Deletion rejected by admin', false], ['Deleted', true]] as const) {
      const user = await s.userWith([1]);
      const asked = await s.post('/deletion', { feedback: 'Please remove me', customer: 'x', customer_id: user.id }, user.token);
      expect(asked.body.status, asked.body.query).toBe(true);
      expect(await s.mails(user.email)).toEqual([]);
      expect((await s.post('/deletion/retrieve', { id: asked.body.detail.id, deletion_status: status }, tokens.admin)).body.status).toBe(true);
      const [mail, ...more] = await s.mails(user.email);
      expect(more).toEqual([]);
      expect(mail.serial).toBe('DELETION_SETTLED');
      expect(mail.body).toContain(deleted ? 'Your account has been deleted, with its personal data.' : `Your request was not carried out (${status}).`);
    }
    // An erased account's address (.invalid) is never written to.
    const values = { name: 'Gone', email: 'x', site_url: 'http://console.test' };
    expect(await queueMail(s.db, 'WELCOME', 'deleted-user-1@deleted.invalid', values)).toBeNull();
    expect(await queueMail(s.db, 'WELCOME', 'still-here@example.com', values)).toEqual(expect.any(Number));
  });
});

describe('templates that do not render are refused', () => {
  it('a variable the event does not offer, broken Liquid, a file, a reset mail without its link', async () => {
    const refused = async (serial: MailSerial, change: Record<string, unknown>, query: string) => {
      const res = await editTemplate(serial, change);
      expect(res.http).toBe(400);
      expect(res.body).toMatchObject({ status: false, query });
    };
    await refused('WELCOME', { message: 'Hi {{ nickname }}' }, 'The message is not a valid template: undefined variable: nickname, line:1, col:7');
    await refused('WELCOME', { subject: 'Hi {{ name' }, 'The subject is not a valid template: output "{{ name" not closed, line:1, col:4');
    await refused('WELCOME', { message: '{% include "package.json" %}' }, expect.stringMatching(/^The message is not a valid template: .*package\.json/) as unknown as string);
    await refused('RESET', { message: 'Hello {{ name }}' }, 'The message must use {{ reset_link }}');
    expect((await editTemplate('WELCOME', { message: 'Hi {{ name | upcase }}{% if email %} ({{ email }}){% endif %}' })).body.status).toBe(true);
  });
});

describe('the mail that carries a sign-in link', () => {
  it('is worded only by an admin holding every access; the other mails by any admin holding Mail templates', async () => {
    const templater = (await s.userWith(ADMIN, ['mail-templates'])).token;
    await s.db.updateTable('templates').set(MAIL_EVENTS.RESET.template).where('serial', '=', 'RESET').execute();
    const reset = await templateOf('RESET');
    const welcome = await templateOf('WELCOME');
    const phishing = 'Hello {{ name }},\nOpen https://evil.example/?{{ reset_link }} to choose a new password.';
    for (const change of [{ message: phishing }, { subject: 'Your new password' }, { from_email: 'help@evil.example' }]) {
      const res = await s.post('/templates', { id: reset.id, ...change }, templater);
      expect(res).toMatchObject({ http: 403, body: { status: false, query: 'Only an admin holding every access may change a mail that carries a sign-in link' } });
    }
    // Nor can another template be made the reset mail.
    expect((await s.post('/templates', { id: welcome.id, serial: 'RESET' }, templater)).http).toBe(403);
    expect(await templateOf('RESET')).toMatchObject({ message: reset.message, subject: reset.subject, from_email: reset.from_email });
    // The reset template sent back as it is (the form's whole payload) changes nothing and is taken; so is another mail's new wording.
    const same = await s.post('/templates', { id: reset.id, serial: reset.serial, subject: reset.subject, message: reset.message, from_email: reset.from_email }, templater);
    expect(same.http, same.body.query).toBe(200);
    expect((await s.post('/templates', { id: welcome.id, subject: 'Welcome aboard, {{ name }}' }, templater)).http).toBe(200);
    // An admin holding every access words it.
    const worded = `${String(reset.message)}\n\nThe Marketplace team`;
    expect((await s.post('/templates', { id: reset.id, message: worded }, tokens.admin)).http).toBe(200);
    expect((await templateOf('RESET')).message).toBe(worded);
    await s.post('/templates', { id: reset.id, message: reset.message }, tokens.admin);
    await s.post('/templates', { id: welcome.id, subject: welcome.subject }, tokens.admin);
  });
});

describe('the outbox for admins: a test mail, failed mails, retry', () => {
  it('refuses everyone but admins holding Mail templates, even with a malformed body', async () => {
    for (const route of Object.values(MAIL_PATHS)) {
      for (const [token, http] of [[null, 401], [tokens.buyer, 403], [tokens.seller, 403], [tokens.adminWithout, 403]] as const) {
        const res = await s.post(route, { id: 'not a number' }, token);
        expect(res.http, `${route} ${http}`).toBe(http);
        expect(res.body.status).toBe(false);
      }
    }
  });

  it('a test mail: the form\'s template with its event\'s sample values, to the admin', async () => {
    const { id } = await templateOf('ORDER_STATUS');
    const res = await s.post(MAIL_PATHS.test, { id, subject: 'Try: {{ reference }} is {{ status }}' }, tokens.admin);
    expect(res.body).toMatchObject({ status: true, query: `A test mail is on its way to ${demo.admin.email}` });
    const mail = (await s.mails(demo.admin.email)).at(-1)!;
    const sample = MAIL_EVENTS.ORDER_STATUS.variables;
    expect(mail.subject).toBe(`Try: ${sample.reference} is ${sample.status}`);
    expect(mail.body).toContain(`Hello ${sample.name},`);
    const bad = await s.post(MAIL_PATHS.test, { id, message: '{{ nope }}' }, tokens.admin);
    expect(bad.body).toMatchObject({ status: false, query: 'The message is not a valid template: undefined variable: nope, line:1, col:4' });
    expect(await s.post(MAIL_PATHS.test, { id: 999_999 }, tokens.admin)).toMatchObject({ http: 404, body: { status: false, query: 'Template 999999 does not exist' } });
  });
});

describe('delivery over SMTP', () => {
  let smtp: TestSmtp;
  // The workers' clock runs ahead of the mails' stamps: what was written is due.
  let t = Date.now() + 3_600_000;
  const worker = (settings = {}) =>
    new MailWorker({ db: s.db, transport: smtpTransport(smtp.url), envelopeFrom: 'Marketplace <bounces@console.test>', clock: () => t, settings: { maxAttempts: 3, retrySeconds: 60, ...settings } });
  const row = (id: number) => s.db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const queue = async () => (await queueMail(s.db, 'WELCOME', email('smtp'), { name: 'Smtp Reader', email: 'r@example.com', site_url: 'http://console.test' }))!;
  beforeAll(async () => {
    smtp = await startSmtp();
  });
  afterAll(() => smtp.stop());

  it('each mail arrives once', async () => {
    const w = worker();
    const id = await queue();
    await w.tick();
    expect(smtp.of(id)).toHaveLength(1);
    expect(smtp.of(id)[0].text).toMatch(/^Subject: Hello Smtp Reader, welcome$/m);
    expect(await row(id)).toMatchObject({ state: 'sent', attempts: 1, last_error: null });
    await w.tick();
    expect(smtp.of(id)).toHaveLength(1);
  });

  it('with the server down, a mail waits, and arrives once after it comes back', async () => {
    const w = worker();
    await smtp.stop();
    const id = await queue();
    await w.tick();
    expect(await row(id)).toMatchObject({ state: 'waiting', attempts: 1, next_attempt_at: new Date(t + 60_000).toISOString() });
    expect(String((await row(id)).last_error)).toMatch(/ECONNREFUSED/);
    await smtp.start();
    t += 59_999;
    await w.tick();
    expect(smtp.of(id)).toEqual([]);
    t += 1;
    await w.tick();
    expect(smtp.of(id)).toHaveLength(1);
    expect(await row(id)).toMatchObject({ state: 'sent', attempts: 2 });
  });

  it('after the last attempt a mail is failed, shown to admins with its error, and sent again on their word', async () => {
    const w = worker();
    await smtp.stop();
    const id = await queue();
    await w.tick();
    t += 60_000;
    await w.tick();
    // The waits double: 60 s, then 120 s.
    expect(await row(id)).toMatchObject({ state: 'waiting', attempts: 2, next_attempt_at: new Date(t + 120_000).toISOString() });
    t += 120_000;
    await w.tick();
    expect(await row(id)).toMatchObject({ state: 'failed', attempts: 3, next_attempt_at: null });
    t += 3_600_000;
    await w.tick();
    expect((await row(id)).attempts).toBe(3);

    const failed = await s.post(MAIL_PATHS.failed, {}, tokens.admin);
    expect(failed.body.status).toBe(true);
    const listed = (failed.body.HLL as Record<string, unknown>[]).find((m) => m.id === id);
    expect(listed).toMatchObject({ serial: 'WELCOME', subject: 'Hello Smtp Reader, welcome', attempts: 3, last_error: expect.stringMatching(/ECONNREFUSED/) });

    await smtp.start();
    expect((await s.post(MAIL_PATHS.retry, { id }, tokens.admin)).body).toMatchObject({ status: true, query: 'The mail will be sent again' });
    await w.tick();
    expect(smtp.of(id)).toHaveLength(1);
    expect(await row(id)).toMatchObject({ state: 'sent' });
    expect((await s.post(MAIL_PATHS.retry, { id }, tokens.admin)).body).toMatchObject({
      status: false, query: `Mail ${id} has not failed: only a failed mail can be sent again`,
    });
    expect(((await s.post(MAIL_PATHS.failed, {}, tokens.admin)).body.HLL as { id: number }[]).map((m) => m.id)).not.toContain(id);
  });

  it('two workers on one database, each on its own connection: every mail arrives once', async () => {
    const other: Database = dialect === 'postgres' ? openDatabase({ url: s.databaseUrl }) : openDatabase({ file: path.join(s.dataDir, 'test.sqlite') });
    try {
      const ids: number[] = [];
      for (let k = 0; k < 24; k++) ids.push(await queue());
      const a = worker();
      const b = new MailWorker({ db: other.db, transport: smtpTransport(smtp.url), envelopeFrom: 'bounces@console.test', clock: () => t, batch: 3 });
      const [ra, rb] = await Promise.all([a.tick(), b.tick()]);
      expect(ra.sent + rb.sent).toBeGreaterThanOrEqual(ids.length);
      for (const id of ids) expect(smtp.of(id), `mail ${id}`).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  it('a mail held by a worker that stopped is taken by another once its lease ends', async () => {
    const id = await queue();
    // Held by a worker that never finished (a crash while sending).
    await s.db.updateTable('mail_outbox').set({ lease_until: new Date(t + LEASE_MS).toISOString(), leased_by: 'gone' }).where('id', '=', id).execute();
    const w = worker();
    t += LEASE_MS - 1;
    await w.tick();
    expect(smtp.of(id)).toEqual([]);
    t += 2;
    await w.tick();
    expect(smtp.of(id)).toHaveLength(1);
  });

  // Last: housekeeping a month ahead also ends every session of this file.
  it('keeps a delivered mail SENT_MAIL_DAYS, then housekeeping deletes it', async () => {
    const id = await queue();
    await worker().tick();
    expect(await row(id)).toMatchObject({ state: 'sent', sent_at: new Date(t).toISOString() });
    const days = SENT_MAIL_DAYS * 86_400_000;
    await purgeExpired(s.db, t + days - 60_000);
    expect(await row(id)).toMatchObject({ state: 'sent' });
    await purgeExpired(s.db, t + days + 60_000);
    expect(await s.db.selectFrom('mail_outbox').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
  });
});

describe('two API processes with SMTP_URL on one database', () => {
  it('deliver each mail once', async () => {
    const smtp = await startSmtp();
    const fresh = await freshDatabase();
    await fresh.database.close();
    const env = {
      ...(fresh.url ? { DATABASE_URL: fresh.url } : { DATA_DIR: fresh.dir }),
      SMTP_URL: smtp.url, MAIL_POLL_SECONDS: '1', RATE_LIMIT_FACTOR: '0', LOG_LEVEL: 'silent',
    };
    const processes: ServerProcess[] = [];
    try {
      processes.push(await startProcess(env));
      processes.push(await startProcess(env));
      const addresses: string[] = [];
      for (let k = 0; k < 12; k++) {
        const address = email('twice');
        const res = await processes[k % 2].post('/user', { name: `Twin ${k}`, email: address, phone: `+1666${Date.now().toString().slice(-6)}${k}`, password: 'a-good-password' });
        expect(res.body.status, res.body.query).toBe(true);
        addresses.push(address);
      }
      const to = (address: string) => smtp.received.filter((r) => r.to.includes(address));
      await smtp.until(() => addresses.every((a) => to(a).length > 0));
      // Every mail is marked sent: no worker holds one any more, so none can be sent again.
      const database = fresh.url ? openDatabase({ url: fresh.url }) : openDatabase({ file: path.join(fresh.dir, 'marketplace.sqlite') });
      try {
        const sent = async () => (await database.db.selectFrom('mail_outbox').select('state').where('to_email', 'in', addresses).execute()).map((r) => r.state);
        await expect.poll(sent, { timeout: 10_000 }).toEqual(addresses.map(() => 'sent'));
      } finally {
        await database.close();
      }
      for (const address of addresses) expect(to(address), address).toHaveLength(1);
    } finally {
      await Promise.all(processes.map((p) => p.stop()));
      await smtp.stop();
      await fresh.drop();
    }
  });
});
