/** Orders (SPEC §2.12, §3.5) and the seller's My Orders. */
import { ACTIVE, i, j, n, REQ, s } from '../contract';
import { defineResource } from './types';

export default defineResource({
  name: 'orders',
  title: 'Order',
  menu: { token: 'orders', path: '/orders', order: 60, icon: 'ReceiptLong' },
  seller: {
    token: 'my-orders', path: '/my-orders', order: 30, sellerOrder: 2, icon: 'ShoppingBag', via: 'shop_id',
  },
  api: {
    save: '/order', list: '/orders', status: '/order/status',
    listShape: 'paginated', search: { keyIndex: 4, targets: ['id', 'created_at', 'tracking_number'] },
    remove: 'none', activeAs: 'int', statusFields: ['status'],
    sellerStatusAs: { status: 'state' },
    rules: { read: 'owner', create: 'admin', update: 'owner' },
    fields: {
      shop_id: i(REQ), customer_id: i(), parent_id: i(), payment_gateway: s(REQ), tracking_number: s(REQ),
      number_of_items: i(), status: i({ oneOf: [1, 2, 3, 4, 5, 6], default: 1 }), currency: s({ max: 8 }),
      customer_contact: s(), amount: n(), sales_tax: n(), discount: n(), bank_name: s(),
      total: n(REQ), total_fxws: n(), paid_total: n(REQ), paid_total_fxws: n(),
      delivery_fee: n(), logistics: s(), shipping_address: j(), billing_address: j(),
      dispatch_status: s(), created_at: s({ serverSet: true }),
      ...ACTIVE,
    },
    relations: [
      { as: 'status', entity: 'orderStatuses', key: 'status', kind: 'one', pick: ['id', 'name'] },
      { as: 'shop', entity: 'shops', key: 'shop_id', kind: 'one', pick: ['id', 'name', 'owner_id'] },
    ],
  },
});
