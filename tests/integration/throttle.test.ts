/**
 * Sign-in, reset and registration are throttled per account and per address, anonymous writes per
 * address, a signed-in user's new records per user; the counters live in the database, so two API processes share them. The clock is
 * injected: windows pass without waiting.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../../server/db';
import { seedDemo, seedReference } from '../../server/seed';
import { DEFAULT_LIMITS, type Limits } from '../../server/throttle';
import { checkedApp, startServer, demo, shopBody, type TestServer } from './harness';

let t = Date.UTC(2030, 0, 1);
const clock = () => t;
const limits: Limits = {
  ...DEFAULT_LIMITS, loginAddress: { max: 8, windowMs: 60_000 }, register: { max: 3, windowMs: 60_000 },
  userCreate: { max: 5, windowMs: 60_000 }, ownerCreate: { max: 8, windowMs: 60_000 },
};
let s: TestServer;
beforeAll(async () => {
  s = await startServer({ limits, clock });
});
afterAll(() => s.close());

const login = (credential: string, password: string) => s.post('/user/terminal', { credential, password, source: 'inbuilt', actionType: 'login' });
const clear = () => s.db.deleteFrom('rate_limits').execute();

describe('sign-in throttling', () => {
  it('after 5 failures on an account answers 429 with Retry-After, even to the right password, until the minute is over', async () => {
    await clear();
    for (let i = 0; i < 5; i++) expect((await login(demo.seller.email, 'wrong-password')).http).toBe(401);
    t += 20_000;
    const res = await fetch(`${s.url}/user/terminal`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ credential: demo.seller.email, password: demo.seller.password }),
    });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('40');
    expect(await res.json()).toMatchObject({ status: false, query: 'Too many attempts; please wait 40 seconds and try again', detail: null });
    expect((await login(demo.buyer.email, demo.buyer.password)).http).toBe(200); // other accounts are not locked
    t += 40_000;
    expect((await login(demo.seller.email, demo.seller.password)).http).toBe(200);
  });

  it("counts an account's failures together whether it was named by email or by phone number: 5 by email, then 1 by phone is 429, the right password too, until the minute is over", async () => {
    await clear();
    for (let i = 0; i < 5; i++) expect((await login(demo.seller.email, 'wrong-password')).http).toBe(401);
    const byPhone = await login(demo.seller.phone, 'wrong-password');
    expect(byPhone.http).toBe(429);
    expect(byPhone.body.query).toBe('Too many attempts; please wait 60 seconds and try again');
    t += 30_000;
    expect((await login(demo.seller.phone, demo.seller.password)).http).toBe(429);
    expect((await login(demo.seller.email, demo.seller.password)).http).toBe(429);
    t += 30_000;
    expect((await login(demo.seller.phone, demo.seller.password)).http).toBe(200);
  });

  it('counts the other way too: failures by phone number hold a sign-in by email', async () => {
    await clear();
    for (let i = 0; i < 5; i++) expect((await login(demo.seller.phone, 'wrong-password')).http).toBe(401);
    expect((await login(demo.seller.email, demo.seller.password)).http).toBe(429);
    t += 60_000;
  });

  it('still limits a credential that names no account, and answers it as it answers an account that exists', async () => {
    await clear();
    const attempts = async (credential: string) => {
      const answers = [];
      for (let i = 0; i < 6; i++) {
        const res = await fetch(`${s.url}/user/terminal`, {
          method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ credential, password: 'wrong-password' }),
        });
        answers.push({ http: res.status, retryAfter: res.headers.get('retry-after'), body: await res.json() });
      }
      return answers;
    };
    const unknown = await attempts(`nobody-${t}@example.com`);
    expect(unknown.map((a) => a.http)).toEqual([401, 401, 401, 401, 401, 429]);
    t += 60_000;
    expect(await attempts(demo.buyer.email)).toEqual(unknown);
    t += 60_000;
    // An unknown email and an unknown phone number are no account: each has its own counter.
    for (let i = 0; i < 5; i++) expect((await login('nobody-at-all@example.com', 'wrong-password')).http).toBe(401);
    expect((await login('+15550009999', 'wrong-password')).http).toBe(401);
    t += 60_000;
  });

  it('counts wrong current passwords with wrong sign-ins by phone number, in one counter of the account', async () => {
    await clear();
    const user = await s.userWith([1]);
    const phone = `+1555${String(t).slice(-7)}`;
    await s.db.updateTable('users').set({ phone }).where('id', '=', user.id).execute();
    for (let i = 0; i < 3; i++) {
      expect((await s.post('/user/update', { current_password: 'not-the-one', password: 'a-new-password' }, user.token)).http).toBe(403);
    }
    for (let i = 0; i < 2; i++) expect((await login(phone, 'wrong-password')).http).toBe(401);
    expect((await login(user.email, 'password123')).http).toBe(429);
    expect((await s.post('/user/update', { current_password: 'password123', password: 'a-new-password' }, user.token)).http).toBe(429);
    t += 60_000;
    expect((await login(phone, 'password123')).http).toBe(200);
  });

  it('counts failures per address across accounts', async () => {
    await clear();
    for (let i = 0; i < 8; i++) expect((await login(`nobody${i}@example.com`, 'wrong-password')).http).toBe(401);
    expect((await login('nobody-else@example.com', 'wrong-password')).http).toBe(429);
    expect((await login(demo.admin.email, demo.admin.password)).http).toBe(429);
    t += 60_000;
  });

  it('does not count sign-ins that succeed', async () => {
    await clear();
    for (let i = 0; i < 12; i++) expect((await login(demo.buyer.email, demo.buyer.password)).http).toBe(200);
  });

  it('counts wrong current passwords as failed sign-ins of the account', async () => {
    await clear();
    const user = await s.userWith([1]);
    for (let i = 0; i < 5; i++) {
      expect((await s.post('/user/update', { current_password: 'not-the-one', password: 'a-new-password' }, user.token)).http).toBe(403);
    }
    expect((await s.post('/user/update', { current_password: 'password123', password: 'a-new-password' }, user.token)).http).toBe(429);
    t += 60_000;
  });

  it('counts wrong current passwords for a new email too, on the save call and the REST face (429, as the API document lists)', async () => {
    await clear();
    const user = await s.userWith([1]);
    const email = `moved-${t}@example.com`;
    for (let i = 0; i < 5; i++) {
      expect((await s.post('/user/edit', { id: user.id, email, current_password: 'not-the-one' }, user.token)).http).toBe(403);
    }
    expect((await s.post('/user/edit', { id: user.id, email, current_password: 'password123' }, user.token)).http).toBe(429);
    const rest = await s.send('PUT', `/rest/users/${user.id}`, { email, current_password: 'password123' }, user.token);
    expect(rest.http).toBe(429);
    t += 60_000;
    expect((await s.post('/user/edit', { id: user.id, email, current_password: 'password123' }, user.token)).body.status).toBe(true);
  });
});

describe('behind a load balancer (TRUST_PROXY)', () => {
  const opening = { user_name: 'Ama', chats: [{ sent: 1, recieved: 0, message: 'Hello' }] };
  /** The address a chat opened through the given X-Forwarded-For records: the one the server took for the client's. */
  const seenAt = async (server: TestServer, forwarded: string) =>
    (await server.post('/chat', opening, null, { 'X-Forwarded-For': forwarded })).body.detail.user_ip_address;

  it('with one proxy in front, takes the address it appended: entries a client wrote before it change nothing', async () => {
    const behind = await startServer({ limits, clock, trustProxy: 1 });
    try {
      expect(await seenAt(behind, '203.0.113.7, 10.0.0.9')).toBe('10.0.0.9');
      expect(await seenAt(behind, '10.0.0.9')).toBe('10.0.0.9');
      // Failed sign-ins from one client count together, whatever it writes before the balancer's entry.
      for (let i = 0; i < 8; i++) {
        const res = await behind.post('/user/terminal', { credential: `nobody${i}@example.com`, password: 'wrong-password' }, null, { 'X-Forwarded-For': `198.51.100.${i}, 10.0.0.9` });
        expect(res.http).toBe(401);
      }
      expect((await behind.post('/user/terminal', { credential: 'nobody@example.com', password: 'wrong-password' }, null, { 'X-Forwarded-For': '198.51.100.99, 10.0.0.9' })).http).toBe(429);
      // Another client behind the same balancer is not held.
      expect((await behind.post('/user/terminal', { credential: demo.buyer.email, password: demo.buyer.password }, null, { 'X-Forwarded-For': '10.0.0.10' })).http).toBe(200);
    } finally {
      await behind.close();
    }
  });

  it("by the proxies' addresses: trusts X-Forwarded-For only from them; without TRUST_PROXY, never", async () => {
    const fromLoopback = await startServer({ limits, clock, trustProxy: '127.0.0.1, 10.0.0.0/8' });
    const fromElsewhere = await startServer({ limits, clock, trustProxy: '192.0.2.1' });
    try {
      // The loopback peer and the 10.x hop are proxies: the client is the first address before them.
      expect(await seenAt(fromLoopback, '203.0.113.7, 10.0.0.9')).toBe('203.0.113.7');
      expect(await seenAt(fromLoopback, '198.51.100.1, 203.0.113.7, 10.0.0.9')).toBe('203.0.113.7');
      // A peer that is not a proxy of the list is the client, whatever it says.
      expect(await seenAt(fromElsewhere, '203.0.113.7')).toBe('127.0.0.1');
      expect(await seenAt(s, '203.0.113.7')).toBe('127.0.0.1');
    } finally {
      await fromLoopback.close();
      await fromElsewhere.close();
    }
  });
});

describe('reset and registration throttling', () => {
  it('mails at most 3 reset links a minute for one account', async () => {
    await clear();
    const user = await s.userWith([1]);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push((await s.post('/user/reset', { email: user.email })).http);
    expect(answers).toEqual([200, 200, 200, 429]);
    expect(await s.mails(user.email)).toHaveLength(3);
    t += 60_000;
  });

  it('takes 3 registrations a minute from one address', async () => {
    await clear();
    const register = (i: number) =>
      s.post('/user', { name: 'N', email: `reg${i}-${t}@example.com`, phone: `+1555000${i}${t % 1000}`, password: 'uncommon-pass-7', abilities: '[1,2]' });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push((await register(i)).http);
    expect(answers).toEqual([200, 200, 200, 429]);
    t += 60_000;
    expect((await register(9)).http).toBe(200);
  });
});

describe('anonymous writes', () => {
  it('takes 10 anonymous chats a minute from one address, then answers 429 and stores nothing', async () => {
    await clear();
    const count = async () => (await s.db.selectFrom('chats').select('id').execute()).length;
    const before = await count();
    const chat = { user_name: 'Visitor', user_email: 'v@example.com', chats: [{ sent: 1, recieved: 0, message: 'hi' }] };
    for (let i = 0; i < 10; i++) expect((await s.post('/chat', chat)).http).toBe(200);
    const refused = await s.post('/chat', chat);
    expect(refused.http).toBe(429);
    expect(refused.body.query).toMatch(/^Too many attempts; please wait \d+ seconds and try again$/);
    expect(await count()).toBe(before + 10);
    const signedIn = await s.login(demo.buyer.email, demo.buyer.password);
    expect((await s.post('/chat', chat, signedIn)).http).toBe(200);
    t += 60_000;
  });

  it('counts the REST face\'s anonymous creates against the same limit, and not its reads', async () => {
    await clear();
    const chat = { user_name: 'Visitor', user_email: 'v@example.com', chats: [{ sent: 1, recieved: 0, message: 'hi' }] };
    const create = () => fetch(`${s.url}/rest/chats`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(chat) });
    for (let i = 0; i < 5; i++) expect((await s.post('/chat', chat)).http).toBe(200);
    for (let i = 0; i < 5; i++) expect((await create()).status).toBe(201);
    const refused = await create();
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { message: string }).message).toMatch(/^Too many attempts/);
    expect((await s.post('/chat', chat)).http).toBe(429);
    // Reading is not a write: anonymous reads of public lists are never counted.
    for (let i = 0; i < 12; i++) expect((await fetch(`${s.url}/rest/exchanges`)).status).toBe(200);
    t += 60_000;
  });
});

describe("a signed-in user's new records", () => {
  const support = (i: number) => ({ title: `Question ${i}`, message: 'x'.repeat(5000) });
  const supports = async () => (await s.db.selectFrom('supports').select('id').execute()).length;
  const restCreate = (token: string, body: unknown) =>
    fetch(`${s.url}/rest/supports`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` }, body: JSON.stringify(body) });

  it("takes a buyer's 5 a minute (save calls and the REST face's POST together), answers the 6th 429 with Retry-After and stores nothing, then takes them again", async () => {
    await clear();
    const buyer = await s.userWith([1]);
    const before = await supports();
    for (let i = 0; i < 3; i++) expect((await s.post('/support', support(i), buyer.token)).http).toBe(200);
    t += 15_000;
    for (let i = 3; i < 5; i++) expect((await restCreate(buyer.token, support(i))).status).toBe(201);
    const refused = await fetch(`${s.url}/support`, {
      method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${buyer.token}` }, body: JSON.stringify(support(5)),
    });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('45');
    expect(await refused.json()).toMatchObject({ status: false, query: 'Too many attempts; please wait 45 seconds and try again', detail: null });
    const restRefused = await restCreate(buyer.token, support(6));
    expect(restRefused.status).toBe(429);
    expect(restRefused.headers.get('retry-after')).toBe('45');
    expect(await supports()).toBe(before + 5);
    // Another user is not held by this one's count.
    expect((await s.post('/support', support(7), (await s.userWith([1])).token)).http).toBe(200);
    t += 44_999;
    expect((await s.post('/support', support(8), buyer.token)).http).toBe(429);
    t += 1;
    expect((await s.post('/support', support(9), buyer.token)).http).toBe(200);
    expect(await supports()).toBe(before + 7);
  });

  it('counts only records made: a refused create is taken back', async () => {
    await clear();
    const buyer = await s.userWith([1]);
    for (let i = 0; i < 8; i++) expect((await s.post('/support', { title: 'No message' }, buyer.token)).http).toBe(400);
    for (let i = 0; i < 5; i++) expect((await s.post('/support', support(i), buyer.token)).http).toBe(200);
    expect((await s.post('/support', support(5), buyer.token)).http).toBe(429);
    t += 60_000;
  });

  it('never limits an admin', async () => {
    await clear();
    const admin = await s.login(demo.admin.email, demo.admin.password);
    for (let i = 0; i < 12; i++) expect((await s.post('/support', support(i), admin)).http).toBe(200);
    for (let i = 0; i < 3; i++) expect((await restCreate(admin, support(i))).status).toBe(201);
  });

  it("gives a seller's own records (create rule 'owner') the looser limit of their own, and counts no update", async () => {
    await clear();
    const seller = await s.userWith([1, 2]);
    const made = await s.post('/shop', shopBody(`Counted ${t}-0`), seller.token);
    expect(made.http).toBe(200);
    const id = made.body.detail.id as number;
    // Changes of a record (a save with its id, the REST face's PUT) are not new records.
    for (let i = 0; i < 10; i++) expect((await s.post('/shop', { ...shopBody(`Counted ${t}-0`), id, description: `Change ${i}` }, seller.token)).http).toBe(200);
    for (let i = 0; i < 4; i++) expect((await s.send('PUT', `/rest/shops/${id}`, { description: `Rest change ${i}` }, seller.token)).http).toBe(200);
    for (let i = 1; i < 8; i++) expect((await s.post('/shop', shopBody(`Counted ${t}-${i}`), seller.token)).http).toBe(200);
    const refused = await s.post('/shop', shopBody(`Counted ${t}-8`), seller.token);
    expect(refused.http).toBe(429);
    expect(refused.body.query).toMatch(/^Too many attempts; please wait \d+ seconds and try again$/);
    // Filing a request counts against the other limit.
    for (let i = 0; i < 5; i++) expect((await s.post('/support', support(i), seller.token)).http).toBe(200);
    expect((await s.post('/support', support(5), seller.token)).http).toBe(429);
    t += 60_000;
    expect((await s.post('/shop', shopBody(`Counted ${t}-9`), seller.token)).http).toBe(200);
  });
});

describe('two API processes on one database', () => {
  it('share the counters', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'marketplace-shared-'));
    const file = path.join(dir, 'shared.sqlite');
    const first = openDatabase({ file });
    await migrate(first);
    await seedReference(first.db);
    await seedDemo(first.db);
    const second = openDatabase({ file });
    const config = { strict: false, publicUrl: 'http://x.test', demo: true };
    const apps = [await checkedApp({ db: first.db, config, clock }), await checkedApp({ db: second.db, config, clock })];
    const attempt = (i: number) =>
      apps[i % 2].inject({ method: 'POST', url: '/api/user/terminal', remoteAddress: `10.0.0.${i}`, payload: { credential: demo.seller.email, password: 'wrong-password' } });
    const codes = [];
    for (let i = 0; i < 6; i++) codes.push((await attempt(i)).statusCode);
    expect(codes).toEqual([401, 401, 401, 401, 401, 429]);
    for (const app of apps) await app.close();
    await first.close();
    await second.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
