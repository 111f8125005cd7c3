/**
 * Orders (SPEC §3.5, §4.5, §4.9).
 * - Placing an order (a create through POST /order) is a checkout: any signed-in user buys from one
 *   shop; the server sets the buyer, 'New Order', the items' prices from the products (never from the
 *   client), the totals and a reference, and takes the quantities off the stock. The order is placed
 *   unpaid (no payment gateway): paid_total is 0.
 * - A seller moves the orders of their shops through the statuses; amounts, customer and items are
 *   not theirs to change. Nobody changes an order's buyer, shop or items once it is placed.
 * - Every status change is recorded in the order's timeline (orderEvents): who, from, to, when.
 * - Stock (docs/decisions.md, "Stock held by unpaid orders"): checkout takes it atomically (a conditional
 *   UPDATE, so concurrent checkouts never sell the last item twice); a buyer holds at most
 *   ORDER_MAX_PER_BUYER of a product in unpaid open orders; an unpaid New Order holds its stock for
 *   ORDER_HOLD_MINUTES, then the sweep cancels it with the reason 'hold_expired'; cancelling gives
 *   the stock back exactly once (stock_returned_at), reopening a cancelled order takes it again; a
 *   paid order, once cancelled (its payment refunded), is not reopened.
 * - Money (server/ledger/): each line keeps its category's commission rate as it was at checkout; a
 *   save that makes the order paid, delivers or cancels it moves its earnings in the same transaction.
 */
import { randomBytes } from 'node:crypto';
import { KIND_LIMITS, convert, currencyCode, minorText, toMinor, type Rate } from '../../contract';
import { dialectOf, now, type DB, type Row } from '../db';
import { badRequest, forbidden } from '../errors';
import { isObject } from '../records';
import { queueMail } from '../mail';
import type { Caller } from '../auth';
import type { NamedPlace } from '../routes/directory';
import { chooseClass, deliveryFor } from './orders/delivery';
import { commissionRates, earningFor, followOrder } from '../ledger/earnings';
import { demoLedger } from '../ledger/demo';
import { dueOf, pastDue, sweepEach, type Due } from '../sweeps';
import type { EntityHooks, HookContext, SweepContext } from './types';

export const MAX_ITEMS = 100;
export const MAX_QUANTITY = 1000;
/** The stock rule's defaults, when ORDER_HOLD_MINUTES and ORDER_MAX_PER_BUYER are not set. */
export const ORDER_DEFAULTS = { holdMinutes: 60, maxPerBuyer: 10 } as const;
const NEW_ORDER = 1;
const DELIVERED = 5;
const CANCELLED = 6;
/** The reason the timeline gives when the sweep cancels an order whose hold ended. */
export const HOLD_EXPIRED = 'hold_expired';
/** What an order keeps of the buyer's choice: the rest is the server's. */
const BUYER_FIELDS = ['shop_id', 'shipping_address', 'billing_address', 'customer_contact', 'parent_id'] as const;
/** Fixed once the order is placed, for everyone. */
const PLACED = ['shop_id', 'customer_id', 'items', 'currency', 'amount', 'total', 'total_fxws', 'number_of_items'] as const;
const ADDRESS_PARTS = ['street_name', 'city', 'state', 'country', 'zip'] as const;
/** An order's logistics when the marketplace offers no shipping class. */
export const NO_DELIVERY = 'To be arranged by the seller';
/** Refused when a class is on offer and no address is sent: delivery is charged to the address, so it cannot be skipped. */
export const ADDRESS_REQUIRED = 'shipping address is required: the delivery fee is worked out from it';

export interface Wanted {
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
export const round2 = (x: number) => Math.round(x * 100) / 100;

/** One shop's part of a cart, priced by the server: its lines, their sum and the currency they are in. */
export interface Priced {
  shop: Row;
  wanted: Wanted[];
  items: Row[];
  /** The items' sum, in `currency`, rounded to the cent. */
  amount: number;
  currency: string;
  rates: Rate[];
}

/**
 * Prices one shop's part of a cart for a buyer (a checkout, or a quote before paying): the shop must
 * be active and not the buyer's own, every product sold by it, for sale and in stock; each line is
 * charged the sale price, else the price, in the first product's currency.
 */
export async function priceCart(db: DB, caller: Caller, shopIdGiven: unknown, itemsGiven: unknown): Promise<Priced> {
  const shopId = Number(shopIdGiven);
  if (!Number.isSafeInteger(shopId) || shopId < 1) throw badRequest('shop id is required');
  const shop = await db
    .selectFrom('shops')
    .select(['id', 'name', 'owner_id', 'is_active', 'country', 'state', 'city'])
    .where('id', '=', shopId)
    .executeTakeFirst();
  if (!shop) throw badRequest(`shop id ${shopId} does not match any shop`);
  if (Number(shop.is_active) !== 1) throw badRequest('This shop is not taking orders');
  if (Number(shop.owner_id) === caller.id) throw forbidden('You cannot order from your own shop');

  const wanted = readItems(itemsGiven);
  const products = await db
    .selectFrom('products')
    .select(['id', 'name', 'sku', 'price', 'sale_price', 'currency', 'in_stock', 'state', 'shop_id', 'category_id'])
    .where('id', 'in', wanted.map((w) => w.product_id))
    .execute();
  const byId = new Map(products.map((p) => [Number(p.id), p]));
  const commissions = await commissionRates(db, products.map((p) => Number(p.category_id)));
  const rates = (await db.selectFrom('exchanges').select(['code', 'value_per_dollar', 'currency_symbol']).execute()) as Rate[];
  const currency = currencyCode(byId.get(wanted[0].product_id)?.currency);
  const items: Row[] = [];
  let amount = 0;
  for (const w of wanted) {
    const p = byId.get(w.product_id);
    if (!p || Number(p.shop_id) !== shopId) throw badRequest(`Product ${w.product_id} is not sold by this shop`);
    if (p.state !== 'active') throw badRequest(`${String(p.name)} is not for sale`);
    if (p.in_stock !== null && Number(p.in_stock) < w.quantity) throw outOfStock(p);
    // The price paid: the sale price when there is one, else the price (SPEC §3.4), in the product's currency.
    // Charged to the cent, as the ledger counts it: a price of 0.125 is charged 0.13 a unit.
    const own = round2(Number(p.sale_price) > 0 ? Number(p.sale_price) : Number(p.price ?? 0));
    const pCurrency = currencyCode(p.currency);
    const price = pCurrency === currency ? own : convert(own, pCurrency, currency, rates);
    if (pCurrency !== currency && price === 0 && own !== 0) throw badRequest(`No exchange rate for ${pCurrency}`);
    amount += price * w.quantity;
    // The commission is frozen on the line at the sale: a later change of the category's rate does not touch it.
    const commission_rate = commissions.get(Number(p.category_id)) ?? 0;
    items.push({ product_id: w.product_id, name: p.name, sku: p.sku ?? null, quantity: w.quantity, price, currency, commission_rate });
  }
  return { shop, wanted, items, amount: round2(amount), currency, rates };
}

/**
 * The most an order may total, in minor units: 10,000,000,000,000.00 of its currency. Its minor units
 * stay whole numbers JavaScript counts exactly (below 2^53), with room for a shop's balance to hold
 * several such orders; an order above it could be placed but never paid (its sale cannot be posted).
 */
export const MAX_ORDER_MINOR = 10 ** 15;

/** What the buyer pays for a priced part of a cart: its items and delivery, refused above MAX_ORDER_MINOR. */
export function totalOf(priced: Priced, deliveryFee: number): number {
  const total = round2(priced.amount + deliveryFee);
  if (toMinor(total) > MAX_ORDER_MINOR) throw badRequest(`An order can total at most ${minorText(MAX_ORDER_MINOR)} ${priced.currency}`);
  return total;
}

/** A delivery address's place (country, state, city), as the fee reads it. */
export const placeOf = (address: Record<string, unknown>): NamedPlace => ({
  country: String(address.country ?? ''), state: String(address.state ?? ''), city: String(address.city ?? ''),
});

/**
 * The delivery of a priced part of a cart by the chosen shipping class (else the cheapest on offer);
 * with no class on offer, delivery is left to the seller at no fee. While a class is on offer an
 * address is needed (null: none was sent): a client cannot skip the fee, nor the delivery-country rule.
 */
export async function deliveryOf(db: DB, priced: Priced, address: Record<string, unknown> | null, shippingId: unknown) {
  const shipping = await chooseClass(db, shippingId);
  if (!shipping) return { delivery_fee: 0, logistics: NO_DELIVERY };
  if (!address) throw badRequest(ADDRESS_REQUIRED);
  const delivery = await deliveryFor(db, priced.shop, placeOf(address), shipping, priced.currency, priced.rates);
  return { delivery_fee: delivery.delivery_fee, logistics: delivery.logistics, delivery };
}

async function checkout(ctx: HookContext, values: Row, body: Row): Promise<Row> {
  const { db, caller } = ctx;
  if (!caller) throw forbidden('Sign in to place an order');
  const priced = await priceCart(db, caller, values.shop_id, body.items);
  const { wanted, items, currency } = priced;
  const held = await heldBy(db, caller.id, wanted);
  const cap = ctx.config.orderMaxPerBuyer ?? ORDER_DEFAULTS.maxPerBuyer;
  for (const w of wanted) {
    const already = held.get(w.product_id) ?? 0;
    if (already + w.quantity > cap) {
      const name = String(items.find((it) => it.product_id === w.product_id)?.name);
      throw badRequest(
        already
          ? `You can hold at most ${cap} of ${name} in unpaid orders (your unpaid orders already hold ${already})`
          : `You can hold at most ${cap} of ${name} in unpaid orders`,
      );
    }
  }
  const shippingAddress = readAddress(body.shipping_address, 'shipping address');
  // The fee is the server's: whatever delivery_fee or logistics the client sent is not read. Without
  // an address the order goes without delivery only when no class is on offer.
  const { delivery_fee, logistics } = await deliveryOf(db, priced, shippingAddress ? (JSON.parse(shippingAddress) as Row) : null, body.shipping_id);
  // What the buyer pays: the items and the delivery, both in the order's currency.
  const total = totalOf(priced, delivery_fee);
  await takeStock(db, items);

  // A checkout over several shops places one order per shop, the later ones naming the first as parent.
  let parent: number | null = null;
  if (values.parent_id !== undefined && values.parent_id !== null) {
    const first = await db.selectFrom('orders').select(['id', 'customer_id']).where('id', '=', Number(values.parent_id)).executeTakeFirst();
    if (!first || Number(first.customer_id) !== caller.id) throw badRequest('parent id must be one of your own orders');
    parent = Number(first.id);
  }
  return {
    ...Object.fromEntries(BUYER_FIELDS.map((k) => [k, values[k] ?? null])),
    shipping_address: shippingAddress,
    billing_address: readAddress(body.billing_address, 'billing address'),
    parent_id: parent,
    customer_id: caller.id,
    status: 1,
    items: JSON.stringify(items),
    number_of_items: wanted.reduce((sum, w) => sum + w.quantity, 0),
    currency,
    amount: priced.amount,
    sales_tax: 0,
    discount: 0,
    delivery_fee,
    total,
    total_fxws: total,
    paid_total: 0,
    paid_total_fxws: 0,
    payment_gateway: 'Unpaid',
    tracking_number: reference(),
    logistics,
    dispatch_status: 'pending',
    is_active: 1,
    hold_until: holdUntil(ctx),
  };
}

const iso = (ms: number) => new Date(ms).toISOString();
const holdUntil = (ctx: HookContext) => iso(ctx.clock() + (ctx.config.orderHoldMinutes ?? ORDER_DEFAULTS.holdMinutes) * 60_000);
const outOfStock = (p: Row) => badRequest(`Only ${Math.max(0, Number(p.in_stock ?? 0))} of ${String(p.name)} left in stock`);

interface Line {
  product_id: number;
  quantity: number;
}

/** An order's lines {product_id, quantity}, in product order (so concurrent writers lock rows in one order). */
function linesOf(items: unknown): Line[] {
  let list = items;
  if (typeof list === 'string') {
    try {
      list = JSON.parse(list);
    } catch {
      return [];
    }
  }
  if (!Array.isArray(list)) return [];
  return list
    .filter(isObject)
    .map((it) => ({ product_id: Number(it.product_id), quantity: Number(it.quantity) }))
    .filter((it) => Number.isSafeInteger(it.product_id) && Number.isInteger(it.quantity) && it.quantity > 0)
    .sort((a, b) => a.product_id - b.product_id);
}

/**
 * How many of each wanted product the buyer's unpaid open orders (not delivered, not cancelled)
 * already hold. On PostgreSQL the buyer's row is locked first, so two checkouts of one buyer count
 * one after the other (SQLite runs one write transaction at a time).
 */
async function heldBy(db: DB, buyer: number, wanted: readonly Line[]): Promise<Map<number, number>> {
  if (dialectOf(db) === 'postgres') await db.selectFrom('users').select('id').where('id', '=', buyer).forUpdate().execute();
  const open = await db
    .selectFrom('orders')
    .select('items')
    .where('customer_id', '=', buyer)
    .where('status', 'not in', [DELIVERED, CANCELLED])
    .where('paid_total', '=', 0)
    .where('stock_returned_at', 'is', null)
    .execute();
  const ids = new Set(wanted.map((w) => w.product_id));
  const held = new Map<number, number>();
  for (const line of open.flatMap((o) => linesOf(o.items))) {
    if (ids.has(line.product_id)) held.set(line.product_id, (held.get(line.product_id) ?? 0) + line.quantity);
  }
  return held;
}

/**
 * Takes an order's quantities off the stock, each in one conditional UPDATE: of concurrent checkouts
 * for the last items only those the stock covers succeed; the others are refused, and their
 * transaction undoes what it took. Products without a stock count (in_stock null) are not counted.
 */
async function takeStock(db: DB, items: unknown) {
  const stamp = now();
  for (const line of linesOf(items)) {
    const taken = await db
      .updateTable('products')
      .set((eb) => ({ in_stock: eb('in_stock', '-', line.quantity), updated_at: stamp }))
      .where('id', '=', line.product_id)
      .where('in_stock', '>=', line.quantity)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) === 1) continue;
    const p = await db.selectFrom('products').select(['name', 'in_stock']).where('id', '=', line.product_id).executeTakeFirst();
    if (p && p.in_stock !== null) throw outOfStock(p);
  }
}

/** The most a stock count holds: what its integer column holds on both databases. */
export const MAX_STOCK = KIND_LIMITS.int.maximum!;

/**
 * Puts an order's quantities back on sale (products since deleted are skipped), up to MAX_STOCK: a
 * seller may have set the stock to the most it holds since the order took its part, and giving more
 * back would fail on PostgreSQL and stop the sweep at that order.
 */
async function returnStock(db: DB, items: unknown) {
  const stamp = now();
  for (const line of linesOf(items)) {
    await db
      .updateTable('products')
      .set((eb) => ({
        in_stock: eb.case().when('in_stock', '>', MAX_STOCK - line.quantity).then(MAX_STOCK).else(eb('in_stock', '+', line.quantity)).end(),
        updated_at: stamp,
      }))
      .where('id', '=', line.product_id)
      .where('in_stock', 'is not', null)
      .execute();
  }
}

/**
 * Marks an order's stock returned, only if it was not already: of two concurrent cancellations (or
 * a cancellation and the sweep) exactly one gets true and returns the stock.
 */
async function claimReturn(db: DB, orderId: number, stamp: string): Promise<boolean> {
  const claimed = await db
    .updateTable('orders')
    .set({ stock_returned_at: stamp, hold_until: null })
    .where('id', '=', orderId)
    .where('stock_returned_at', 'is', null)
    .executeTakeFirst();
  return Number(claimed.numUpdatedRows) === 1;
}

/**
 * A status change's effect on the stock and the hold: cancelling returns the stock once; reopening
 * a cancelled order whose stock went back takes it again (refused when it is gone); an unpaid order
 * (back) at New Order holds its stock for the hold time; any other status, or a payment, ends the hold.
 */
async function followStatus(ctx: HookContext, values: Row, before: Row): Promise<Row> {
  const from = Number(before.status);
  const to = values.status === undefined ? from : Number(values.status);
  const paid = Number(values.paid_total ?? before.paid_total ?? 0) > 0;
  const out = { ...values };
  if (to === CANCELLED && from !== CANCELLED) {
    if (await claimReturn(ctx.db, Number(before.id), iso(ctx.clock()))) await returnStock(ctx.db, before.items);
    out.hold_until = null;
    return out;
  }
  if (from === CANCELLED && to !== CANCELLED && before.stock_returned_at) {
    await takeStock(ctx.db, before.items);
    out.stock_returned_at = null;
  }
  if (to === NEW_ORDER && !paid) {
    if (from !== NEW_ORDER || !before.hold_until) out.hold_until = holdUntil(ctx);
  } else if (before.hold_until) {
    out.hold_until = null;
  }
  return out;
}

/**
 * The sweep: every unpaid New Order whose hold has ended is cancelled, its stock returned and the
 * reason written in its timeline. Each order is claimed by one conditional UPDATE in its own
 * transaction, so of several processes sweeping at once exactly one releases it; an order that fails
 * is reported and left to the next run, and the others go on (server/sweeps.ts).
 */
async function releaseExpired(run: SweepContext): Promise<number> {
  const stamp = iso(run.at);
  const due = (after: Due | undefined, limit: number) => {
    let query = run.db
      .selectFrom('orders')
      .select(['id', 'hold_until as at'])
      .where('hold_until', '<=', stamp)
      .where('status', '=', NEW_ORDER);
    if (after) query = query.where(pastDue('hold_until', 'id', after));
    return query.orderBy('hold_until').orderBy('id').limit(limit).execute().then(dueOf);
  };
  return sweepEach(run, 'order', due, async (trx, id) => {
    const claimed = await trx
      .updateTable('orders')
      .set({ status: CANCELLED, hold_until: null, stock_returned_at: stamp, updated_at: stamp })
      .where('id', '=', id)
      .where('status', '=', NEW_ORDER)
      .where('hold_until', '<=', stamp)
      .where('stock_returned_at', 'is', null)
      .where('paid_total', '=', 0)
      .returning(['id', 'items', 'customer_id', 'shop_id', 'tracking_number'])
      .executeTakeFirst();
    if (!claimed) return false;
    await returnStock(trx, claimed.items);
    await trx
      .insertInto('orderEvents')
      .values({
        order_id: id, from_status: NEW_ORDER, to_status: CANCELLED, user_id: null, user_name: null,
        reason: HOLD_EXPIRED, created_at: stamp, updated_at: stamp,
      })
      .execute();
    await mailStatus(trx, claimed, NEW_ORDER, CANCELLED);
    return true;
  });
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

/** The order's buyer, its shop and the shop's seller, as its mails name them. */
async function partiesOf(db: DB, order: Row) {
  const buyer = await db.selectFrom('users').select(['name', 'email']).where('id', '=', Number(order.customer_id)).executeTakeFirst();
  const shop = await db
    .selectFrom('shops')
    .leftJoin('users', 'users.id', 'shops.owner_id')
    .select(['shops.name as shop_name', 'users.name as name', 'users.email as email'])
    .where('shops.id', '=', Number(order.shop_id))
    .executeTakeFirst();
  return { buyer, shop, reference: String(order.tracking_number ?? order.id), shopName: String(shop?.shop_name ?? '') };
}

/** A placed order's mails, in its checkout's transaction: to the buyer (ORDER_PLACED) and to the shop's seller (ORDER_RECEIVED). */
async function mailPlaced(db: DB, order: Row) {
  const { buyer, shop, reference, shopName } = await partiesOf(db, order);
  const about = { reference, shop_name: shopName, number_of_items: Number(order.number_of_items ?? 0), total: `${String(order.currency ?? '')} ${Number(order.total ?? 0).toFixed(2)}`.trim() };
  await queueMail(db, 'ORDER_PLACED', buyer?.email as string | undefined, { name: String(buyer?.name ?? ''), ...about });
  await queueMail(db, 'ORDER_RECEIVED', shop?.email as string | undefined, { name: String(shop?.name ?? ''), ...about });
}

/** The buyer's mail of a status change (ORDER_STATUS), in the change's transaction. */
async function mailStatus(db: DB, order: Row, from: unknown, to: unknown) {
  const { buyer, reference, shopName } = await partiesOf(db, order);
  const names = await db.selectFrom('orderStatuses').select(['id', 'name']).where('id', 'in', [Number(from), Number(to)]).execute();
  const nameOf = (id: unknown) => String(names.find((n) => Number(n.id) === Number(id))?.name ?? id);
  await queueMail(db, 'ORDER_STATUS', buyer?.email as string | undefined, {
    name: String(buyer?.name ?? ''), reference, shop_name: shopName, status: nameOf(to), previous_status: nameOf(from),
  });
}

/**
 * Once an order's sale is posted (paid in full: server/ledger/earnings.ts), its recorded payment is not
 * lowered by a save: a payment is undone by a refund (POST /refund), which posts the reversal. Lowered
 * here, the ledger would keep the sale pending for good, and an order back to unpaid would start holding
 * its stock again, for the sweep to cancel. Raising it, or saving it as it is, goes on.
 */
async function keepRecordedPayment(db: DB, values: Row, before: Row) {
  if (values.paid_total === undefined) return;
  const recorded = toMinor(before.paid_total);
  if (toMinor(values.paid_total) >= recorded || !(await earningFor(db, Number(before.id)))) return;
  throw badRequest(
    `A recorded payment is undone by a refund: the paid total of order ${Number(before.id)} cannot go below ${minorText(recorded)} ${currencyCode(before.currency)}`,
  );
}

/**
 * A paid order cancelled (its sale posted, then its earnings closed by the cancellation, the rest of
 * its payment refunded) stays cancelled: reopened, it would take its stock again and could be shipped
 * while the money is back with the buyer and its earnings are closed for good. An order cancelled
 * before it was paid in full may still be reopened (followStatus takes its stock again).
 */
async function keepRefundedCancelled(db: DB, values: Row, before: Row) {
  if (Number(before.status) !== CANCELLED || values.status === undefined || Number(values.status) === CANCELLED) return;
  if (!(await earningFor(db, Number(before.id)))?.closed_at) return;
  throw badRequest(`Order ${Number(before.id)} was cancelled after it was paid and its payment refunded: it stays cancelled; place a new order`);
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
    await keepRecordedPayment(ctx.db, values, before);
    await keepRefundedCancelled(ctx.db, values, before);
    // paid_total_fxws holds paid_total's amount (docs/decisions.md, "Amount fields"): it is what the
    // dashboard adds up, so a payment recorded in paid_total counts there too, and nothing else sets it.
    if (values.paid_total !== undefined || values.paid_total_fxws !== undefined) {
      values.paid_total_fxws = values.paid_total !== undefined ? values.paid_total : (before.paid_total ?? null);
    }
    if (values.status !== undefined && Number(values.status) !== Number(before.status)) {
      await record(ctx.db, ctx, Number(before.id), before.status, values.status);
      await mailStatus(ctx.db, before, before.status, values.status);
    }
    const shaped = await followStatus(ctx, values, before);
    await followOrder(ctx.db, { ...before, ...shaped }, before, ctx.clock(), { holdDays: ctx.config.payoutHoldDays }, ctx.caller?.id ?? null);
    return shaped;
  },

  async afterWrite(ctx, row) {
    // A new order's first line of history: placed as 'New Order'.
    const has = await ctx.db.selectFrom('orderEvents').select('id').where('order_id', '=', Number(row.id)).executeTakeFirst();
    if (!has) {
      await record(ctx.db, ctx, Number(row.id), null, row.status);
      await mailPlaced(ctx.db, row);
    }
  },

  sweep: releaseExpired,

  // The demo orders' money: earnings, a refund, payouts (server/ledger/demo.ts).
  async afterDemo({ db, now: at }, rows) {
    await demoLedger(db, rows.map((row) => Number(row.id)), at);
  },
};
