/**
 * Subscription plans (SPEC §2.18, §3.10): update only (saving with none selected is refused with
 * SPEC §8's words), the currency fixed to USD. Sellers see the active plans on /packages.
 */
import { ACTIVE, i, n, s } from '../../contract';
import { defineResource } from '../types';

export default defineResource({
  name: 'subscriptionPlans',
  title: 'Subscription plan',
  menu: { token: 'subscription-plans', path: '/subscription-plans', order: 70, icon: 'WorkspacePremium' },
  api: {
    save: '/subcriptionPlan', list: '/subcriptionPlans', status: '/subcriptionPlan/status',
    listShape: 'paginated', search: { keyIndex: 11, targets: ['id', 'type', 'nature', 'period'] },
    remove: 'tyype', activeAs: 'int', statusFields: ['is_active'],
    rules: { read: 'user', create: 'none', update: 'admin' },
    onePayload: true, // the legacy back end's forms send SPEC §3.24's one payload
    fields: {
      type: s(), nature: s(), period: s(), unit: s(), total_clicks: i({ min: 0 }), amount: n({ required: true, min: 0 }),
      currency: s({ required: true, oneOf: ['USD'], default: 'USD' }), ...ACTIVE,
    },
  },
  rows: {
    demo: [
      { type: 'advert', nature: 'banner', period: 'month', unit: '1', total_clicks: 1000, amount: 49, currency: 'USD', is_active: 1 },
      { type: 'premier', nature: 'listing', period: 'week', unit: '1', total_clicks: 500, amount: 19, currency: 'USD', is_active: 1 },
      { type: 'commission', nature: 'store', period: 'year', unit: '1', total_clicks: 0, amount: 199, currency: 'USD', is_active: 1 },
    ],
  },
  screen: {
    kind: 'list',
    columns: [
      { kind: 'text', source: 'id' },
      { kind: 'text', source: 'type' },
      { kind: 'text', source: 'nature' },
      { kind: 'text', source: 'period' },
      { kind: 'text', source: 'unit' },
      { kind: 'text', source: 'total_clicks' },
      { kind: 'text', source: 'amount' },
      { kind: 'text', source: 'currency' },
    ],
    form: {
      tab: 'editor',
      forbidden: 'resources.subscriptionPlans.forbidden',
      fields: [
        { kind: 'number', source: 'total_clicks' },
        { kind: 'number', source: 'amount' },
        { kind: 'currency', source: 'currency', only: ['USD'] },
      ],
    },
    control: { options: [{ kind: 'active', source: 'is_active', choices: ['Active', 'Inactive'] }] },
  },
  // Sellers subscribe their shops to the active plans (server/routes/packages.ts).
  routes: [{ path: '/packages', component: () => import('./PackagesPage'), access: 'packages' }],
  sellerPages: [{ token: 'packages', path: '/packages', sellerOrder: 5, icon: 'WorkspacePremium' }],
});
