/** Order statuses (SPEC §2.21, §3.13): a read-only list of the codes of SPEC §4.5. */
import { ACTIVE, ORDER_STATUSES, REQ, s } from '../contract';
import { defineResource } from './types';

export default defineResource({
  name: 'orderStatuses',
  title: 'Order status',
  recordRepresentation: 'name',
  menu: { token: 'order-status', path: '/order-status', order: 160, icon: 'FactCheck' },
  api: {
    save: '/orderStatus', list: '/orderStatuss', status: '/orderStatus/status',
    listShape: 'paginated', search: { keyIndex: 6, targets: ['id', 'name'] },
    remove: 'tyype', activeAs: 'int', statusFields: ['is_active'],
    rules: { read: 'user', create: 'admin', update: 'admin' },
    fields: { name: s(REQ), ...ACTIVE },
  },
  // The codes of SPEC §4.5, with their ids: every installation needs them.
  rows: { reference: ORDER_STATUSES.map((status) => ({ ...status, is_active: 1 })) },
  screen: {
    kind: 'list',
    columns: [
      { kind: 'text', source: 'id' },
      { kind: 'text', source: 'name' },
    ],
  },
});
