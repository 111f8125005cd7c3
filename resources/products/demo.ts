/**
 * The demo products: thirty across the demo shops and subcategories, one currency per shop
 * ('Unique Currency per Shop'), some drafts, some premier, some pre-owned, some out of stock. Their
 * pictures are made by the products' hooks (server/hooks/products.ts) once they are in.
 */
import type { DemoBuilder } from '../../contract';

const build: DemoBuilder = async ({ rows }) => {
  const shops = await rows('shops');
  const subs = await rows('subcategories');
  return Array.from({ length: 30 }, (_, k) => {
    const i = k + 1;
    const at = i % shops.length;
    const sub = subs[i % subs.length];
    return {
      shop_id: shops[at].id, name: `Product ${i}`, description: `A fine product number ${i}`, currency: at % 3 ? 'USD' : ['NGN', 'GBP', 'EUR'][(at / 3) % 3],
      price: 10 * i, sale_price: 9 * i, in_stock: i % 7 === 0 ? 0 : i, unit: 'cm', height: 10, width: 20, length: 30, weight: 1.5,
      sku: `SKU-${i}`, quantity: 1, state: i % 4 ? 'active' : 'draft', premier: i % 6 ? 'no' : 'yes',
      product_type: i % 5 ? 'new' : 'preown', image: [], category_id: sub.category_id, subcategory_id: sub.id,
      variety_option: { color: 'Blue', size: 'M' }, band_id: null, band_name: 'Acme',
    };
  });
};
export default build;
