/** Brands (SPEC §2.16, §3.8): plain brands only, product_id 0. */
import type { ResourceDeclaration } from './types';

export const brands: ResourceDeclaration = {
  name: 'brands',
  entity: 'brands',
  filter: { product_id: 0 },
  columns: [{ source: 'is_active', cell: 'status' }, { source: 'id' }, { source: 'name' }, { source: 'type' }, { source: 'product_id' }],
  form: {
    tab: 'add_edit',
    fields: [{ source: 'name' }, { source: 'type', input: 'select', choices: ['popular', 'upcoming'] }],
  },
  control: { options: [{ source: 'is_active', choices: ['Active', 'Inactive'] }] },
};
