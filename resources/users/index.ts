/**
 * Users (SPEC §2.14, §3.2, §6): accounts, abilities and granted accesses. Control only: the ability
 * choice saved through /user/edit and the red 'Deactivate / Activate' (UserControl); the 'Assign
 * Roles' tab (AssignRoles). The signed-in user's own pages (/account, /bank, /paypal) live here too.
 */
import { ACTIVE, ADMIN_ONLY, REQ, s, t } from '../../contract';
import { defineResource } from '../types';
import { usersProvider } from './dataProvider';

const account = () => import('./AccountPage');

export default defineResource({
  name: 'users',
  title: 'User',
  recordRepresentation: 'name',
  menu: { token: 'users', path: '/users', order: 130, icon: 'ManageAccounts' },
  api: {
    save: '/user/edit', list: '/users', status: '/user/status',
    listShape: 'paginated', search: { keyIndex: 0, targets: ['id', 'name', 'email', 'phone', 'street_name', 'city', 'state', 'country', 'zip'] },
    remove: 'none', activeAs: 'int', statusFields: ['is_active'],
    rules: ADMIN_ONLY,
    ownRoutes: true,
    saveFields: ['abilities', 'applications', 'email', 'id', 'is_active', 'name', 'phone'],
    fields: {
      name: s(REQ), email: s({ type: 'email', required: true }), phone: s({ max: 32 }),
      applications: t(), abilities: s({ serverSet: true, max: 64 }), granted_accesses: t({ serverSet: true }),
      // The second factors the user has ('totp,passkey,recovery'), kept by the server (issue 26).
      second_factor: s({ serverSet: true, max: 64 }),
      street_name: s(), city: s(), state: s(), country: s(), zip: s(), currency: s({ max: 64 }),
      ...ACTIVE,
    },
    relations: [{ as: 'shops', entity: 'shops', key: 'owner_id', kind: 'many', pick: ['id', 'name'] }],
  },
  // The list and one user come from the multipart users call (SPEC §7.2).
  dataProvider: usersProvider,
  // Server-only: the password's hash and how the account signs in; one account per email; found by phone.
  table: { columns: { password_hash: 'varchar(255)', source: 'varchar(32)' }, unique: [['email']], indexes: [['phone']] },
  // The demo accounts, written by the users' hooks (server/hooks/users.ts).
  rows: { demo: () => import('./demo') },
  screen: {
    kind: 'list',
    columns: [
      { kind: 'status', source: 'is_active' },
      { kind: 'text', source: 'id' },
      { kind: 'text', source: 'name' },
      { kind: 'text', source: 'email' },
      { kind: 'text', source: 'phone' },
      { kind: 'numbered', source: 'shops' },
      { kind: 'custom', source: 'abilities', component: () => import('./RoleCell') },
      { kind: 'custom', source: 'granted_accesses', component: () => import('./AccessesCell') },
      // Under 'Columns' (the list fits 1366 px without it); the 'Second factor' tab shows it per user.
      { kind: 'custom', source: 'second_factor', component: () => import('./SecondFactorCell'), hidden: true },
    ],
    tabs: [
      { id: 'control', label: 'management.tab_control', component: () => import('./UserControl'), needsRecord: true },
      { id: 'roles', label: 'resources.users.roles.tab', component: () => import('./AssignRoles'), needsRecord: true },
      { id: 'second-factor', label: 'resources.users.second_factor.tab', component: () => import('./SecondFactorReset'), needsRecord: true },
    ],
  },
  routes: [
    { path: '/account', component: account },
    { path: '/bank', component: account },
    { path: '/paypal', component: account },
  ],
  // An admin who must set up a second factor first (ADMIN_SECOND_FACTOR=required) is led here.
  publicRoutes: [{ path: '/second-factor', component: () => import('./SecondFactorSetup') }],
});
