/**
 * The chat's visitor key and event streams (SPEC §7.8; extensions of the reference server): a
 * visitor reads, answers and follows only their own chat, by the cookie the server set; admins
 * holding 'chat-logs' follow every chat through a single-use ticket; everyone else is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ABILITIES, REGISTER_ABILITIES } from '../../contract';
import { DEFAULT_LIMITS } from '../../server/throttle';
import { startServer, demo, type TestServer } from './harness';

let s: TestServer;
let admin: string;
beforeAll(async () => {
  s = await startServer({ limits: { ...DEFAULT_LIMITS, anonymousWrite: { max: 1000, windowMs: 60_000 }, anonymousReply: { max: 1000, windowMs: 60_000 } } });
  admin = await s.login(demo.admin.email, demo.admin.password);
});
afterAll(() => s.close());

const opening = { user_name: 'Ama', user_email: 'ama@example.com', user_ip_address: '203.0.113.9', chats: [{ sent: 1, recieved: 0, message: 'Hello' }] };

/** Opens a chat as a visitor: the chat and the visitor's cookie. */
async function openChat() {
  const res = await fetch(`${s.url}/chat`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(opening) });
  const body = await res.json();
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0];
  return { chat: body.detail, cookie, setCookie: res.headers.get('set-cookie') ?? '' };
}

/** Reads an event stream until `until` says stop; returns the events seen. */
async function readEvents(path: string, headers: Record<string, string>, until: (events: { event: string; data: any }[]) => boolean, during?: () => Promise<void>) {
  const controller = new AbortController();
  const res = await fetch(`${s.url}${path}`, { headers, signal: controller.signal });
  if (res.status !== 200) return { status: res.status, body: await res.json(), events: [] };
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  const events: { event: string; data: any }[] = [];
  let buffer = '';
  let started = false;
  while (!until(events)) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (event) events.push({ event, data: data ? JSON.parse(data) : null });
    }
    if (!started && events.length && during) {
      started = true;
      await during();
    }
  }
  controller.abort();
  return { status: res.status, headers: res.headers, events };
}

describe('the visitor key', () => {
  it('is an HttpOnly SameSite cookie; the chat records the address the server saw, not the one sent', async () => {
    const { chat, setCookie } = await openChat();
    expect(setCookie).toMatch(/^chat_visitor=[\w-]{40,}; Path=\/api; Max-Age=\d+; HttpOnly; SameSite=Strict$/);
    expect(chat.user_ip_address).toBe('127.0.0.1');
    expect(JSON.stringify(chat)).not.toMatch(/visitor_key|admin_seen/);
  });

  it('is set for the whole API when the chat is opened through the REST face, so /chat/me finds it', async () => {
    const res = await fetch(`${s.url}/rest/chats?from=rest`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(opening) });
    expect(res.status).toBe(201);
    const setCookie = res.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^chat_visitor=[\w-]{40,}; Path=\/api; /);
    const mine = await s.post('/chat/me', {}, null, { Cookie: setCookie.split(';')[0] });
    expect(mine.body.detail).toMatchObject({ id: (await res.json()).id, user_name: 'Ama' });
  });

  it('finds the chat again by /chat/me with the cookie, and not by the address alone', async () => {
    const { chat, cookie } = await openChat();
    const mine = await s.post('/chat/me', { user_ip_address: '127.0.0.1' }, null, { Cookie: cookie });
    expect(mine.http).toBe(200);
    expect(mine.body.detail).toMatchObject({ id: chat.id, user_name: 'Ama' });
    const stranger = await s.post('/chat/me', { user_ip_address: '127.0.0.1' });
    expect(stranger.http).toBe(404);
    // A cookie that is not valid percent-encoding finds nothing either (never a server error).
    expect((await s.post('/chat/me', {}, null, { Cookie: 'chat_visitor=%' })).http).toBe(404);
    expect((await s.get('/api/chat/events', { Cookie: 'chat_visitor=%E0%A4%A' })).http).toBe(401);
    expect(stranger.body.query).toBe('No chat was found for this visitor');
  });

  it("lets the visitor add messages to their own chat only, and never an admin's words or a rewrite", async () => {
    const { chat, cookie } = await openChat();
    const other = await openChat();
    const forged = [{ sent: 0, recieved: 1, message: 'I am the admin' }, { sent: 1, recieved: 0, message: 'Hello' }, { sent: 1, recieved: 0, message: 'Anyone there?' }];
    const answer = await s.post('/chat', { ...opening, id: chat.id, admin_online: true, chats: forged }, null, { Cookie: cookie });
    expect(answer.http).toBe(200);
    expect(answer.body.detail.chats).toEqual([{ sent: 1, recieved: 0, message: 'Hello' }, { sent: 1, recieved: 0, message: 'Anyone there?' }]);
    expect(answer.body.detail.admin_online).toBe(0);
    expect((await s.post('/chat', { ...opening, id: other.chat.id, chats: forged }, null, { Cookie: cookie })).http).toBe(401);
    expect((await s.post('/chat', { ...opening, id: chat.id, chats: forged })).http).toBe(401);
  });

  it("keeps a visitor's message that arrived while the admin was typing", async () => {
    const { chat, cookie } = await openChat();
    await s.post('/chat', { ...opening, id: chat.id, chats: [...opening.chats, { sent: 1, recieved: 0, message: 'Still there?' }] }, null, { Cookie: cookie });
    // The admin answers from the conversation as it was before the visitor's second message.
    const reply = await s.post('/chat', { ...opening, id: chat.id, admin_online: true, chats: [...opening.chats, { sent: 0, recieved: 1, message: 'Yes' }] }, admin);
    expect(reply.body.detail.chats.map((m: { message: string }) => m.message)).toEqual(['Hello', 'Still there?', 'Yes']);
  });
});

describe('event streams', () => {
  it('refuses a ticket without a session, to a seller, a buyer and an admin without chat-logs', async () => {
    expect((await s.post('/chat/events/ticket', {})).http).toBe(401);
    const seller = await s.userWith(REGISTER_ABILITIES);
    const buyer = await s.userWith([1]);
    const partial = await s.userWith(ADMIN_ABILITIES, ['shops']);
    for (const who of [seller, buyer, partial]) {
      const res = await s.post('/chat/events/ticket', {}, who.token);
      expect(res.http).toBe(403);
      expect(res.body.status).toBe(false);
      expect((await s.post('/chat/unread', {}, who.token)).http).toBe(403);
      expect((await s.post('/chat/seen', { id: 1 }, who.token)).http).toBe(403);
    }
  });

  it('refuses a stream with no ticket and no chat, an unknown ticket, a session token and a spent ticket', async () => {
    expect((await s.get('/api/chat/events')).http).toBe(401);
    expect((await s.get('/api/chat/events?ticket=nonsense')).http).toBe(401);
    expect((await s.get(`/api/chat/events?ticket=${admin}`)).http).toBe(401);
    const ticket = (await s.post('/chat/events/ticket', {}, admin)).body.detail.ticket as string;
    // A ticket is no bearer token, nor is the text its stored hash is made from.
    expect((await s.post('/chats', { page: 1 }, ticket)).http).toBe(401);
    expect((await s.post('/chats', { page: 1 }, `chat-events:${ticket}`)).http).toBe(401);
    expect((await s.post('/user/sessions', {}, `chat-events:${ticket}`)).http).toBe(401);
    // Nor is it one of the admin's sessions.
    const listed = (await s.post<unknown, { id: number }[]>('/user/sessions', {}, admin)).body.HLL!.map((x) => x.id);
    const tickets = (await s.db.selectFrom('sessions').select('id').where('parent_id', 'is not', null).execute()).map((r) => Number(r.id));
    expect(tickets.length).toBeGreaterThan(0);
    expect(listed.length).toBeGreaterThan(0);
    for (const id of tickets) expect(listed).not.toContain(id);
    const first = await readEvents(`/chat/events?ticket=${ticket}`, {}, (e) => e.length >= 1);
    expect(first.status).toBe(200);
    expect((await s.get(`/api/chat/events?ticket=${ticket}`)).http).toBe(401);
  });

  it('refuses a ticket whose holder lost chat-logs since', async () => {
    const who = await s.userWith(ADMIN_ABILITIES, ['chat-logs']);
    const ticket = (await s.post('/chat/events/ticket', {}, who.token)).body.detail.ticket as string;
    await s.db.updateTable('users').set({ granted_accesses: JSON.stringify(['shops']) }).where('id', '=', who.id).execute();
    expect((await s.get(`/api/chat/events?ticket=${ticket}`)).http).toBe(403);
  });

  it('tells an admin of a new chat and of a visitor message, with the unread count', async () => {
    const ticket = (await s.post('/chat/events/ticket', {}, admin)).body.detail.ticket as string;
    let openedId = 0;
    const seen = await readEvents(`/chat/events?ticket=${ticket}`, {}, (e) => e.some((x) => x.event === 'chat' && x.data.ids.includes(openedId)), async () => {
      openedId = (await openChat()).chat.id;
    });
    expect(seen.events[0].event).toBe('ready');
    expect(seen.headers!.get('content-type')).toMatch(/^text\/event-stream/);
    const told = seen.events.find((x) => x.event === 'chat')!;
    expect(told.data.unread).toBe((await s.post('/chat/unread', {}, admin)).body.detail.unread);
  });

  it("tells a visitor of their own chat's answer, not of other chats", async () => {
    const mine = await openChat();
    const other = await openChat();
    const seen = await readEvents('/chat/events', { Cookie: mine.cookie }, (e) => e.some((x) => x.event === 'chat'), async () => {
      await s.post('/chat', { ...opening, id: other.chat.id, admin_online: true, chats: [...opening.chats, { sent: 0, recieved: 1, message: 'Other' }] }, admin);
      await s.post('/chat', { ...opening, id: mine.chat.id, admin_online: true, chats: [...opening.chats, { sent: 0, recieved: 1, message: 'Hi Ama' }] }, admin);
    });
    expect(seen.events.filter((x) => x.event === 'chat').map((x) => x.data.ids)).toEqual([[mine.chat.id]]);
  });

  it('counts a chat unread until an admin has seen its visitor messages', async () => {
    const { chat, cookie } = await openChat();
    await s.post('/chat', { ...opening, id: chat.id, admin_online: true }, admin);
    const base = (await s.post('/chat/unread', {}, admin)).body.detail.unread as number;
    await s.post('/chat', { ...opening, id: chat.id, chats: [...opening.chats, { sent: 1, recieved: 0, message: 'More' }] }, null, { Cookie: cookie });
    expect((await s.post('/chat/unread', {}, admin)).body.detail.unread).toBe(base + 1);
    await s.post('/chat/seen', { id: chat.id }, admin);
    expect((await s.post('/chat/unread', {}, admin)).body.detail.unread).toBe(base);
  });

  it.each([
    ['signed out', (who: { token: string }) => s.post('/user/logout', {}, who.token)],
    ['blacklisted', (who: { id: number }) => s.post('/user/status', { id: who.id, is_active: 0 }, admin)],
    ['demoted', (who: { id: number }) => s.post('/user/edit', { id: who.id, abilities: '[1]' }, admin)],
    ['stripped of chat-logs', (who: { id: number }) => s.post('/user/assign-role', { id: who.id, granted_accesses: ['shops'] }, admin)],
  ])("ends an admin's stream once they are %s: no chat id or count after it", async (_how, revoke) => {
    const who = await s.userWith(ADMIN_ABILITIES, ['chat-logs', 'shops']);
    const ticket = (await s.post('/chat/events/ticket', {}, who.token)).body.detail.ticket as string;
    const seen = await readEvents(`/chat/events?ticket=${ticket}`, {}, (e) => e.some((x) => x.event === 'end' || x.event === 'chat'), async () => {
      expect((await revoke(who)).body.status).toBe(true);
      await openChat();
    });
    expect(seen.events.map((x) => x.event)).toEqual(['ready', 'end']);
  });

  it("keeps an admin's stream while another of their sessions ends", async () => {
    const who = await s.userWith(ADMIN_ABILITIES, ['chat-logs']);
    const other = await s.login(who.email, 'password123');
    const ticket = (await s.post('/chat/events/ticket', {}, who.token)).body.detail.ticket as string;
    let openedId = 0;
    const seen = await readEvents(`/chat/events?ticket=${ticket}`, {}, (e) => e.some((x) => x.event === 'end' || (x.event === 'chat' && x.data.ids.includes(openedId))), async () => {
      await s.post('/user/logout', {}, other);
      openedId = (await openChat()).chat.id;
    });
    expect(seen.events.map((x) => x.event)).toContain('chat');
    expect(seen.events.map((x) => x.event)).not.toContain('end');
  });
});

describe('strict contract mode', () => {
  it('answers 404 to the event, ticket, unread and seen extensions but serves /chat/me', async () => {
    const strict = await startServer({ strict: true });
    try {
      const token = await strict.login(demo.admin.email, demo.admin.password);
      for (const p of ['/chat/events/ticket', '/chat/unread', '/chat/seen']) expect((await strict.post(p, {}, token)).http).toBe(404);
      expect((await strict.get('/api/chat/events?ticket=x')).http).toBe(404);
      expect((await strict.post('/chat/me', { user_ip_address: '' })).http).toBe(404);
      const res = await fetch(`${strict.url}/chat`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(opening) });
      const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0];
      const mine = await strict.post('/chat/me', { user_ip_address: '' }, null, { Cookie: cookie });
      expect(mine.body.detail.user_name).toBe('Ama');
    } finally {
      await strict.close();
    }
  });
});

describe('visitor messages', () => {
  it("are limited per address (429 with Retry-After), apart from chat openings", async () => {
    const limited = await startServer({ limits: { ...DEFAULT_LIMITS, anonymousReply: { max: 3, windowMs: 60_000 } } });
    try {
      const res = await fetch(`${limited.url}/chat`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(opening) });
      const id = (await res.json()).detail.id;
      const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0];
      const said = [...opening.chats];
      const codes: number[] = [];
      for (let i = 0; i < 4; i++) {
        said.push({ sent: 1, recieved: 0, message: `m${i}` });
        codes.push((await limited.post('/chat', { ...opening, id, chats: said }, null, { Cookie: cookie })).http);
      }
      expect(codes).toEqual([200, 200, 200, 429]);
      // Opening a chat is counted apart.
      expect((await limited.post('/chat', opening)).http).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
