/**
 * The access tokens of the console's navigation (SPEC §6.2), in the order of the admin sidebar
 * (SPEC §2.6), with their permission level and route path (SPEC §2.1). Screens, the sidebar,
 * canAccess and the server's guard all name screens by these tokens.
 */
import { isAlwaysAllowed } from './roles';

export interface AccessEntry {
  token: string;
  path: string;
  /** 2: the seller's own items; 3: admin items. */
  level: 2 | 3;
}

export const ACCESS: readonly AccessEntry[] = [
  { token: 'dashboard', path: '/', level: 2 },
  { token: 'my-shops', path: '/my-shops', level: 2 },
  { token: 'my-products', path: '/my-products', level: 2 },
  { token: 'my-orders', path: '/my-orders', level: 2 },
  { token: 'shops', path: '/shops', level: 3 },
  { token: 'products', path: '/products', level: 3 },
  { token: 'orders', path: '/orders', level: 3 },
  { token: 'subscription-plans', path: '/subscription-plans', level: 3 },
  { token: 'subscriptions', path: '/subscriptions', level: 3 },
  { token: 'category', path: '/category', level: 3 },
  { token: 'support', path: '/support', level: 3 },
  { token: 'job-posts', path: '/job-posts', level: 3 },
  { token: 'job-applicants', path: '/job-applicants', level: 3 },
  { token: 'users', path: '/users', level: 3 },
  { token: 'brands', path: '/brands', level: 3 },
  { token: 'mail-templates', path: '/mail-templates', level: 3 },
  { token: 'order-status', path: '/order-status', level: 3 },
  { token: 'currencies-exchange', path: '/Currencies-exchange', level: 3 },
  { token: 'shipping-classes', path: '/shipping-classes', level: 3 },
  { token: 'mile-prices', path: '/mile-prices', level: 3 },
  { token: 'custom-distances', path: '/custom-distances', level: 3 },
  { token: 'deletion-requests', path: '/deletion-requests', level: 3 },
  { token: 'chat-logs', path: '/chat-logs', level: 3 },
];

/** The seller's sidebar (SPEC §2.6): Dashboard, Shops, Orders, Products. */
export const SELLER_TOKENS = ['dashboard', 'my-shops', 'my-orders', 'my-products'] as const;

/** Tokens an admin may grant in 'Assign Roles': all but the 'my' and dashboard entries. */
export const ASSIGNABLE_TOKENS: readonly string[] = ACCESS.map((a) => a.token).filter(
  (t) => !isAlwaysAllowed(t),
);

/** The dashboard's money cards need one of these (SPEC §6.2). */
export const DASHBOARD_MONEY_TOKENS = ['mile-prices', 'shipping-classes', 'currencies-exchange'];
