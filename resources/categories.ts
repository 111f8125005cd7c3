/** Categories (form only, no Control tab) with their subcategories and commissions (SPEC §2.15, §3.7). */
import { ACTIVE, n, s } from '../contract';
import { defineResource } from './types';

export default defineResource({
  name: 'categories',
  title: 'Category',
  recordRepresentation: 'name',
  menu: { token: 'category', path: '/category', order: 90, icon: 'Category' },
  api: {
    save: '/category', list: '/categories', status: '/category/status',
    listShape: 'paginated', search: { keyIndex: 2, targets: ['id', 'name'] },
    remove: 'tyype', activeAs: 'int', statusFields: ['is_active'],
    rules: { read: 'user', create: 'admin', update: 'admin' },
    onePayload: true, // the legacy back end's forms send SPEC §3.24's one payload
    fields: {
      name: s({ required: true, unique: true }), commission_currency: s({ required: true, max: 8, adminOnly: true }),
      commission_flat_rate: n({ required: true, adminOnly: true, min: 0, max: 100 }), commission_monthly: n({ adminOnly: true, min: 0 }),
      ...ACTIVE,
    },
    relations: [{ as: 'subcategories', entity: 'subcategories', key: 'category_id', kind: 'many', pick: ['id', 'name', 'serial'] }],
  },
  rows: {
    demo: [
      { name: 'Fashion', commission_currency: 'USD', commission_flat_rate: 5, commission_monthly: 20, is_active: 1 },
      { name: 'Electronics', commission_currency: 'USD', commission_flat_rate: 7.5, commission_monthly: 35, is_active: 1 },
      { name: 'Home & Garden', commission_currency: 'GBP', commission_flat_rate: 4, commission_monthly: 15, is_active: 1 },
    ],
  },
  screen: {
    kind: 'list',
    links: [{ path: '/subcategory', label: 'resources.subcategories.title' }],
    columns: [
      { kind: 'text', source: 'id' },
      { kind: 'text', source: 'name' },
      { kind: 'text', source: 'commission_flat_rate' },
      { kind: 'text', source: 'commission_currency' },
      { kind: 'text', source: 'commission_monthly' },
      { kind: 'numbered', source: 'subcategories' },
    ],
    form: {
      tab: 'add_edit',
      fields: [
        { kind: 'pickOrType', source: 'category_name', options: { reference: 'category' }, from: 'name', required: true },
        { kind: 'pickOrType', source: 'subcategory_name', options: { path: 'subcategories', carry: ['serial'] }, required: true },
        { kind: 'currency', source: 'commission_currency' },
        { kind: 'number', source: 'commission_flat_rate', placeholder: true },
        { kind: 'number', source: 'commission_monthly', placeholder: true },
      ],
    },
  },
});
