/**
 * What a cart will cost before it is paid (an extension; absent in strict mode):
 * `POST /order/quote {shipping_id?, shipping_address, orders: [{shop_id, items}]}` prices each shop's
 * part exactly as the checkout will (server/hooks/orders.ts) and adds its delivery fee from the
 * shipping settings; nothing is placed and no stock is taken. As at checkout, a cart needs an address
 * while a shipping class is on offer; with none on offer, one without an address has no delivery fee.
 * It also lists the shipping classes on offer, so the cart can offer the choice. Amounts are in each
 * order's own currency (DESIGN D14).
 */
import type { FastifyInstance } from 'fastify';
import { bodyOf, type AppContext } from '../context';
import { badRequest } from '../errors';
import { requireCaller } from '../guard';
import { isObject } from '../records';
import { deliveryOf, priceCart, totalOf } from '../hooks/orders';
import { chooseClass, shippingClasses } from '../hooks/orders/delivery';
import { ok } from './common';

/** A cart spans at most this many shops. */
export const MAX_SHOPS = 20;
const PARTS = ['city', 'state', 'country'] as const;

/** The place of a quote's delivery address (city, state, country; a country needed), or null when none is sent. */
function readPlace(given: unknown): Record<string, string> | null {
  if (given === undefined || given === null) return null;
  if (!isObject(given)) throw badRequest('shipping address must be {street_name, city, state, country, zip}');
  const address: Record<string, string> = {};
  for (const part of PARTS) {
    const value = given[part] ?? '';
    if ((typeof value !== 'string' && typeof value !== 'number') || String(value).length > 255) {
      throw badRequest(`shipping address ${part} must be a text of at most 255 characters`);
    }
    address[part] = String(value).trim();
  }
  if (!address.country) throw badRequest('shipping address needs a country');
  return address;
}

export async function quoteRoutes(app: FastifyInstance, { db, config }: AppContext) {
  if (config.strict) return;
  app.post('/order/quote', async (request) => {
    const caller = requireCaller(request.caller);
    const body = bodyOf(request);
    const orders = body.orders ?? [];
    if (!Array.isArray(orders) || orders.length > MAX_SHOPS || !orders.every(isObject)) {
      throw badRequest(`orders must list at most ${MAX_SHOPS} parts of a cart, each {shop_id, items}`);
    }
    const classes = await shippingClasses(db);
    const shipping = await chooseClass(db, body.shipping_id);
    if (!orders.length) return ok({ HLL: { classes, shipping_id: shipping?.id ?? null, quotes: [] } });
    // Without an address, as at checkout: refused while a class is on offer, else no delivery fee (deliveryOf).
    const address = readPlace(body.shipping_address);
    const quotes = [];
    for (const part of orders) {
      const priced = await priceCart(db, caller, part.shop_id, part.items);
      const { delivery_fee, logistics } = await deliveryOf(db, priced, address, shipping?.id);
      quotes.push({
        shop_id: Number(priced.shop.id), shop_name: priced.shop.name, currency: priced.currency,
        amount: priced.amount, delivery_fee, total: totalOf(priced, delivery_fee), logistics,
      });
    }
    return ok({ HLL: { classes, shipping_id: shipping?.id ?? null, quotes } });
  });
}
