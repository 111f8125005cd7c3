/**
 * Payouts (issue 28): what the marketplace pays its sellers, and the ledger behind it. Admins holding
 * 'payouts' see each shop's balances, pay shops out, settle payouts (paid or failed) and download a
 * bank-transfer batch (/payouts), and read the commissions earned (/commission-report). Sellers read
 * their own balances, postings and monthly statements (/my-earnings). The calls are the ledger's own
 * (server/routes/ledger.ts, contract/ledger.ts); this file declares the payouts table, the sidebar
 * entries and the pages.
 */
import { PAYOUTS_TOKEN, PAYOUT_STATES, i, j, n, s } from '../../contract';
import { defineResource } from '../types';

export default defineResource({
  name: 'payouts',
  title: 'Payout',
  menu: { token: PAYOUTS_TOKEN, path: '/payouts', order: 65, icon: 'Payments' },
  api: {
    save: '/payout', list: '/payouts', status: '/payout/status',
    listShape: 'paginated', remove: 'none', activeAs: 'int', statusFields: ['state'],
    rules: { read: 'admin', create: 'admin', update: 'admin' },
    // Served by the ledger's routes: a payout is computed from the balances, never saved as sent.
    ownRoutes: true,
    extension: true,
    fields: {
      shop_id: i({ required: true }),
      currency: s({ required: true, max: 8 }),
      /**
       * Minor units, whole. A number column, not an integer one: a payout past 2^31 minor units
       * (21,474,836.47 in a two-decimal currency) is stored exactly (whole numbers are exact to 2^53).
       */
      amount: n({ serverSet: true }),
      state: s({ oneOf: PAYOUT_STATES, default: 'pending', max: 16 }),
      /** 'bank' or 'paypal', and the shop's details as they were when the payout was made. */
      method: s({ serverSet: true, max: 16 }),
      destination: j({ serverSet: true }),
      reference: s({ max: 255 }),
      created_by: i({ serverSet: true }),
      settled_by: i({ serverSet: true }),
      settled_at: s({ serverSet: true, max: 32 }),
    },
  },
  screen: { kind: 'page', component: () => import('./PayoutsPage') },
  routes: [
    { path: '/commission-report', component: () => import('./CommissionsPage'), access: PAYOUTS_TOKEN },
    { path: '/my-earnings', component: () => import('./EarningsPage'), access: 'my-earnings' },
  ],
  sellerPages: [{ token: 'my-earnings', path: '/my-earnings', sellerOrder: 4, icon: 'AccountBalanceWallet' }],
});
