/**
 * Live chat on the server (SPEC §4.7, §7.8): visitors open chats anonymously and cannot claim an
 * admin joined; an admin's accept signs the chat; only admins holding 'chat-logs' read or answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ABILITIES, REGISTER_ABILITIES } from '../../contract';
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
});
