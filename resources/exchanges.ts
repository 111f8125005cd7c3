/** Currency exchange rates (SPEC §2.22, §3.14, §7.7). */
import { ACTIVE, n, REQ, s } from '../contract';
import { defineResource } from './types';

export default defineResource({
  name: 'exchanges',
  title: 'Exchange rate',
  menu: { token: 'currencies-exchange', path: '/Currencies-exchange', order: 170, icon: 'CurrencyExchange' },
  api: {
    save: '/exchanges', list: '/exchangess', status: '/exchanges/status',
    listShape: 'array', search: { keyIndex: 20, targets: ['id', 'code', 'country', 'currency'] },
    remove: 'tyype', activeAs: 'int', statusFields: ['is_active'],
    rules: { read: 'public', create: 'admin', update: 'admin' },
    fields: {
      value_per_dollar: n(REQ), currency_symbol: s({ required: true, max: 8 }), code: s({ required: true, max: 8, unique: true }),
      currency: s(REQ), country: s(REQ), ...ACTIVE,
    },
  },
});
