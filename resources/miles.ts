/** Per-mile prices (SPEC §2.24, §3.16). */
import { ACTIVE, n, REQ, s } from '../contract';
import { defineResource } from './types';

export default defineResource({
  name: 'miles',
  title: 'Mile price',
  menu: { token: 'mile-prices', path: '/mile-prices', order: 190, icon: 'Straighten' },
  api: {
    save: '/mile', list: '/miles', status: '/mile/status',
    listShape: 'paginated', search: { keyIndex: 9, targets: ['id', 'currency', 'country'] },
    remove: 'tyype', activeAs: 'int', statusFields: ['is_active'],
    rules: { read: 'user', create: 'admin', update: 'admin' },
    fields: {
      currency: s({ required: true, oneOf: ['USD'] }), country: s(REQ), value_per_mile: n(REQ), ...ACTIVE,
    },
  },
});
