/** Brands (SPEC §2.16, §3.8): plain brands only, product_id 0. */
import { ACTIVE, i, REQ, s } from '../contract';
import { defineResource } from './types';

export default defineResource({
  name: 'brands',
  title: 'Brand',
  recordRepresentation: 'name',
  menu: { token: 'brands', path: '/brands', order: 140, icon: 'LocalOffer' },
  api: {
    save: '/brand', list: '/brands', status: '/brand/status',
    listShape: 'paginated', search: { keyIndex: 13, targets: ['id', 'name'] },
    remove: 'tyype', activeAs: 'int', statusFields: ['is_active'],
    rules: { read: 'user', create: 'admin', update: 'admin' },
    onePayload: true, // the legacy back end's forms send SPEC §3.24's one payload
    fields: { name: s(REQ), type: s({ required: true, oneOf: ['popular', 'upcoming'] }), product_id: i({ default: 0 }), ...ACTIVE },
  },
  rows: {
    demo: [
      { name: 'Acme', type: 'popular', product_id: 0, is_active: 1 },
      { name: 'Nimbus', type: 'upcoming', product_id: 0, is_active: 1 },
      { name: 'Zenith', type: 'popular', product_id: 0, is_active: 0 },
    ],
  },
  screen: {
    kind: 'list',
    filter: { product_id: 0 },
    columns: [
      { kind: 'status', source: 'is_active' },
      { kind: 'text', source: 'id' },
      { kind: 'text', source: 'name' },
      { kind: 'text', source: 'type' },
      { kind: 'text', source: 'product_id' },
    ],
    form: {
      tab: 'add_edit',
      fields: [
        { kind: 'text', source: 'name' },
        { kind: 'select', source: 'type', choices: ['popular', 'upcoming'] },
      ],
    },
    control: { options: [{ kind: 'active', source: 'is_active', choices: ['Active', 'Inactive'] }] },
  },
});
