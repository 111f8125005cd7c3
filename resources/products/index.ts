/** Products (SPEC §2.11, §3.4) and the seller's My Products. */
import { i, j, n, REQ, s, t } from '../../contract';
import { defineResource } from '../types';

export default defineResource({
  name: 'products',
  title: 'Product',
  menu: { token: 'products', path: '/products', order: 50, icon: 'Inventory' },
  seller: {
    token: 'my-products', path: '/my-products', order: 20, sellerOrder: 3, icon: 'Inventory2', via: 'shop_id',
  },
  api: {
    save: '/product', list: '/products', status: '/product/status',
    listShape: 'paginated', search: { keyIndex: 7, targets: ['id', 'name'] },
    remove: 'tyype+type', activeAs: 'int', statusFields: ['premier', 'product_type', 'state'],
    rules: { read: 'owner', create: 'owner', update: 'owner' },
    fields: {
      shop_id: i(REQ), name: s(REQ), description: t(REQ), currency: s({ required: true, max: 8, wrap: 'code' }),
      price: n({ required: true, min: 0, default: 0 }), sale_price: n({ required: true, min: 0, default: 0 }), in_stock: i(REQ), unit: s(), height: n(), width: n(), length: n(),
      weight: n(), sku: s(), quantity: i({ default: 1 }),
      state: s({ oneOf: ['active', 'draft'], default: 'active' }), premier: s({ oneOf: ['yes', 'no'], adminOnly: true, default: 'no' }),
      product_type: s({ oneOf: ['new', 'preown'], default: 'new' }),
      image: j(), category_id: i(REQ), subcategory_id: i(REQ), variety_option: j(),
      band_id: i({ group: 'band' }), band_name: s({ group: 'band', required: true }),
    },
    relations: [
      { as: 'category', entity: 'categories', key: 'category_id', kind: 'one', pick: ['id', 'name'] },
      { as: 'subcategory', entity: 'subcategories', key: 'subcategory_id', kind: 'one', pick: ['id', 'name'] },
      { as: 'shop', entity: 'shops', key: 'shop_id', kind: 'one', pick: ['id', 'name', 'owner_id'] },
    ],
  },
});
