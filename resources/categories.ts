/** Categories with their subcategories and commissions (SPEC §2.15, §3.7). Form only. */
import type { ResourceDeclaration } from './types';

export const categories: ResourceDeclaration = {
  name: 'category',
  entity: 'categories',
  columns: [
    { source: 'id' },
    { source: 'name' },
    { source: 'commission_flat_rate' },
    { source: 'commission_currency' },
    { source: 'commission_monthly' },
    { source: 'subcategories', cell: 'numbered' },
  ],
  form: {
    tab: 'add_edit',
    fields: [
      { source: 'category_name', input: 'pickOrType', reference: 'category', from: 'name', required: true },
      { source: 'subcategory_name', input: 'pickOrType', optionsFrom: { path: 'subcategories', carry: ['serial'] }, required: true },
      { source: 'commission_currency', input: 'currency' },
      { source: 'commission_flat_rate', input: 'number', placeholder: true },
      { source: 'commission_monthly', input: 'number', placeholder: true },
    ],
  },
};
