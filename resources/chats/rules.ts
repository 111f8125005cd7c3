/**
 * The rules of the live chat screen (SPEC §2.28, §3.20, §4.7), as pure functions: what a card
 * shows, which messages an open chat shows, and what accepting or answering saves.
 */
import { format } from 'date-fns';
import { fromVisitor, isOn, messagesOf as messagesOfStored, type ChatMessage } from '../../contract';

export type { ChatMessage };

export interface Chat {
  id: number;
  admin_online?: unknown;
  admin_name?: string | null;
  received_time?: string | null;
  user_name?: string | null;
  user_email?: string | null;
  user_ip_address?: string | null;
  chats?: unknown;
  [key: string]: unknown;
}

/** SPEC §9.3: an open chat shows this many of the latest messages until 'Load previous'. */
export const LAST_MESSAGES = 6;

/** How a card reads: 'Incoming' until an admin joins, then 'Received' with who and when. */
export function cardOf(chat: Chat): { received: boolean; adminName: string; receivedParts: string[] } {
  const received = isOn(chat.admin_online);
  return {
    received,
    adminName: received ? (chat.admin_name ?? '') : '',
    // SPEC §2.28: received_time is shown split on '-' (time and date, one per line).
    receivedParts: received && chat.received_time ? chat.received_time.split('-').map((p) => p.trim()).filter(Boolean) : [],
  };
}

/** The chat's messages, whatever shape they were stored in. */
export const messagesOf = (chat: Chat): ChatMessage[] => messagesOfStored(chat.chats);

export { fromVisitor };

/** The last six messages, or all of them after 'Load previous'. */
export function shownMessages(messages: readonly ChatMessage[], all: boolean): { shown: ChatMessage[]; hidden: number } {
  if (all || messages.length <= LAST_MESSAGES) return { shown: [...messages], hidden: 0 };
  return { shown: messages.slice(-LAST_MESSAGES), hidden: messages.length - LAST_MESSAGES };
}

/** received_time as the cards split it: 'HH:mm-dd/MM/yyyy'. */
export const receivedTime = (date: Date) => format(date, 'HH:mm-dd/MM/yyyy');

/**
 * SPEC §4.7, §7.8: accepting or answering saves the chat with admin_online true. The first admin to
 * join signs the chat with their name and the time; an answer adds the admin's message.
 */
export function adminSave(chat: Chat, admin: string, when: Date, message?: string): Record<string, unknown> {
  const joined = isOn(chat.admin_online) && chat.admin_name;
  const text = message?.trim();
  return {
    id: chat.id,
    user_name: chat.user_name ?? null,
    user_email: chat.user_email ?? null,
    user_ip_address: chat.user_ip_address ?? null,
    admin_online: true,
    admin_name: joined ? chat.admin_name : admin,
    received_time: joined && chat.received_time ? chat.received_time : receivedTime(when),
    chats: [...messagesOf(chat), ...(text ? [{ sent: 0, recieved: 1, message: text }] : [])],
  };
}
