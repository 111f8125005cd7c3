/**
 * The audit log (what Django's LogEntry and Shopify's activity give their admins): every write,
 * status, role, blacklist and sign-in event, read only, for administrators granted `audit`. Search
 * by user, entity, action or date ('2026-11'); CSV export as every list.
 */
import { i, j, s } from '../../contract';
import { defineResource } from '../types';

export default defineResource({
  name: 'auditLogs',
  title: 'Audit entry',
  recordRepresentation: 'user_name',
  menu: { token: 'audit', path: '/audit-log', order: 230, icon: 'History' },
  api: {
    save: '/audit-log', list: '/audit-logs', status: '/audit-log/status',
    listShape: 'paginated', search: { targets: ['id', 'user_name', 'entity', 'action', 'created_at'] },
    remove: 'none', activeAs: 'int', statusFields: [],
    rules: { read: 'admin', create: 'none', update: 'none' },
    extension: true,
    fields: {
      user_id: i({ serverSet: true }), user_name: s({ serverSet: true }), action: s({ serverSet: true, max: 16 }),
      entity: s({ serverSet: true, max: 64 }), record_id: i({ serverSet: true }),
      before: j({ serverSet: true }), after: j({ serverSet: true }),
    },
  },
  screen: {
    kind: 'list',
    columns: [
      { kind: 'text', source: 'id' },
      { kind: 'text', source: 'created_at' },
      { kind: 'text', source: 'user_name' },
      { kind: 'text', source: 'action' },
      { kind: 'text', source: 'entity' },
      { kind: 'text', source: 'record_id' },
      { kind: 'custom', source: 'after', component: () => import('./ChangesCell') },
    ],
  },
});
