/**
 * Orders (SPEC §3.5, §4.5, §4.9).
 * - Placing an order (a create through POST /order) is a checkout: any signed-in user buys from one
 *   shop; the server sets the buyer, 'New Order', the items' prices from the products (never from the
 *   client), the totals and a reference, and takes the quantities off the stock. The order is placed
 *   unpaid (no payment gateway): paid_total is 0.
 * - A seller moves the orders of their shops through the statuses; amounts, customer and items are
 *   not theirs to change. Nobody changes an order's buyer, shop or items once it is placed.
 * - Every status change is recorded in the order's timeline (orderEvents): who, from, to, when.
 */
import { randomBytes } from 'node:crypto';
import { convert, type Rate } from '../../contract';
import { now, type DB, type Row } from '../db';
import { badRequest, forbidden } from '../errors';
import { isObject } from '../records';
import type { EntityHooks, HookContext } from './types';

export const MAX_ITEMS = 100;
export const MAX_QUANTITY = 1000;
/** What an order keeps of the buyer's choice: the rest is the server's. */
const BUYER_FIELDS = ['shop_id', 'shipping_address', 'billing_address', 'customer_contact', 'parent_id'] as const;
/** Fixed once the order is placed, for everyone. */
const PLACED = ['shop_id', 'customer_id', 'items', 'currency', 'amount', 'total', 'total_fxws', 'number_of_items'] as const;
const ADDRESS_PARTS = ['street_name', 'city', 'state', 'country', 'zip'] as const;

interface Wanted {
  product_id: number;
  quantity: number;
}

/** The basket of a checkout: 1 to 100 lines of {product_id (or id), quantity 1–1000}, each product once. */
export function readItems(value: unknown): Wanted[] {
  if (!Array.isArray(value) || value.length === 0) throw badRequest('items must list the products bought');
  if (value.length > MAX_ITEMS) throw badRequest(`An order holds at most ${MAX_ITEMS} products`);
  const seen = new Map<number, Wanted>();
  for (const line of value) {
    if (!isObject(line)) throw badRequest('Each item must be {product_id, quantity}');
    const id = Number(line.product_id ?? line.id);
    const quantity = Number(line.quantity ?? 1);
    if (!Number.isSafeInteger(id) || id < 1) throw badRequest('Each item needs a product_id');
    if (!Number.isInteger(quantity) || quantity < 1 || quantity > MAX_QUANTITY) {
      throw badRequest(`quantity must be a whole number from 1 to ${MAX_QUANTITY}`);
    }
    const same = seen.get(id);
    if (same) same.quantity += quantity;
    else seen.set(id, { product_id: id, quantity });
  }
  return [...seen.values()];
}

/** A shipping address {street_name, city, state, country, zip} of short texts; street and country needed. */
function readAddress(value: unknown, what: string): string | null {
  if (value === undefined || value === null) return null;
  if (!isObject(value)) throw badRequest(`${what} must be {street_name, city, state, country, zip}`);
  const out: Record<string, string> = {};
  for (const part of ADDRESS_PARTS) {
    const text = value[part] ?? '';
    if (typeof text !== 'string' && typeof text !== 'number') throw badRequest(`${what} ${part} must be text`);
    if (String(text).length > 255) throw badRequest(`${what} ${part} must be at most 255 characters`);
    out[part] = String(text).trim();
  }
  if (!out.street_name || !out.country) throw badRequest(`${what} needs a street name and a country`);
  return JSON.stringify(out);
}

const reference = () => `MP-${randomBytes(5).toString('hex').toUpperCase()}`;
const round2 = (x: number) => Math.round(x * 100) / 100;

async function checkout(ctx: HookContext, values: Row, body: Row): Promise<Row> {
  const { db, caller } = ctx;
  if (!caller) throw forbidden('Sign in to place an order');
  const shopId = Number(values.shop_id);
  const shop = await db.selectFrom('shops').select(['id', 'owner_id', 'is_active']).where('id', '=', shopId).executeTakeFirst();
  if (!shop) throw badRequest(`shop id ${shopId} does not match any shop`);
  if (Number(shop.is_active) !== 1) throw badRequest('This shop is not taking orders');
  if (Number(shop.owner_id) === caller.id) throw forbidden('You cannot order from your own shop');

  const wanted = readItems(body.items);
  const products = await db
    .selectFrom('products')
    .select(['id', 'name', 'sku', 'price', 'sale_price', 'currency', 'in_stock', 'state', 'shop_id'])
    .where('id', 'in', wanted.map((w) => w.product_id))
    .execute();
  const byId = new Map(products.map((p) => [Number(p.id), p]));
  const rates = (await db.selectFrom('exchanges').select(['code', 'value_per_dollar', 'currency_symbol']).execute()) as Rate[];
  const currency = String(byId.get(wanted[0].product_id)?.currency || 'USD');
  const items: Row[] = [];
  let amount = 0;
  for (const w of wanted) {
    const p = byId.get(w.product_id);
    if (!p || Number(p.shop_id) !== shopId) throw badRequest(`Product ${w.product_id} is not sold by this shop`);
    if (p.state !== 'active') throw badRequest(`${String(p.name)} is not for sale`);
    if (p.in_stock !== null && Number(p.in_stock) < w.quantity) {
      throw badRequest(`Only ${Math.max(0, Number(p.in_stock))} of ${String(p.name)} left in stock`);
    }
    // The price paid: the sale price when there is one, else the price (SPEC §3.4), in the product's currency.
    const own = Number(p.sale_price) > 0 ? Number(p.sale_price) : Number(p.price ?? 0);
    const pCurrency = String(p.currency || 'USD');
    const price = pCurrency === currency ? own : convert(own, pCurrency, currency, rates);
    if (pCurrency !== currency && price === 0 && own !== 0) throw badRequest(`No exchange rate for ${pCurrency}`);
    amount += price * w.quantity;
    items.push({ product_id: w.product_id, name: p.name, sku: p.sku ?? null, quantity: w.quantity, price, currency });
    if (p.in_stock !== null) {
      await db.updateTable('products').set({ in_stock: Number(p.in_stock) - w.quantity, updated_at: now() }).where('id', '=', w.product_id).execute();
    }
  }

  // A checkout over several shops places one order per shop, the later ones naming the first as parent.
  let parent: number | null = null;
  if (values.parent_id !== undefined && values.parent_id !== null) {
    const first = await db.selectFrom('orders').select(['id', 'customer_id']).where('id', '=', Number(values.parent_id)).executeTakeFirst();
    if (!first || Number(first.customer_id) !== caller.id) throw badRequest('parent id must be one of your own orders');
    parent = Number(first.id);
  }
  const total = round2(amount);
  return {
    ...Object.fromEntries(BUYER_FIELDS.map((k) => [k, values[k] ?? null])),
    shipping_address: readAddress(body.shipping_address, 'shipping address'),
    billing_address: readAddress(body.billing_address, 'billing address'),
    parent_id: parent,
    customer_id: caller.id,
    status: 1,
    items: JSON.stringify(items),
    number_of_items: wanted.reduce((sum, w) => sum + w.quantity, 0),
    currency,
    amount: total,
    sales_tax: 0,
    discount: 0,
    delivery_fee: 0,
    total,
    total_fxws: total,
    paid_total: 0,
    paid_total_fxws: 0,
    payment_gateway: 'Unpaid',
    tracking_number: reference(),
    logistics: 'To be arranged by the seller',
    dispatch_status: 'pending',
    is_active: 1,
  };
}

async function record(db: DB, ctx: HookContext, orderId: number, from: unknown, to: unknown) {
  await db
    .insertInto('orderEvents')
    .values({
      order_id: orderId,
      from_status: from === null || from === undefined ? null : Number(from),
      to_status: Number(to),
      user_id: ctx.caller?.id ?? null,
      user_name: ctx.caller ? String(ctx.caller.user.name ?? '') : null,
      created_at: now(),
      updated_at: now(),
    })
    .execute();
}

export const hooks: EntityHooks = {
  async beforeWrite(ctx, values, before, body) {
    if (!before) return checkout(ctx, values, body);
    if (ctx.scope.kind === 'own') {
      const other = Object.keys(values).filter((key) => key !== 'status' && values[key] !== (before[key] ?? null));
      if (other.length) throw forbidden('A seller can only change the status of an order');
    }
    const fixed = PLACED.filter((key) => values[key] !== undefined && values[key] !== (before[key] ?? null));
    if (fixed.length) throw forbidden(`The ${fixed.join(', ').replace(/_/g, ' ')} of a placed order cannot be changed`);
    if (values.status !== undefined && Number(values.status) !== Number(before.status)) {
      await record(ctx.db, ctx, Number(before.id), before.status, values.status);
    }
    return values;
  },

  async afterWrite(ctx, row) {
    // A new order's first line of history: placed as 'New Order'.
    const has = await ctx.db.selectFrom('orderEvents').select('id').where('order_id', '=', Number(row.id)).executeTakeFirst();
    if (!has) await record(ctx.db, ctx, Number(row.id), null, row.status);
  },
};
