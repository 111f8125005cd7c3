/** Subcategories (SPEC §3.7): saved through their category. */
import { i, REQ, s } from '../contract';
import { defineResource } from './types';

export default defineResource({
  name: 'subcategories',
  title: 'Subcategory',
  api: {
    access: 'category',
    save: '/category', list: '/categories', status: '/category/status',
    listShape: 'paginated', remove: 'none', activeAs: 'int', statusFields: [],
    rules: { read: 'none', create: 'none', update: 'none' },
    fields: { category_id: i(REQ), name: s(REQ), serial: s() },
  },
});
