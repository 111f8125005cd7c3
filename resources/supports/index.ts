/** Support messages (SPEC §2.27, §3.12): read-only; Name is the user's name. */
import { ACTIVE, i, REQ, s, t } from '../../contract';
import { defineResource } from '../types';

export default defineResource({
  name: 'supports',
  title: 'Support message',
  recordRepresentation: 'title',
  menu: { token: 'support', path: '/support', order: 100, icon: 'SupportAgent' },
  api: {
    save: '/support', list: '/supports', status: '/support/status',
    listShape: 'paginated', search: { keyIndex: 17, targets: ['id', 'title', 'country', 'message'] },
    remove: 'tyype', activeAs: 'int', statusFields: ['is_active'],
    rules: { read: 'admin', create: 'user', update: 'admin' },
    fields: { user_id: i({ serverSet: true, creator: true }), title: s(REQ), message: t(REQ),
      /** The asker's country, from their account's address (server/hooks/supports.ts), else the one sent. */
      country: s(), ...ACTIVE },
    relations: [{ as: 'user', entity: 'users', key: 'user_id', kind: 'one', pick: ['id', 'name'] }],
  },
  rows: { demo: () => import('./demo') },
  screen: {
    kind: 'list',
    columns: [
      { kind: 'text', source: 'id' },
      { kind: 'text', source: 'country' },
      { kind: 'text', source: 'user.name' },
      { kind: 'text', source: 'title' },
      { kind: 'text', source: 'message' },
    ],
  },
});
