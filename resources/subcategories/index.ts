/**
 * Subcategories (SPEC §3.7, named route /subcategory): created through their category's save
 * (SPEC §7.6), listed on a screen of their own where an admin renames one or moves it to another
 * category. A name is unique within its category. The screen has no sidebar entry: it opens from
 * Categories and is guarded by the categories' access token. Its calls are extensions of the contract.
 */
import { i, REQ, s } from '../../contract';
import { defineResource } from '../types';

export default defineResource({
  name: 'subcategories',
  title: 'Subcategory',
  recordRepresentation: 'name',
  screenPath: '/subcategory',
  api: {
    access: 'category',
    save: '/subcategory', list: '/subcategories', status: '/subcategory/status',
    listShape: 'paginated', search: { targets: ['id', 'name', 'serial'] },
    remove: 'none', activeAs: 'int', statusFields: [],
    rules: { read: 'admin', create: 'admin', update: 'admin' },
    onePayload: true, // the legacy back end's forms send SPEC §3.24's one payload
    extension: true,
    fields: { category_id: i(REQ), name: s({ required: true, max: 255 }), serial: s({ max: 255 }) },
    relations: [{ as: 'category', entity: 'categories', key: 'category_id', kind: 'one', pick: ['id', 'name'] }],
  },
  rows: { demo: () => import('./demo') },
  screen: {
    kind: 'list',
    links: [{ path: '/category', label: 'menu.category' }],
    columns: [
      { kind: 'text', source: 'id' },
      { kind: 'text', source: 'name' },
      { kind: 'text', source: 'serial' },
      { kind: 'text', source: 'category.name' },
    ],
    form: {
      tab: 'add_edit',
      fields: [
        { kind: 'text', source: 'name' },
        { kind: 'text', source: 'serial', required: false },
        { kind: 'reference', source: 'category_id', reference: 'category', required: true },
      ],
    },
  },
});
