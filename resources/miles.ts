/** Per-mile prices (SPEC §2.24, §3.16): a country picker and the currency fixed to USD. */
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
    onePayload: true, // the legacy back end's forms send SPEC §3.24's one payload
    fields: {
      currency: s({ required: true, oneOf: ['USD'], default: 'USD' }), country: s(REQ), value_per_mile: n({ required: true, min: 0 }),
      ...ACTIVE,
    },
  },
  rows: {
    demo: [
      { country: 'Nigeria', currency: 'USD', value_per_mile: 0.5, is_active: 1 },
      { country: 'United Kingdom', currency: 'USD', value_per_mile: 1.2, is_active: 1 },
      { country: 'Liberia', currency: 'USD', value_per_mile: 0.35, is_active: 1 },
    ],
  },
  screen: {
    kind: 'list',
    columns: [
      { kind: 'text', source: 'id' },
      { kind: 'text', source: 'country' },
      { kind: 'text', source: 'currency' },
      { kind: 'text', source: 'value_per_mile' },
    ],
    form: {
      tab: 'add_edit',
      fields: [
        { kind: 'currency', source: 'currency', only: ['USD'] },
        { kind: 'number', source: 'value_per_mile' },
        { kind: 'location', source: 'country', levels: ['country'], required: true },
      ],
    },
    control: { options: [{ kind: 'active', source: 'is_active', choices: ['Active', 'Inactive'] }], remove: true },
  },
});
