/** Subscription plans (SPEC §2.18, §3.10). */
import { ACTIVE, i, n, REQ, s } from '../contract';
import { defineResource } from './types';

export default defineResource({
  name: 'subscriptionPlans',
  title: 'Subscription plan',
  menu: { token: 'subscription-plans', path: '/subscription-plans', order: 70, icon: 'WorkspacePremium' },
  api: {
    save: '/subcriptionPlan', list: '/subcriptionPlans', status: '/subcriptionPlan/status',
    listShape: 'paginated', search: { keyIndex: 11, targets: ['id', 'type', 'nature', 'period'] },
    remove: 'tyype', activeAs: 'int', statusFields: ['is_active'],
    rules: { read: 'user', create: 'admin', update: 'admin' },
    fields: {
      type: s(), nature: s(), period: s(), unit: s(), total_clicks: i(), amount: n(REQ),
      currency: s({ required: true, oneOf: ['USD'] }), ...ACTIVE,
    },
  },
});
