/**
 * New passwords (ASVS 6.1.2, 6.2.11, 6.2.12): no context-specific word (the site's words, the
 * person's email, name or phone digits) and, with BREACHED_PASSWORDS_URL, none a breach service
 * knows, on every path that sets one: registering, a signed-in change, a reset link. The breach
 * service is a small real HTTP server started here, speaking the range API.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { SITE_WORDS, contextWordMessage } from '../../server/passwords';
import { BREACHED_MESSAGE } from '../../server/breachedPasswords';

const sha1 = (text: string) => crypto.createHash('sha1').update(text).digest('hex').toUpperCase();
const BREACHED = 'Tr0ub4dor&3-horse';
const CLEAN = 'Qz7#kLm2-Wx9$vBn4';

/** A range service: knows BREACHED (and a padding line of count 0 for CLEAN); records the paths asked. */
let asked: string[] = [];
let mode: 'answer' | 'fail' | 'hang' = 'answer';
const service = http.createServer((request, response) => {
  asked.push(String(request.url));
  if (mode === 'hang') return; // never answers: the server's timeout ends the wait
  if (mode === 'fail') return void response.writeHead(503).end();
  const lines = [`${sha1(BREACHED).slice(5)}:42`, `${sha1(CLEAN).slice(5)}:0`, '0000000000000000000000000000000000A:3'];
  response.writeHead(200, { 'Content-Type': 'text/plain' }).end(lines.join('\r\n'));
});

let s: TestServer;
let plain: TestServer;
beforeAll(async () => {
  await new Promise<void>((done) => service.listen(0, '127.0.0.1', done));
  const url = `http://127.0.0.1:${(service.address() as AddressInfo).port}/range`;
  s = await startServer({ config: { breachedPasswordsUrl: url } });
  plain = await startServer();
});
afterAll(async () => {
  service.closeAllConnections();
  await new Promise((done) => service.close(done));
  await s.close();
  await plain.close();
});

let n = 0;
const person = () => {
  n++;
  return { name: `Ophelia Quartermaine ${n}`, email: `tangerine.${n}@example.com`, phone: `+44 7700 9${String(n).padStart(2, '0')}4321`, abilities: '[1,2]' };
};
const refused = (word: string) => ({ status: false, query: contextWordMessage(word) });

describe('context-specific words', () => {
  it('refuses, whatever the case, each of the site\'s words and the person\'s email, name and phone digits when registering', async () => {
    for (const word of SITE_WORDS) {
      const res = await plain.post('/user', { ...person(), password: `x-${word.toUpperCase()}-9q2` });
      expect(res.http).toBe(400);
      expect(res.body).toMatchObject(refused(word));
    }
    const who = person();
    const digits = who.phone.replace(/\D/g, '');
    for (const [password, word] of [
      ['9q2-TANGERINE-x', 'tangerine'], ['quartermaine!77', 'quartermaine'], ['zz-Ophelia-88', 'ophelia'],
      [`k${digits.slice(-6)}k!`, digits.slice(-6)],
    ]) {
      const res = await plain.post('/user', { ...who, password });
      expect(res.http).toBe(400);
      expect(res.body).toMatchObject(refused(word));
    }
    // Below the limits: five digits of the phone in a row, a word of the name under four letters.
    const short = { ...person(), name: 'Bo Quix' };
    const ok = await plain.post('/user', { ...short, password: `bo-${short.phone.replace(/\D/g, '').slice(-5)}-zq!` });
    expect(ok.body).toMatchObject({ status: true });
  });

  it('refuses them on a signed-in change and on a reset link, which stays good for a better password', async () => {
    const who = person();
    const reg = await plain.post('/user', { ...who, password: 'first-Pass-77q' });
    expect(reg.body.status).toBe(true);
    const token = reg.body.detail.token as string;
    const change = await plain.post('/user/update', { current_password: 'first-Pass-77q', password: 'my-tangerine-77' }, token);
    expect(change.http).toBe(400);
    expect(change.body).toMatchObject(refused('tangerine'));
    expect((await plain.post('/user/update', { current_password: 'first-Pass-77q', password: 'second-Pass-77q' }, token)).body.status).toBe(true);

    await plain.post('/user/reset', { email: who.email });
    const [mail] = (await plain.mails(who.email)).filter((m) => /token=/.test(m.body));
    const link = /token=([\w-]+)/.exec(mail.body)![1];
    const reset = await plain.post('/user/update', { reset_token: link, password: 'MARKETPLACE-77q' });
    expect(reset.http).toBe(400);
    expect(reset.body).toMatchObject(refused('marketplace'));
    expect((await plain.post('/user/update', { reset_token: link, password: 'third-Pass-77q' })).body.status).toBe(true);
    expect(await plain.login(who.email, 'third-Pass-77q')).toEqual(expect.any(String));
  });
});

describe('breached passwords (BREACHED_PASSWORDS_URL)', () => {
  it('refuses one the service knows, sending only the first 5 characters of its SHA-1', async () => {
    asked = [];
    mode = 'answer';
    const res = await s.post('/user', { ...person(), password: BREACHED });
    expect(res.http).toBe(400);
    expect(res.body).toMatchObject({ status: false, query: BREACHED_MESSAGE });
    expect(asked).toEqual([`/range/${sha1(BREACHED).slice(0, 5)}`]);
    // A padding line (count 0) is no breach.
    expect((await s.post('/user', { ...person(), password: CLEAN })).body.status).toBe(true);
  });

  it('checks a signed-in change and a reset too', async () => {
    mode = 'answer';
    const who = person();
    const token = (await s.post('/user', { ...who, password: CLEAN })).body.detail.token as string;
    const change = await s.post('/user/update', { current_password: CLEAN, password: BREACHED }, token);
    expect(change.body).toMatchObject({ status: false, query: BREACHED_MESSAGE });
    await s.post('/user/reset', { email: who.email });
    const [mail] = (await s.mails(who.email)).filter((m) => /token=/.test(m.body));
    const reset = await s.post('/user/update', { reset_token: /token=([\w-]+)/.exec(mail.body)![1], password: BREACHED });
    expect(reset.body).toMatchObject({ status: false, query: BREACHED_MESSAGE });
  });

  it('takes the password when the service answers an error or not in time (the other rules still hold)', async () => {
    for (const m of ['fail', 'hang'] as const) {
      mode = m;
      expect((await s.post('/user', { ...person(), password: BREACHED })).body.status).toBe(true);
    }
    mode = 'answer';
  });

  it('is not asked without BREACHED_PASSWORDS_URL', async () => {
    asked = [];
    const user = await plain.userWith([1, 2]);
    expect((await plain.post('/user/update', { current_password: 'password123', password: BREACHED }, user.token)).body.status).toBe(true);
    expect(asked).toEqual([]);
  });
});
