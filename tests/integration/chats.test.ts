/**
 * Live chat on the server (SPEC §4.7, §7.8): visitors open chats anonymously and cannot claim an
 * admin joined; an admin's accept signs the chat; only admins holding 'chat-logs' read or answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ABILITIES, MAX_CHAT_MESSAGE, REGISTER_ABILITIES } from '../../contract';
import { startServer, demo, type TestServer } from './harness';

let s: TestServer;
let admin: string;
beforeAll(async () => {
  s = await startServer();
  admin = await s.login(demo.admin.email, demo.admin.password);
});
afterAll(() => s.close());

const visitorChat = { user_name: 'Kofi', user_email: 'kofi@example.com', user_ip_address: '10.1.1.1', chats: [{ sent: 1, recieved: 0, message: 'Hi' }] };

describe('live chat', () => {
  it('lets a visitor open a chat but not say an admin joined', async () => {
    const res = await s.post('/chat', { ...visitorChat, admin_online: true, admin_name: 'Mallory', received_time: 'now' });
    expect(res.http).toBe(200);
    expect(res.body.detail).toMatchObject({ admin_online: 0, admin_name: null, received_time: null, user_name: 'Kofi' });
  });

  it("signs an admin's accept with their name and the time, and keeps the first admin's signature", async () => {
    const opened = await s.post('/chat', visitorChat);
    const id = opened.body.detail.id;
    const accepted = await s.post('/chat', { ...visitorChat, id, admin_online: true }, admin);
    expect(accepted.body.detail).toMatchObject({ admin_online: 1, admin_name: demo.admin.name });
    expect(accepted.body.detail.received_time).toMatch(/^\d{2}:\d{2}-\d{2}\/\d{2}\/\d{4}$/);
    const other = await s.userWith(ADMIN_ABILITIES, ['chat-logs']);
    const answer = await s.post('/chat', {
      ...visitorChat, id, admin_online: true, chats: [...visitorChat.chats, { sent: 0, recieved: 1, message: 'Hello Kofi' }],
    }, other.token);
    expect(answer.body.detail.admin_name).toBe(demo.admin.name);
    expect(answer.body.detail.chats).toHaveLength(2);
  });

  it('refuses the chat list and answers to anyone but an admin holding chat-logs', async () => {
    const opened = await s.post('/chat', visitorChat);
    const id = opened.body.detail.id;
    const seller = await s.userWith(REGISTER_ABILITIES);
    const buyer = await s.userWith([1]);
    const partial = await s.userWith(ADMIN_ABILITIES, ['shops']);
    expect((await s.post('/chats', { page: 1 })).http).toBe(401);
    for (const token of [seller.token, buyer.token, partial.token]) {
      expect((await s.post('/chats', { page: 1 }, token)).http).toBe(403);
      expect((await s.post('/chat', { ...visitorChat, id, admin_online: true }, token)).http).toBe(403);
    }
    expect((await s.post('/chat', { ...visitorChat, id, admin_online: true })).http).toBe(401);
  });

  it('holds what a visitor adds to the message limit, and the whole conversation to the field limit, however the posts are cut', async () => {
    const longest = 'L'.repeat(MAX_CHAT_MESSAGE);
    const tooLong = await s.post('/chat', { ...visitorChat, chats: [{ sent: 1, recieved: 0, message: `${longest}!` }] });
    expect(tooLong).toMatchObject({ http: 400, body: { status: false, query: `message must be at most ${MAX_CHAT_MESSAGE} characters` } });
    const res = await fetch(`${s.url}/chat`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ ...visitorChat, chats: [{ sent: 1, recieved: 0, message: longest }] }),
    });
    expect(res.status).toBe(200);
    const id = (await res.json()).detail.id as number;
    const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0];
    // Each reply names the messages before it by empty stubs (as short as a post can be) and adds three of the longest.
    let stored = 1;
    let refused: { http: number; body: { query: string } } | undefined;
    while (!refused) {
      const chats = [...Array.from({ length: stored }, () => ({ sent: 1, recieved: 0, message: '' })), ...Array.from({ length: 3 }, () => ({ sent: 1, recieved: 0, message: longest }))];
      const reply = await s.post('/chat', { id, chats }, null, { Cookie: cookie });
      if (reply.http === 200) stored += 3;
      else refused = reply;
      expect(stored).toBeLessThan(40);
    }
    expect(refused).toMatchObject({ http: 400, body: { query: 'chats must be at most 20000 characters' } });
    const kept = await s.db.selectFrom('chats').select('chats').where('id', '=', id).executeTakeFirstOrThrow();
    expect(String(kept.chats).length).toBeLessThanOrEqual(20000);
    expect(JSON.parse(String(kept.chats))).toHaveLength(stored);
    expect(stored).toBeGreaterThan(12);
  });
});
