/** Shops (SPEC §2.10, §3.3) and the seller's My Shops. */
import { ACTIVE, address, i, REQ, s, t } from '../../contract';
import { defineResource } from '../types';

export default defineResource({
  name: 'shops',
  title: 'Shop',
  recordRepresentation: 'name',
  menu: { token: 'shops', path: '/shops', order: 40, icon: 'Store' },
  seller: {
    token: 'my-shops', path: '/my-shops', order: 10, sellerOrder: 1, icon: 'Storefront', via: 'owner_id',
  },
  api: {
    save: '/shop', list: '/shops', status: '/shop/status',
    listShape: 'paginated', search: { keyIndex: 10, targets: ['id', 'name'] },
    remove: 'tyype', activeAs: 'int', statusFields: ['is_active'],
    rules: { read: 'owner', create: 'owner', update: 'owner' },
    onePayload: true, // the legacy back end's forms send SPEC §3.24's one payload
    fields: {
      owner_id: i({ serverSet: true, creator: true }), name: s(REQ), description: t(REQ), category_id: i(REQ),
      ...address(true),
      bank_name: s({ group: 'bank', required: true }), bank_country: s({ group: 'bank', required: true }),
      swift_code: s({ group: 'bank' }), sort_code: s({ group: 'bank' }),
      account_name: s({ group: 'bank', required: true }), account_number: s({ group: 'bank', required: true }),
      paypal_email: s({ group: 'paypal' }), name_of_seller: s({ group: 'paypal' }),
      ...ACTIVE,
    },
    relations: [
      { as: 'category', entity: 'categories', key: 'category_id', kind: 'one', pick: ['id', 'name'] },
      { as: 'seller', entity: 'users', key: 'owner_id', kind: 'one', pick: ['id', 'name'] },
    ],
  },
  rows: { demo: () => import('./demo') },
  screen: {
    kind: 'list',
    columns: [
      { kind: 'status', source: 'is_active' },
      { kind: 'text', source: 'id' },
      { kind: 'text', source: 'name' },
      { kind: 'text', source: 'description' },
      { kind: 'text', source: 'category.name' },
      { kind: 'text', source: 'address.street_name' },
      { kind: 'joined', source: 'address', parts: ['city', 'state', 'country'] },
      { kind: 'text', source: 'address.zip', hidden: true },
      { kind: 'text', source: 'seller.name' },
      { kind: 'text', source: 'bank.bank_name', hidden: true },
      { kind: 'text', source: 'bank.bank_country', hidden: true },
      { kind: 'text', source: 'bank.swift_code', hidden: true },
      { kind: 'text', source: 'bank.sort_code', hidden: true },
      { kind: 'text', source: 'bank.account_name', hidden: true },
      { kind: 'text', source: 'bank.account_number', hidden: true },
      { kind: 'text', source: 'paypal.paypal_email', hidden: true },
    ],
    form: {
      tab: 'add_edit',
      fields: [
        { kind: 'text', source: 'name' },
        { kind: 'reference', source: 'category_id', reference: 'category' },
        { kind: 'textarea', source: 'description' },
        { kind: 'text', source: 'street_name' },
        { kind: 'text', source: 'zip' },
        { kind: 'location', source: 'country' },
        { kind: 'text', source: 'bank_name' },
        { kind: 'text', source: 'bank_country' },
        { kind: 'text', source: 'swift_code' },
        { kind: 'text', source: 'sort_code' },
        { kind: 'text', source: 'account_name' },
        { kind: 'text', source: 'account_number' },
        { kind: 'email', source: 'paypal_email' },
      ],
    },
    control: { options: [{ kind: 'active', source: 'is_active', choices: ['Active', 'Deactivate'] }], remove: true },
  },
});
