/** Users (SPEC §2.14, §3.2): accounts, abilities and granted accesses. */
import { ACTIVE, ADMIN_ONLY, REQ, s, t } from '../contract';
import { defineResource } from './types';

export default defineResource({
  name: 'users',
  title: 'User',
  menu: { token: 'users', path: '/users', order: 130, icon: 'ManageAccounts' },
  api: {
    save: '/user/edit', list: '/users', status: '/user/status',
    listShape: 'paginated', search: { keyIndex: 0, targets: ['id', 'name', 'email', 'phone', 'street_name', 'city', 'state', 'country', 'zip'] },
    remove: 'none', activeAs: 'int', statusFields: ['is_active'],
    rules: ADMIN_ONLY,
    ownRoutes: true,
    multipartList: true,
    saveFields: ['abilities', 'applications', 'email', 'id', 'is_active', 'name', 'phone'],
    fields: {
      name: s(REQ), email: s({ type: 'email', required: true }), phone: s({ max: 32 }),
      applications: t(), abilities: s({ serverSet: true, max: 64 }), granted_accesses: t({ serverSet: true }),
      street_name: s(), city: s(), state: s(), country: s(), zip: s(), currency: s({ max: 64 }),
      ...ACTIVE,
    },
    relations: [{ as: 'shops', entity: 'shops', key: 'owner_id', kind: 'many', pick: ['id', 'name'] }],
  },
});
