/** Shipping classes (SPEC §2.23, §3.15). */
import { ACTIVE, n, REQ, s, t } from '../contract';
import { defineResource } from './types';

export default defineResource({
  name: 'shippings',
  title: 'Shipping class',
  menu: { token: 'shipping-classes', path: '/shipping-classes', order: 180, icon: 'LocalShipping' },
  api: {
    save: '/shipping', list: '/shippings', status: '/shipping/status',
    listShape: 'paginated', search: { keyIndex: 8, targets: ['id', 'means', 'duration', 'note'] },
    remove: 'tyype', activeAs: 'int', statusFields: ['is_active'],
    rules: { read: 'user', create: 'admin', update: 'admin' },
    fields: {
      duration: s(REQ), currency: s({ required: true, oneOf: ['USD'] }), amount: n(REQ), means: s(REQ), note: t(),
      ...ACTIVE,
    },
  },
});
