/**
 * Checkout (SPEC §4.9, the named route /checkout): the cart's items grouped by shop, one POST /order
 * per shop. The payload names only what the buyer chooses — the shop, the products and quantities,
 * the address, a contact and the shipping class; the server prices the order and sets its buyer and status. The later
 * orders of one checkout name the first as their parent.
 */
import type { CartItem } from '../../src/cart/store';

export interface ShippingAddress {
  street_name: string;
  city: string;
  state: string;
  country: string;
  zip: string;
}

export interface OrderRequest {
  shop_id: number | string;
  items: { product_id: number | string; quantity: number }[];
  shipping_address: ShippingAddress;
  customer_contact?: string;
  parent_id?: number;
  /** The shipping class chosen (the server charges its delivery fee; without it, the cheapest on offer). */
  shipping_id?: number;
}

/** The cart's items by shop, in the order they were added. */
export function byShop(items: readonly CartItem[]): CartItem[][] {
  const groups = new Map<string, CartItem[]>();
  for (const item of items) {
    const key = String(item.shop_id ?? '');
    groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  return [...groups.values()];
}

/** One order request per shop; `parent` is the first placed order's id, `shipping` the shipping class chosen. */
export function orderRequest(group: readonly CartItem[], address: ShippingAddress, contact: string, parent?: number, shipping?: number | null): OrderRequest {
  return {
    shop_id: group[0].shop_id as number,
    items: group.map((it) => ({ product_id: it.id, quantity: it.quantity })),
    shipping_address: address,
    ...(contact.trim() ? { customer_contact: contact.trim() } : {}),
    ...(parent ? { parent_id: parent } : {}),
    ...(shipping ? { shipping_id: shipping } : {}),
  };
}
