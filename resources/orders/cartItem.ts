/** A product as a cart line (SPEC §3.21): its price in its own currency, the same in USD, its weight and shop. */
import { convert, type Rate } from '../../contract';
import type { CartItem } from '../../src/cart/store';

type ProductLike = Record<string, unknown>;

export const productCurrency = (product: ProductLike): string => {
  const c = product.currency;
  const code = c && typeof c === 'object' ? (c as { code?: unknown }).code : c;
  return typeof code === 'string' && code ? code : 'USD';
};

/** The price a buyer pays: the sale price when there is one, else the price (the server prices orders the same way). */
export const unitPrice = (product: ProductLike): number =>
  Number(product.sale_price) > 0 ? Number(product.sale_price) : Number(product.price ?? 0) || 0;

export function cartItemOf(product: ProductLike, rates: readonly Rate[]): CartItem {
  const currency = productCurrency(product);
  const price = unitPrice(product);
  const shop = product.shop && typeof product.shop === 'object' ? (product.shop as { name?: unknown }) : undefined;
  return {
    id: product.id as number,
    quantity: 1,
    sale_price: price,
    sale_price_fxws: convert(price, currency, 'USD', rates),
    weight: Number(product.weight ?? 0) || 0,
    name: String(product.name ?? ''),
    currency,
    shop_id: product.shop_id as number,
    shop_name: typeof shop?.name === 'string' ? shop.name : undefined,
  };
}
