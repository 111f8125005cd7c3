/**
 * Orders (SPEC §2.12, §3.5, §4.5) and the seller's My Orders. A row click opens the order dialog
 * (the global dialog's 'VIEW_ORDER' view, SPEC §2.29) and the Control tab; Control is headed 'Review'
 * on My Orders. Orders are placed from the cart at /checkout (SPEC §3.21, §4.9): the server sets the
 * buyer, the status and every amount (server/hooks/orders.ts). /catalogue lists what a buyer can add to the cart.
 */
import { ACTIVE, i, j, n, s } from '../../contract';
import type { Loader } from '../../src/screens/types';
import { defineResource } from '../types';
import type { OrderDialogProps } from './OrderDetails';
import { PURCHASES_PATH } from './paths';

const details: Loader<OrderDialogProps> = () => import('./OrderDetails');

/** What a checkout sends: the products and quantities (server/hooks/orders.ts prices them and checks the rest). */
const ITEMS = {
  type: 'array', minItems: 1, maxItems: 100,
  items: {
    type: 'object',
    properties: { product_id: { type: ['integer', 'string'] }, id: { type: ['integer', 'string'] }, quantity: { type: 'integer', minimum: 1, maximum: 1000 } },
    anyOf: [{ required: ['product_id'] }, { required: ['id'] }],
  },
} as const;

export default defineResource({
  name: 'orders',
  title: 'Order',
  recordRepresentation: 'tracking_number',
  menu: { token: 'orders', path: '/orders', order: 60, icon: 'ReceiptLong' },
  seller: {
    token: 'my-orders', path: '/my-orders', order: 30, sellerOrder: 2, icon: 'ShoppingBag', via: 'shop_id',
  },
  // A buyer's own orders (the server reads them by buyerKey), read only; and the catalogue to buy from.
  buyer: { token: 'my-purchases', path: PURCHASES_PATH, buyerOrder: 2, icon: 'ShoppingBag' },
  buyerPages: [{ token: 'catalogue', path: '/catalogue', buyerOrder: 1, icon: 'Storefront' }],
  api: {
    save: '/order', list: '/orders', status: '/order/status',
    listShape: 'paginated', search: { keyIndex: 4, targets: ['id', 'created_at', 'tracking_number'] },
    remove: 'none', activeAs: 'int', statusFields: ['status'],
    // My Orders' getOrder and deactivateOrder (SPEC §7.4) are /orders and /order/status with `scope: 'own'`.
    sellerStatusAs: { status: 'state' },
    // Any signed-in user places an order (checkout); the server sets the buyer, status and amounts.
    rules: { read: 'owner', create: 'user', update: 'owner' },
    // Buyers read their own orders (the dashboard's order card), never change them.
    buyerKey: 'customer_id',
    fields: {
      shop_id: i({ required: true }), customer_id: i(), parent_id: i(), payment_gateway: s(), tracking_number: s(),
      number_of_items: i(), status: i({ oneOf: [1, 2, 3, 4, 5, 6], default: 1 }), currency: s({ max: 8 }),
      customer_contact: s(), amount: n({ min: 0 }), sales_tax: n({ min: 0 }), discount: n({ min: 0 }), bank_name: s(),
      total: n({ min: 0 }), total_fxws: n({ min: 0 }), paid_total: n({ min: 0 }), paid_total_fxws: n({ min: 0 }),
      delivery_fee: n({ min: 0 }), logistics: s(), shipping_address: j(), billing_address: j(),
      /** What was bought: [{product_id, name, sku, quantity, price, currency}], priced by the server. */
      items: j({ required: true, shape: ITEMS }),
      dispatch_status: s(), created_at: s({ serverSet: true }),
      /** While an unpaid order is new, the time its stock goes back on sale (server/hooks/orders.ts). */
      hold_until: s({ serverSet: true, indexed: true, max: 32 }),
      /** When its stock went back on sale (cancelled, or the hold ended): never twice. */
      stock_returned_at: s({ serverSet: true, max: 32 }),
      ...ACTIVE,
    },
    relations: [
      { as: 'status', entity: 'orderStatuses', key: 'status', kind: 'one', pick: ['id', 'name'] },
      { as: 'shop', entity: 'shops', key: 'shop_id', kind: 'one', pick: ['id', 'name', 'owner_id'] },
      { as: 'customer', entity: 'users', key: 'customer_id', kind: 'one', pick: ['id', 'name'] },
      {
        as: 'timeline', entity: 'orderEvents', key: 'order_id', kind: 'many',
        pick: ['id', 'from_status', 'to_status', 'user_id', 'user_name', 'reason', 'created_at'],
      },
    ],
  },
  rows: { demo: () => import('./demo') },
  screen: {
    kind: 'list',
    columns: [
      { kind: 'text', source: 'id' },
      { kind: 'text', source: 'parent_id', hidden: true },
      { kind: 'text', source: 'payment_gateway' },
      { kind: 'text', source: 'tracking_number' },
      { kind: 'text', source: 'number_of_items' },
      { kind: 'custom', source: 'status.name', component: () => import('./StatusCell') },
      { kind: 'custom', source: 'paid_total', component: () => import('./MoneyCell') },
      { kind: 'custom', source: 'total', component: () => import('./MoneyCell') },
      { kind: 'joined', source: 'shipping_address', parts: ['street_name', 'city', 'state', 'country', 'zip'] },
      { kind: 'text', source: 'logistics', hidden: true },
      { kind: 'custom', source: 'delivery_fee', component: () => import('./MoneyCell') },
    ],
    // On a phone: the order and its tracking number, where it goes, and its status and total on the right.
    compact: { primary: ['id', 'tracking_number'], secondary: ['shipping_address'], tertiary: ['status.name', 'total'] },
    control: { options: [{ kind: 'choice', source: 'status', choices: [1, 2, 3, 4, 5, 6] }], sellerLabel: 'resources.orders.review' },
    onRowClick: (record, { openModal }) => openModal('VIEW_ORDER', { view: details, props: { order: record } }),
  },
  routes: [
    { path: '/catalogue', component: () => import('./CataloguePage') },
    { path: '/checkout', component: () => import('./CheckoutPage') },
    { path: '/success', component: () => import('./OutcomePage').then((m) => ({ default: m.SuccessPage })) },
    { path: '/cancel', component: () => import('./OutcomePage').then((m) => ({ default: m.CancelPage })) },
  ],
});
