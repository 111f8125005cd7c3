/**
 * Products (SPEC §2.11, §3.4, §4.4) and the seller's My Products: images uploaded before the save
 * (lifecycle.ts), a subcategory picker that follows the category, the seller's own shops.
 */
import { i, j, n, REQ, s, t } from '../../contract';
import { defineResource } from '../types';
import { lifecycle } from './lifecycle';
import { MY_PRODUCTS_PATH } from './paths';

export default defineResource({
  name: 'products',
  title: 'Product',
  recordRepresentation: 'name',
  menu: { token: 'products', path: '/products', order: 50, icon: 'Inventory' },
  seller: {
    token: 'my-products', path: MY_PRODUCTS_PATH, order: 20, sellerOrder: 3, icon: 'Inventory2', via: 'shop_id',
  },
  api: {
    save: '/product', list: '/products', status: '/product/status',
    listShape: 'paginated', search: { keyIndex: 7, targets: ['id', 'name'] },
    remove: 'tyype+type', activeAs: 'int', statusFields: ['premier', 'product_type', 'state'],
    statusExtra: { type: 'state' },
    rules: { read: 'owner', create: 'owner', update: 'owner' },
    onePayload: true, // the legacy back end's forms send SPEC §3.24's one payload
    fields: {
      shop_id: i(REQ), name: s(REQ), description: t(REQ), currency: s({ required: true, max: 8, wrap: 'code' }),
      price: n({ required: true, min: 0, default: 0 }), sale_price: n({ required: true, min: 0, default: 0 }), in_stock: i(REQ), unit: s(), height: n({ min: 0 }), width: n({ min: 0 }), length: n({ min: 0 }),
      weight: n({ min: 0 }), sku: s(), quantity: i({ default: 1 }),
      state: s({ oneOf: ['active', 'draft'], default: 'active' }), premier: s({ oneOf: ['yes', 'no'], adminOnly: true, default: 'no' }),
      product_type: s({ oneOf: ['new', 'preown'], default: 'new' }),
      image: j({ files: true }), category_id: i(REQ), subcategory_id: i(REQ), variety_option: j(),
      band_id: i({ group: 'band' }), band_name: s({ group: 'band', required: true }),
    },
    relations: [
      { as: 'category', entity: 'categories', key: 'category_id', kind: 'one', pick: ['id', 'name'] },
      { as: 'subcategory', entity: 'subcategories', key: 'subcategory_id', kind: 'one', pick: ['id', 'name'] },
      { as: 'shop', entity: 'shops', key: 'shop_id', kind: 'one', pick: ['id', 'name', 'owner_id'] },
    ],
  },
  rows: { demo: () => import('./demo') },
  screen: {
    kind: 'list',
    columns: [
      { kind: 'status', source: 'state' },
      { kind: 'text', source: 'id' },
      { kind: 'custom', source: 'image', component: () => import('./ImagesCell') },
      { kind: 'text', source: 'name' },
      { kind: 'text', source: 'description' },
      { kind: 'text', source: 'category.name' },
      { kind: 'text', source: 'subcategory.name', hidden: true },
      { kind: 'text', source: 'currency.code' },
      { kind: 'text', source: 'price' },
      { kind: 'text', source: 'sale_price' },
      { kind: 'custom', source: 'in_stock', component: () => import('./StockCell') },
      { kind: 'text', source: 'unit', hidden: true },
      { kind: 'text', source: 'height', hidden: true },
      { kind: 'text', source: 'width', hidden: true },
      { kind: 'text', source: 'length', hidden: true },
      { kind: 'text', source: 'variety_option.color', hidden: true },
      { kind: 'text', source: 'variety_option.size', hidden: true },
      { kind: 'text', source: 'band.band_name' },
    ],
    form: {
      tab: 'add_edit',
      fields: [
        { kind: 'custom', source: 'image', component: () => import('./ImageUpload'), wide: true },
        { kind: 'text', source: 'name' },
        { kind: 'textarea', source: 'description' },
        { kind: 'reference', source: 'category_id', reference: 'category', required: true },
        { kind: 'custom', source: 'subcategory_id', component: () => import('./SubcategoryInput'), required: true },
        { kind: 'currency', source: 'currency', required: true },
        { kind: 'custom', source: 'shop_id', component: () => import('./ShopInput'), required: true },
        { kind: 'number', source: 'price', placeholder: true },
        { kind: 'number', source: 'sale_price', placeholder: true },
        { kind: 'number', source: 'in_stock', placeholder: true },
        { kind: 'text', source: 'unit', placeholder: true },
        { kind: 'number', source: 'height' },
        { kind: 'number', source: 'width' },
        { kind: 'number', source: 'length' },
        { kind: 'text', source: 'color' },
        { kind: 'text', source: 'size' },
        { kind: 'text', source: 'brand_name', required: true },
      ],
    },
    control: {
      options: [
        { kind: 'choice', source: 'premier', choices: ['yes', 'no'] },
        { kind: 'choice', source: 'product_type', choices: ['new', 'preown'] },
        { kind: 'choice', source: 'state', choices: ['active', 'draft'] },
      ],
      remove: true,
    },
    // Active or draft products only (the state the Control tab sets).
    filters: [{ kind: 'select', source: 'state', choices: ['active', 'draft'] }],
  },
  lifecycle,
});
