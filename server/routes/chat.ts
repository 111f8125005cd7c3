/**
 * Live chat beside the generic entity routes (SPEC §7.8, DESIGN §1):
 * - POST /chat/me {user_ip_address}: the visitor's own chat (contract). Found by the key in the
 *   visitor's cookie, never by the address the client sends (an address is shared behind a NAT
 *   and is easily claimed).
 * - Extensions (404 in strict mode): an event stream of chat changes for admins holding
 *   'chat-logs' (by a single-use ticket) and for a visitor (their chat only), the admins' unread
 *   count, and marking a chat's visitor messages seen.
 */
import type { FastifyInstance } from 'fastify';
import { CHAT_PATHS, PATHS, isOn, messagesOf, visitorCount } from '../../contract';
import { bodyOf, type AppContext } from '../context';
import { ChatFeed, STREAM_LIMITS, issueTicket, redeemTicket, sendEvent, unreadChats, visitorChatId, type Listener } from '../chat';
import { ApiError, forbidden, notFound, unauthorized } from '../errors';
import { sessionTokenOf } from '../auth';
import { authorize } from '../guard';
import { readId } from '../records';
import { presentMany } from '../store';
import { ok } from './common';
import { trackStream } from '../ops/streams';

export async function chatRoutes(app: FastifyInstance, { db, config, registry }: AppContext) {
  const chats = registry.entities.find((e) => e.name === 'chats');
  if (!chats) return;

  app.post(PATHS.chatMe, async (request) => {
    const id = await visitorChatId(db, request);
    const row = id === undefined ? undefined : await db.selectFrom('chats').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('No chat was found for this visitor');
    const [detail] = await presentMany(db, chats, [row]);
    return ok({ query: 'Chat found', detail });
  });

  if (config.strict) return;
  const adminOnly = (caller: Parameters<typeof authorize>[2]) => authorize(chats.rules.read, chats, caller);

  app.post(CHAT_PATHS.unread, async (request) => {
    adminOnly(request.caller);
    return ok({ query: 'Unread chats', detail: { unread: await unreadChats(db) } });
  });

  app.post(CHAT_PATHS.seen, async (request) => {
    adminOnly(request.caller);
    const id = readId(bodyOf(request).id);
    const row = await db.selectFrom('chats').select(['id', 'chats', 'admin_online']).where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound(`No chats record has id ${id}`);
    const seen = visitorCount(messagesOf(row.chats));
    // Only the count moves: the chat itself (and its updated_at, which the feed follows) is unchanged.
    await db.updateTable('chats').set({ visitor_messages: seen, admin_seen: seen }).where('id', '=', id).execute();
    return ok({ query: 'Chat seen', detail: { id, unread: await unreadChats(db), incoming: !isOn(row.admin_online) } });
  });

  app.post(CHAT_PATHS.ticket, async (request) => {
    const caller = request.caller;
    adminOnly(caller);
    const ticket = await issueTicket(db, caller!.id, sessionTokenOf(request.headers.authorization));
    return ok({ query: 'Event ticket', detail: { ticket, expires_in: 60 } });
  });

  const feed = new ChatFeed(db, chats.access, (error) => app.log.error({ err: error }, 'chat feed failed'));
  app.addHook('preClose', async () => feed.close());

  app.get(CHAT_PATHS.events, async (request, reply) => {
    const { ticket } = (request.query ?? {}) as Record<string, unknown>;
    let who: Omit<Listener, 'res'>;
    if (typeof ticket === 'string' && ticket) {
      const redeemed = await redeemTicket(db, ticket);
      if (!redeemed) throw unauthorized('This event ticket is unknown, spent or expired; ask for a new one');
      const { caller, sessionId } = redeemed;
      if (!caller.can(chats.access)) {
        throw forbidden(caller.role === 'admin' ? 'Your account has not been granted access to this section' : 'This section is only available to administrators');
      }
      who = { userId: caller.id, sessionId, address: request.ip };
    } else {
      const chatId = await visitorChatId(db, request);
      if (chatId === undefined) throw unauthorized('Open a chat first, or ask for an event ticket');
      who = { chatId, address: request.ip };
    }
    if (who.userId !== undefined && feed.count((l) => l.userId === who.userId) >= STREAM_LIMITS.perUser) {
      throw new ApiError(429, `At most ${STREAM_LIMITS.perUser} chat streams may be open per account`, { 'Retry-After': '30' });
    }
    if (feed.count((l) => l.address === who.address) >= STREAM_LIMITS.perAddress) {
      throw new ApiError(429, `At most ${STREAM_LIMITS.perAddress} chat streams may be open per address`, { 'Retry-After': '30' });
    }
    const first = who.chatId === undefined ? { unread: await unreadChats(db) } : { ids: [who.chatId] };
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
      'X-Content-Type-Options': 'nosniff',
      'X-Request-Id': String(request.id),
    });
    res.write('retry: 3000\n\n');
    sendEvent(res, 'ready', first);
    trackStream(res);
    const remove = feed.add({ ...who, res });
    res.on('close', remove);
  });
}
