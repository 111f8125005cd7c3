/** Job posts (SPEC §2.19, §3.11). */
import { ACTIVE, REQ, s, t } from '../contract';
import { defineResource } from './types';

export default defineResource({
  name: 'jobs',
  title: 'Job post',
  menu: { token: 'job-posts', path: '/job-posts', order: 110, icon: 'Work' },
  api: {
    save: '/job', list: '/jobs', status: '/job/status',
    listShape: 'paginated', search: { keyIndex: 18, targets: ['id', 'title', 'description', 'qualification', 'details'] },
    remove: 'tyype', activeAs: 'int', statusFields: ['is_active'],
    rules: { read: 'public', create: 'admin', update: 'admin' },
    fields: {
      title: s(REQ), description: t(REQ), qualification: t(REQ), details: t(REQ), expiry: s(REQ),
      state: s(), country: s(REQ), ...ACTIVE,
    },
  },
});
