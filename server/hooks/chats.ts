/**
 * Live chat (SPEC §4.7): a visitor opens a chat; whether an admin has joined, who and when, is set by
 * an administrator's answer only. The first admin to join signs the chat: their name and the time
 * are filled in when the console leaves them out. Saves append to the conversation (never rewrite
 * it); the visitor's address is the one the server sees, and the visitor's browser gets a key to its
 * own chat in a cookie (see server/chat.ts).
 */
import { format } from 'date-fns';
import { appendMessages, isOn, limitsOf, MAX_CHAT_MESSAGE, messagesOf, visitorCount } from '../../contract';
import { badRequest } from '../errors';
import { issueVisitorKey, visitorChatId } from '../chat';
import type { EntityHooks } from './types';

/** What only the admins' side sets: whether an admin joined, who and when, and whether the chat is active. */
const ADMIN_SIDE = ['admin_online', 'admin_name', 'received_time', 'is_active'] as const;
const VISITOR_SIDE = ['user_name', 'user_email', 'user_ip_address'] as const;

export const hooks: EntityHooks = {
  async visitorScope(db, request, id) {
    return (await visitorChatId(db, request)) === id ? { kind: 'all' } : undefined;
  },

  beforeWrite({ caller, scope, entity, request, reply }, values, before) {
    const admin = caller?.role === 'admin' && scope.kind === 'all' && caller.can('chat-logs');
    const stored = before ? messagesOf(before.chats) : [];
    const posted = values.chats === undefined ? stored : messagesOf(values.chats);
    const messages = appendMessages(stored, posted, admin ? 'admin' : 'visitor');
    // What either side adds is held to the message limit, and the stored conversation to the field's:
    // a post is checked as sent, but it only names how many earlier messages there are, not their text.
    if (messages.slice(stored.length).some((m) => m.message.length > MAX_CHAT_MESSAGE)) {
      throw badRequest(`message must be at most ${MAX_CHAT_MESSAGE} characters`);
    }
    const conversation = JSON.stringify(messages);
    const longest = limitsOf(entity.fields.chats).maxLength ?? Infinity;
    if (conversation.length > longest) throw badRequest(`chats must be at most ${longest} characters`);
    values.chats = conversation;
    values.visitor_messages = visitorCount(messages);
    if (!admin) {
      for (const key of ADMIN_SIDE) {
        values[key] = before ? before[key] : (entity.fields[key]?.default ?? null);
      }
      if (before) {
        // Who the visitor is stays as the chat was opened.
        for (const key of VISITOR_SIDE) values[key] = before[key];
      } else {
        // The address the server sees (the proxy's forwarded one only when TRUST_PROXY is set).
        values.user_ip_address = request?.ip ?? null;
        if (reply && request) values.visitor_key_hash = issueVisitorKey(request, reply);
        values.admin_seen = 0;
      }
      return values;
    }
    // An admin who accepts or answers has read the conversation.
    values.admin_seen = values.visitor_messages;
    if (isOn(values.admin_online)) {
      if (!values.admin_name && !before?.admin_name) values.admin_name = String(caller.user.name ?? '');
      if (!values.received_time && !before?.received_time) values.received_time = format(new Date(), 'HH:mm-dd/MM/yyyy');
    }
    return values;
  },
};
