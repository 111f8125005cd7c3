/**
 * Subscriptions (SPEC §2.17, §3.9, §7.6): Control only. A status call sends the whole record with
 * the choice merged in, and 'Active' means active (DESIGN D3). Shop id is blank when 0.
 */
import { ACTIVE, ADMIN_ONLY, i, n, REQ, s } from '../../contract';
import { defineResource } from '../types';

export default defineResource({
  name: 'subscriptions',
  title: 'Subscription',
  menu: { token: 'subscriptions', path: '/subscriptions', order: 80, icon: 'CardMembership' },
  api: {
    save: '/subcription', list: '/subcriptions', status: '/subcription/status',
    listShape: 'paginated', search: { keyIndex: 12, targets: ['id', 'type', 'nature', 'period'] },
    remove: 'tyype', activeAs: 'bool', statusFields: ['is_active'],
    statusSends: 'record',
    rules: ADMIN_ONLY,
    fields: {
      shop_id: i(REQ), type: s(REQ), nature: s(REQ), period: s(REQ), unit: s(REQ), total_clicks: i({ required: true, min: 0 }),
      amount: n({ required: true, min: 0 }), currency: s({ max: 8 }), payment_gateway: s(), start_date: s(REQ), end_date: s(REQ),
      ...ACTIVE,
    },
  },
  rows: { demo: () => import('./demo') },
  screen: {
    kind: 'list',
    columns: [
      { kind: 'text', source: 'end_date' },
      { kind: 'text', source: 'payment_gateway' },
      { kind: 'custom', source: 'shop_id', component: () => import('./ShopIdCell') },
      { kind: 'status', source: 'is_active' },
      { kind: 'text', source: 'id' },
      { kind: 'text', source: 'type' },
      { kind: 'text', source: 'nature' },
      { kind: 'text', source: 'period' },
      { kind: 'text', source: 'unit' },
      { kind: 'text', source: 'total_clicks' },
      { kind: 'text', source: 'amount' },
      { kind: 'text', source: 'currency' },
    ],
    control: { options: [{ kind: 'active', source: 'is_active', choices: ['Active', 'Inactive'] }] },
  },
});
