/** Live chat with site visitors (SPEC §2.28, §3.20, §4.7, §7.8): a page of chat cards, not a list. */
import { ACTIVE, b, j, s, VISITOR_COOKIE } from '../../contract';
import { defineResource } from '../types';

export default defineResource({
  name: 'chats',
  title: 'Chat',
  recordRepresentation: 'user_name',
  menu: { token: 'chat-logs', path: '/chat-logs', order: 220, icon: 'Forum' },
  api: {
    save: '/chat', list: '/chats', status: '/chat/status',
    listShape: 'paginated', remove: 'tyype', activeAs: 'int',
    statusFields: ['admin_online', 'admin_name', 'received_time', 'chats'],
    rules: { read: 'admin', create: 'public', update: 'admin' },
    createCookie: VISITOR_COOKIE,
    fields: {
      admin_online: b({ default: 0 }), admin_name: s(), received_time: s(), user_name: s(), user_email: s(),
      user_ip_address: s({ max: 64 }), chats: j(), ...ACTIVE,
    },
  },
  // Server-only: the visitor's chat key (hashed; the key itself lives in the visitor's cookie), how many
  // messages the visitor wrote, and how many of them the admins have seen (the unread count). The chat
  // feed reads what changed since its last look; a visitor's chat is found by its key.
  table: {
    columns: { visitor_key_hash: 'varchar(64)', visitor_messages: 'integer', admin_seen: 'integer' },
    indexes: [['updated_at'], ['visitor_key_hash']],
  },
  rows: { demo: () => import('./demo') },
  screen: { kind: 'page', component: () => import('./ChatPage') },
  // The visitor's side (SPEC §7.8 /chat/me): a public page, no sign-in.
  publicRoutes: [{ path: '/chat', component: () => import('./VisitorChat') }],
  menuBadge: () => import('./ChatBadge'),
});
