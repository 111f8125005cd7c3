/** Account deletion requests (SPEC §2.26, §3.18, §4.6). */
import { ACTIVE, i, REQ, s, t } from '../contract';
import { defineResource } from './types';

export default defineResource({
  name: 'deletions',
  title: 'Deletion request',
  menu: { token: 'deletion-requests', path: '/deletion-requests', order: 210, icon: 'PersonRemove' },
  api: {
    save: '/deletion', list: '/deletions', status: '/deletion/retrieve',
    listShape: 'paginated', search: { keyIndex: 22, targets: ['id', 'customer', 'feedback'] },
    remove: 'none', activeAs: 'int', statusFields: ['deletion_status', 'is_active'],
    rules: { read: 'admin', create: 'user', update: 'admin' },
    fields: {
      deletion_status: s({ required: true, oneOf: ['No action', 'Deleted', 'Deletion rejected by admin'], default: 'No action' }),
      customer: s(REQ), feedback: t(REQ), customer_id: i(REQ), ...ACTIVE,
    },
  },
});
