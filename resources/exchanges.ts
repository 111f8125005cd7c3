/** Currency exchange rates (SPEC §2.22, §3.14, §7.7), at '/Currencies-exchange'. */
import { ACTIVE, n, REQ, s } from '../contract';
import { defineResource } from './types';

export default defineResource({
  name: 'exchanges',
  title: 'Exchange rate',
  recordRepresentation: 'code',
  menu: { token: 'currencies-exchange', path: '/Currencies-exchange', order: 170, icon: 'CurrencyExchange' },
  api: {
    save: '/exchanges', list: '/exchangess', status: '/exchanges/status',
    listShape: 'array', search: { keyIndex: 20, targets: ['id', 'code', 'country', 'currency'] },
    remove: 'tyype', activeAs: 'int', statusFields: ['is_active'],
    rules: { read: 'public', create: 'admin', update: 'admin' },
    onePayload: true, // the legacy back end's forms send SPEC §3.24's one payload
    fields: {
      value_per_dollar: n({ required: true, min: 0.000001 }), currency_symbol: s({ required: true, max: 8 }),
      code: s({ required: true, max: 8, unique: true }), currency: s(REQ), country: s(REQ), ...ACTIVE,
    },
  },
  rows: {
    // The source currency's rate: every installation needs it.
    reference: [{ code: 'USD', country: 'United States', currency: 'US Dollar', currency_symbol: '$', value_per_dollar: 1, is_active: 1 }],
    demo: [
      { code: 'GBP', country: 'United Kingdom', currency: 'Pound Sterling', currency_symbol: '£', value_per_dollar: 0.79, is_active: 1 },
      { code: 'EUR', country: 'Germany', currency: 'Euro', currency_symbol: '€', value_per_dollar: 0.92, is_active: 1 },
      { code: 'NGN', country: 'Nigeria', currency: 'Naira', currency_symbol: '₦', value_per_dollar: 1550, is_active: 1 },
      { code: 'LRD', country: 'Liberia', currency: 'Liberian Dollar', currency_symbol: 'L$', value_per_dollar: 192, is_active: 1 },
    ],
  },
  screen: {
    kind: 'list',
    columns: [
      { kind: 'text', source: 'id' },
      { kind: 'text', source: 'code' },
      { kind: 'text', source: 'country' },
      { kind: 'text', source: 'currency' },
      { kind: 'text', source: 'currency_symbol' },
      { kind: 'text', source: 'value_per_dollar' },
    ],
    form: {
      tab: 'add_edit',
      fields: [
        { kind: 'number', source: 'value_per_dollar' },
        { kind: 'text', source: 'currency_symbol' },
        { kind: 'text', source: 'code' },
        { kind: 'text', source: 'currency' },
        { kind: 'location', source: 'country', levels: ['country'] },
      ],
    },
    control: { options: [], submit: false, remove: true },
  },
});
