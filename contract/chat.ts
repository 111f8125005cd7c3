/**
 * Live chat rules shared by the console and the reference server (SPEC §3.20, §4.7): reading the
 * messages of a chat, appending to them without losing the other side's, and what counts as unread.
 */
import { isOn } from './entity';
import type { ChatMessage } from './types';

export type ChatSide = 'visitor' | 'admin';

/** Extensions of the reference server (404 in strict mode; the console then polls only). */
export const CHAT_PATHS = {
  /** POST: a short-lived, single-use ticket that opens the admins' event stream. */
  ticket: '/chat/events/ticket',
  /** GET (EventSource): `?ticket=` for admins; the visitor's chat cookie for a visitor. */
  events: '/chat/events',
  /** POST {id}: the admins have seen this chat's visitor messages. */
  seen: '/chat/seen',
  /** POST {}: how many chats wait for an admin (incoming, or with visitor messages not yet seen). */
  unread: '/chat/unread',
} as const;

/** The cookie holding a visitor's chat key, set on the answer that opens their chat (HttpOnly, for the API's path). */
export const VISITOR_COOKIE = 'chat_visitor';

/** The longest message either side may send, in characters. */
export const MAX_CHAT_MESSAGE = 1000;

/** The chat's messages, whatever shape they were stored in (a JSON string or an array). */
export function messagesOf(chats: unknown): ChatMessage[] {
  let raw = chats;
  if (typeof raw === 'string') {
    try {
      raw = JSON.parse(raw);
    } catch {
      raw = [];
    }
  }
  if (!Array.isArray(raw)) return [];
  return raw
    .filter((m): m is Record<string, unknown> => typeof m === 'object' && m !== null && typeof m.message === 'string')
    .map((m) => ({ sent: isOn(m.sent) ? 1 : 0, recieved: isOn(m.recieved) ? 1 : 0, message: m.message as string }));
}

/** Whether a message is the visitor's (shown on one side; the admin's on the other). */
export const fromVisitor = (m: ChatMessage) => m.sent === 1 && m.recieved !== 1;

export const sideOf = (m: ChatMessage): ChatSide => (fromVisitor(m) ? 'visitor' : 'admin');

/**
 * A save appends; it never rewrites. Both sides send the whole conversation as they last saw it plus
 * their new messages (SPEC §7.8): the stored conversation is kept as it is, and the sender's messages
 * beyond those of theirs already stored are added, marked as the sender's. A message the other side
 * wrote in between is therefore never lost, and neither side can forge or erase the other's words.
 */
export function appendMessages(stored: readonly ChatMessage[], posted: readonly ChatMessage[], side: ChatSide): ChatMessage[] {
  const mine = (list: readonly ChatMessage[]) => list.filter((m) => sideOf(m) === side);
  const added = mine(posted)
    .slice(mine(stored).length)
    .map((m) => m.message.trim())
    .filter((text) => text.length > 0)
    .map((message): ChatMessage => (side === 'visitor' ? { sent: 1, recieved: 0, message } : { sent: 0, recieved: 1, message }));
  return [...stored, ...added];
}

export const visitorCount = (messages: readonly ChatMessage[]) => messages.filter(fromVisitor).length;

/** A chat waits for the admins while no admin has joined, or while it has visitor messages they have not seen. */
export function isUnread(chat: { admin_online?: unknown }, visitorMessages: number, seen: number): boolean {
  return !isOn(chat.admin_online) || visitorMessages > seen;
}
