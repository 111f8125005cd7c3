/**
 * Shipping classes (SPEC §2.23, §3.15): update only (saving with none selected is refused with
 * SPEC §8's words), the currency fixed to USD.
 */
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
    rules: { read: 'user', create: 'none', update: 'admin' },
    onePayload: true, // the legacy back end's forms send SPEC §3.24's one payload
    fields: {
      duration: s(REQ), currency: s({ required: true, oneOf: ['USD'], default: 'USD' }), amount: n({ required: true, min: 0 }),
      means: s(REQ), note: t(), ...ACTIVE,
    },
  },
  rows: {
    demo: [
      { duration: '3-5 days', currency: 'USD', amount: 10, means: 'Road', note: 'Standard delivery', is_active: 1 },
      { duration: '1-2 days', currency: 'USD', amount: 25, means: 'Air', note: 'Express delivery', is_active: 1 },
      { duration: 'Same day', currency: 'USD', amount: 40, means: 'Courier', note: 'Within the city only', is_active: 1 },
    ],
  },
  screen: {
    kind: 'list',
    columns: [
      { kind: 'text', source: 'id' },
      { kind: 'text', source: 'amount' },
      { kind: 'text', source: 'currency' },
      { kind: 'text', source: 'means' },
      { kind: 'text', source: 'duration' },
      { kind: 'text', source: 'note' },
    ],
    form: {
      tab: 'editor',
      forbidden: 'resources.shippings.forbidden',
      fields: [
        { kind: 'text', source: 'duration' },
        { kind: 'currency', source: 'currency', only: ['USD'] },
        { kind: 'number', source: 'amount' },
        { kind: 'text', source: 'means' },
        { kind: 'textarea', source: 'note' },
      ],
    },
    control: { options: [{ kind: 'active', source: 'is_active', choices: ['Active', 'Inactive'] }] },
  },
});
