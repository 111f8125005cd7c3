/**
 * The specification's tables, typed by hand from SPEC.md, once. Tests check the registry, the
 * contract and the words against these; nothing here is derived from the code it checks, so a rule
 * changed by mistake in a resource file or the contract fails a test instead of being copied into it.
 * Lists are checked as ordered subsequences: an entity added beyond the spec does not break them.
 */

/** SPEC §2.6: the admin sidebar's labels, in order, spellings kept. */
export const ADMIN_SIDEBAR = [
  'Dashboard', 'My Shops', 'My Products', 'My Orders', 'Shops', 'Products', 'Orders', 'Subscription Plans',
  'Subscriptions', 'category', 'Support', 'Job Posts', 'Job Applicants', 'Users', 'Brands', 'Mail templates',
  'Order Status', 'Curencies Exchange', 'Shipping Clases', 'Mile Prices', 'Custom Distances', 'Deletion Requests',
  'Chat Logs',
] as const;

/** SPEC §2.6: the seller's sidebar, label and path, in order. */
export const SELLER_SIDEBAR = [
  { label: 'Dashboard', path: '/' },
  { label: 'Shops', path: '/my-shops' },
  { label: 'Orders', path: '/my-orders' },
  { label: 'Products', path: '/my-products' },
] as const;

/** SPEC §6.2: the menu tokens, in the sidebar's order. */
export const MENU_TOKENS = [
  'dashboard', 'my-shops', 'my-products', 'my-orders', 'shops', 'products', 'orders', 'subscription-plans',
  'subscriptions', 'category', 'support', 'job-posts', 'job-applicants', 'users', 'brands', 'mail-templates',
  'order-status', 'currencies-exchange', 'shipping-classes', 'mile-prices', 'custom-distances', 'deletion-requests',
  'chat-logs',
] as const;

/** SPEC §4.5: order status codes and their names. */
export const ORDER_STATUS_NAMES: Record<number, string> = {
  1: 'New Order',
  2: 'Order Confirmed',
  3: 'Order Shipped',
  4: 'Order in Transit',
  5: 'Order Delivered',
  6: 'Order Cancelled',
};

/**
 * SPEC §6.1: the three readings of abilities, each as the spec words it, and the abilities the
 * product sends (registration [1,2], 'Admin' [1,2,3], any other choice [1]).
 */
export const ROLE_READINGS = {
  /** Dashboard counts: by length; below 2 buyer, 2 seller, 3 or more admin. */
  byLength: (a: number[]) => (a.length < 2 ? 'buyer' : a.length === 2 ? 'seller' : 'admin'),
  /** Current-user admin check: admin when a value is greater than 2 (otherwise not an admin). */
  byValue: (a: number[]) => (a.some((v) => v > 2) ? 'admin' : undefined),
  /** Users screen: by the sum; more than 3 Admin, exactly 3 Seller, otherwise Buyer. */
  bySum: (a: number[]) => {
    const sum = a.reduce((x, y) => x + y, 0);
    return sum > 3 ? 'admin' : sum === 3 ? 'seller' : 'buyer';
  },
} as const;
export const SENT_ABILITIES = { registration: [1, 2], admin: [1, 2, 3], other: [1] } as const;

/**
 * SPEC §9.4: search key indexes, the entity each screen reads (by its resource name) and the
 * columns searched where the spec names them.
 */
export const KEY_INDEXES: readonly { screen: string; keyIndex: number; entity: string; columns?: readonly string[] }[] = [
  { screen: 'Users', keyIndex: 0, entity: 'users' },
  { screen: 'Category', keyIndex: 2, entity: 'categories', columns: ['id', 'name'] },
  { screen: 'Orders', keyIndex: 4, entity: 'orders', columns: ['id', 'created_at', 'tracking_number'] },
  { screen: 'Order statuses', keyIndex: 6, entity: 'orderStatuses', columns: ['id', 'name'] },
  { screen: 'Products', keyIndex: 7, entity: 'products' },
  { screen: 'Shipping', keyIndex: 8, entity: 'shippings' },
  { screen: 'Miles', keyIndex: 9, entity: 'miles' },
  { screen: 'Shops', keyIndex: 10, entity: 'shops' },
  { screen: 'Plans', keyIndex: 11, entity: 'subscriptionPlans' },
  { screen: 'Subscriptions', keyIndex: 12, entity: 'subscriptions', columns: ['id', 'type', 'nature', 'period'] },
  { screen: 'Brands', keyIndex: 13, entity: 'brands', columns: ['id', 'name'] },
  { screen: 'Templates', keyIndex: 16, entity: 'templates', columns: ['id', 'subject', 'message', 'from_email'] },
  { screen: 'Supports', keyIndex: 17, entity: 'supports', columns: ['id', 'title', 'country', 'message'] },
  { screen: 'Jobs', keyIndex: 18, entity: 'jobs' },
  { screen: 'Applicants', keyIndex: 19, entity: 'applicants', columns: ['id', 'title', 'country'] },
  { screen: 'Exchanges', keyIndex: 20, entity: 'exchanges', columns: ['id', 'code', 'country', 'currency'] },
  { screen: 'Distances', keyIndex: 21, entity: 'distances', columns: ['id', 'location_A', 'location_B', 'distance_km'] },
  { screen: 'Deletions', keyIndex: 22, entity: 'deletions', columns: ['id', 'customer', 'feedback'] },
];

/** SPEC §8 and §5: the error catalogue's words the console shows. */
export const ERROR_WORDS = {
  passwordMin: 'Your password must be minimum 8 digits',
  noProductName: 'Product name is not available yet',
  noTemplate: 'This operation is forbidden. Please reload and select a template by clicking on the template you want to modify',
  noShipping: 'This operation is forbidden. Please reload and select a Shipping Class by clicking on the Shipping Class you want to modify',
  noPlan: 'This operation is forbidden. Please reload and select a Subscription Plan by clicking on the Subscription Plan you want to modify',
  previouslyDeleted: 'This user have been previously deleted',
  notFoundTitle: '404!',
  notFoundMessage: 'The page is not found',
  listError: 'An Error occurred',
  unknownModal: 'Unknown Modal Action!',
  stateOutside: 'use State Modal must be under Provider',
  dispatchOutside: 'use Dispatch Modal must be under Provider',
} as const;

/** SPEC §9.3: limits. */
export const LIMITS = { minPassword: 8, minSearch: 2, imagesPerProduct: 4, filesPerUpload: 4, chatMessages: 6 } as const;

/** True when `expected` appears in `actual` in the same order (other items may stand between). */
export function isOrderedSubsequence<T>(actual: readonly T[], expected: readonly T[]): boolean {
  let i = 0;
  for (const item of actual) if (i < expected.length && item === expected[i]) i++;
  return i === expected.length;
}
