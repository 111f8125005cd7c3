/**
 * What an order earns (issue 28): when it is paid, each line posts the seller's share and the
 * marketplace's commission (the line's total × its category's commission_flat_rate, frozen on the
 * line when the order was placed); the delivery fee is the seller's. Earnings stay pending until the
 * order is delivered plus PAYOUT_HOLD_DAYS, then become available; a cancelled order's never do.
 * A refund reverses the seller's share and the commission in proportion, from pending or available
 * (available may go below zero: a debt the next payout nets).
 */
import { currencyCode, DEFAULT_PAYOUT_HOLD_DAYS, percentOf, toMinor, type EarnedLine } from '../../contract';
import { badRequest, conflict, notFound } from '../errors';
import { dialectOf, type DB, type Row } from '../db';
import { isObject } from '../records';
import { post } from './core';
import { dueOf, pastDue, sweepEach, type Due, type SweepRun } from '../sweeps';

const DELIVERED = 5;
const CANCELLED = 6;
const DAY_MS = 24 * 3600_000;

/** The reason a cancellation's refund gives. */
export const CANCELLED_REASON = 'Order cancelled';

/**
 * An order's delivery fee in minor units, in the order's currency and included in its total. The one
 * place the ledger reads it: a missing column or value is 0.
 */
export const deliveryFeeOf = (order: Row): number => Math.max(0, toMinor(order.delivery_fee ?? 0));

/** Categories' commission_flat_rate (%) by id, for freezing on an order's lines when it is placed. */
export async function commissionRates(db: DB, categoryIds: readonly number[]): Promise<Map<number, number>> {
  const ids = [...new Set(categoryIds.filter((c) => Number.isSafeInteger(c) && c > 0))];
  if (!ids.length) return new Map();
  const rows = await db.selectFrom('categories').select(['id', 'commission_flat_rate']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [Number(r.id), rateOf(r.commission_flat_rate)]));
}

const rateOf = (value: unknown) => {
  const rate = Number(value ?? 0);
  return Number.isFinite(rate) && rate > 0 ? Math.min(rate, 100) : 0;
};

interface StoredLine extends EarnedLine {
  /** How many of the line were refunded. */
  refunded_quantity: number;
}

interface Earning {
  order_id: number;
  shop_id: number;
  currency: string;
  gross: number;
  commission: number;
  seller: number;
  delivery_fee: number;
  lines: StoredLine[];
  delivered_at: string | null;
  release_at: string | null;
  released_at: string | null;
  closed_at: string | null;
  refunded: number;
  refunded_commission: number;
  refunded_seller: number;
  fee_refunded: number;
}

function parseLines(value: unknown): Row[] {
  let list = value;
  if (typeof list === 'string') {
    try {
      list = JSON.parse(list);
    } catch {
      return [];
    }
  }
  return Array.isArray(list) ? list.filter(isObject) : [];
}

const earningOf = (row: Row): Earning => ({
  order_id: Number(row.order_id), shop_id: Number(row.shop_id), currency: String(row.currency), gross: Number(row.gross),
  commission: Number(row.commission), seller: Number(row.seller), delivery_fee: Number(row.delivery_fee ?? 0),
  lines: parseLines(row.lines) as unknown as StoredLine[], delivered_at: (row.delivered_at as string | null) ?? null,
  release_at: (row.release_at as string | null) ?? null, released_at: (row.released_at as string | null) ?? null,
  closed_at: (row.closed_at as string | null) ?? null, refunded: Number(row.refunded ?? 0),
  refunded_commission: Number(row.refunded_commission ?? 0), refunded_seller: Number(row.refunded_seller ?? 0),
  fee_refunded: Number(row.fee_refunded ?? 0),
});

/** An order's earnings, locked on PostgreSQL for the rest of the transaction (refunds, releases). */
export async function earningFor(db: DB, orderId: number, lock = false): Promise<Earning | undefined> {
  let query = db.selectFrom('order_earnings').selectAll().where('order_id', '=', orderId);
  if (lock && dialectOf(db) === 'postgres') query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row ? earningOf(row) : undefined;
}

/** Whether an order counts as paid: paid_total reaches a total above zero. */
export const isPaid = (order: Row) => toMinor(order.total) > 0 && toMinor(order.paid_total) >= toMinor(order.total);

/** The lines of a paid order with their commission, from the items priced at checkout. */
async function linesOf(db: DB, order: Row): Promise<StoredLine[]> {
  const items = parseLines(order.items);
  // Lines placed before rates were frozen take their category's rate at payment, and freeze it now.
  const unfrozen = items.filter((it) => it.commission_rate === undefined || it.commission_rate === null).map((it) => Number(it.product_id));
  const categoryOf = new Map<number, number>();
  if (unfrozen.length) {
    const products = await db.selectFrom('products').select(['id', 'category_id']).where('id', 'in', unfrozen).execute();
    for (const p of products) categoryOf.set(Number(p.id), Number(p.category_id));
  }
  const rates = await commissionRates(db, [...categoryOf.values()]);
  return items.map((it) => {
    const quantity = Math.max(0, Math.trunc(Number(it.quantity ?? 0)));
    const amount = toMinor(it.price) * quantity;
    const rate = it.commission_rate === undefined || it.commission_rate === null
      ? rates.get(categoryOf.get(Number(it.product_id)) ?? 0) ?? 0
      : rateOf(it.commission_rate);
    const commission = Math.min(amount, percentOf(amount, rate));
    return { product_id: Number(it.product_id), quantity, amount, rate, commission, net: amount - commission, refunded_quantity: 0 };
  });
}

export interface LedgerSettings {
  /** Days earnings stay pending after delivery (PAYOUT_HOLD_DAYS). */
  holdDays?: number;
}

/**
 * Follows an order's save or status change (in its transaction): paid → earned; delivered → the
 * hold starts (and ends at once with a hold of 0 days); moved back from delivered → the hold stops;
 * cancelled → whatever is left is refunded and never becomes available.
 */
export async function followOrder(db: DB, order: Row, before: Row | undefined, at: number, settings: LedgerSettings, by: number | null) {
  const stamp = new Date(at).toISOString();
  const status = Number(order.status);
  let earning = await earningFor(db, Number(order.id), true);
  if (!earning && isPaid(order) && status !== CANCELLED) {
    await earn(db, order, stamp, by);
    earning = await earningFor(db, Number(order.id));
  }
  if (!earning || earning.closed_at) return;
  if (status === CANCELLED) {
    if (earning.gross - earning.refunded > 0) await refund(db, { orderId: earning.order_id, reason: CANCELLED_REASON, by, at: stamp });
    await db.updateTable('order_earnings').set({ closed_at: stamp, release_at: null }).where('order_id', '=', earning.order_id).execute();
    return;
  }
  if (earning.released_at) return;
  if (status === DELIVERED && !earning.delivered_at) {
    const days = settings.holdDays ?? DEFAULT_PAYOUT_HOLD_DAYS;
    const releaseAt = new Date(at + days * DAY_MS).toISOString();
    await db.updateTable('order_earnings').set({ delivered_at: stamp, release_at: releaseAt }).where('order_id', '=', earning.order_id).execute();
    if (releaseAt <= stamp) await release(db, earning.order_id, at);
  } else if (status !== DELIVERED && earning.delivered_at && before && Number(before.status) === DELIVERED) {
    await db.updateTable('order_earnings').set({ delivered_at: null, release_at: null }).where('order_id', '=', earning.order_id).execute();
  }
}

/** Posts a paid order's sale: buyers' payment in, the seller's share pending, the commission earned. */
async function earn(db: DB, order: Row, stamp: string, by: number | null) {
  const orderId = Number(order.id);
  const shopId = Number(order.shop_id);
  const currency = currencyCode(order.currency);
  const gross = toMinor(order.total);
  const lines = await linesOf(db, order);
  const commission = Math.min(gross, lines.reduce((sum, l) => sum + l.commission, 0));
  const seller = gross - commission;
  const made = await db
    .insertInto('order_earnings')
    .values({
      order_id: orderId, shop_id: shopId, currency, gross, commission, seller, delivery_fee: deliveryFeeOf(order),
      lines: JSON.stringify(lines), paid_at: stamp, refunded: 0, refunded_commission: 0, refunded_seller: 0, fee_refunded: 0,
    })
    .onConflict((oc) => oc.column('order_id').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!made) return;
  await post(db, {
    key: `sale:${orderId}`, kind: 'sale', currency, shopId, orderId, by, at: stamp,
    postings: [
      { account: 'buyer_payments', shopId, amount: -gross },
      { account: 'pending', shopId, amount: seller },
      { account: 'commission', shopId, amount: commission },
    ],
  });
}

/**
 * Moves an order's pending earnings to available, once: the claim is one conditional UPDATE, so of
 * several processes releasing at once exactly one posts. Answers whether it released.
 */
export async function release(db: DB, orderId: number, at: number): Promise<boolean> {
  const stamp = new Date(at).toISOString();
  const claimed = await db
    .updateTable('order_earnings')
    .set({ released_at: stamp })
    .where('order_id', '=', orderId)
    .where('released_at', 'is', null)
    .where('closed_at', 'is', null)
    .where('release_at', '<=', stamp)
    .returning(['shop_id', 'currency', 'seller', 'refunded_seller'])
    .executeTakeFirst();
  if (!claimed) return false;
  const shopId = Number(claimed.shop_id);
  const amount = Number(claimed.seller) - Number(claimed.refunded_seller);
  await post(db, {
    key: `release:${orderId}`, kind: 'release', currency: String(claimed.currency), shopId, orderId, at: stamp,
    postings: [
      { account: 'pending', shopId, amount: -amount },
      { account: 'available', shopId, amount },
    ],
  });
  return true;
}

/**
 * Releases every order whose hold has ended, each in its own transaction; answers how many. An order
 * that fails is reported and left to the next run, and the others go on (server/sweeps.ts); without
 * `report`, the first failure is thrown.
 */
export async function releaseDue(db: DB, at: number, run: Partial<Omit<SweepRun, 'db'>> = {}): Promise<number> {
  const stamp = new Date(at).toISOString();
  const due = (after: Due | undefined, limit: number) => {
    let query = db
      .selectFrom('order_earnings')
      .select(['order_id as id', 'release_at as at'])
      .where('release_at', '<=', stamp)
      .where('released_at', 'is', null)
      .where('closed_at', 'is', null);
    if (after) query = query.where(pastDue('release_at', 'order_id', after));
    return query.orderBy('release_at').orderBy('order_id').limit(limit).execute().then(dueOf);
  };
  const report = run.report ?? ((error: unknown) => { throw error; });
  return sweepEach({ db, report, stopping: run.stopping }, 'the earnings of order', due, (trx, orderId) => release(trx, orderId, at));
}

export interface RefundRequest {
  orderId: number;
  /** Some lines of the order; the whole of what is left when absent. */
  lines?: readonly { product_id: number; quantity: number }[];
  reason: string;
  by: number | null;
  at: string;
}

/** A refund made: its id, amount (minor units) and currency, the order's shop, and the units refunded per line. */
export interface RefundMade {
  id: number;
  amount: number;
  currency: string;
  shopId: number;
  lines: { product_id: number; quantity: number; amount: number; commission: number }[];
}

/** The part of `total` that `done` of `count` units carry, so that all units carry exactly `total`. */
const share = (total: number, done: number, count: number) => (count > 0 ? Math.round((total * done) / count) : 0);

/**
 * Refunds an order in its transaction: the buyer's money back from the refunds account, the
 * commission and the seller's share reversed in proportion. Never more than was paid. Answers the
 * refund's id.
 */
export async function refund(db: DB, request: RefundRequest): Promise<RefundMade> {
  const earning = await earningFor(db, request.orderId, true);
  if (!earning) {
    const exists = await db.selectFrom('orders').select('id').where('id', '=', request.orderId).executeTakeFirst();
    if (!exists) throw notFound(`Order ${request.orderId} does not exist`);
    throw badRequest(`Order ${request.orderId} is not paid: there is nothing to refund`);
  }
  const left = earning.gross - earning.refunded;
  if (left <= 0) throw conflict(`Order ${request.orderId} is already refunded in full`);
  const lines = earning.lines.map((l) => ({ ...l }));
  let amount = 0;
  let commission = 0;
  let feeRefunded = earning.fee_refunded;
  const taken: RefundMade['lines'] = [];
  if (request.lines) {
    for (const want of request.lines) {
      const line = lines.find((l) => l.product_id === want.product_id);
      if (!line) throw badRequest(`Order ${request.orderId} has no line of product ${want.product_id}`);
      const open = line.quantity - line.refunded_quantity;
      if (want.quantity > open) {
        throw badRequest(`Only ${open} of product ${want.product_id} can still be refunded on order ${request.orderId}`);
      }
      const before = line.refunded_quantity;
      const after = before + want.quantity;
      const a = share(line.amount, after, line.quantity) - share(line.amount, before, line.quantity);
      const c = share(line.commission, after, line.quantity) - share(line.commission, before, line.quantity);
      line.refunded_quantity = after;
      amount += a;
      commission += c;
      taken.push({ product_id: line.product_id, quantity: want.quantity, amount: a, commission: c });
    }
    if (amount > left) throw badRequest(`A refund cannot be more than was paid: at most ${left} minor units are left on order ${request.orderId}`);
  } else {
    // The whole of what is left: every line's open units, the delivery fee, and any rounding.
    amount = left;
    commission = earning.commission - earning.refunded_commission;
    for (const line of lines) {
      const open = line.quantity - line.refunded_quantity;
      if (open > 0) taken.push({ product_id: line.product_id, quantity: open, amount: 0, commission: 0 });
      line.refunded_quantity = line.quantity;
    }
    feeRefunded = 1;
  }
  if (amount <= 0) throw badRequest('Nothing to refund: choose at least one unit of a line');
  commission = Math.min(commission, earning.commission - earning.refunded_commission, amount);
  const seller = amount - commission;
  const from = earning.released_at ? 'available' : 'pending';
  const stamp = request.at;
  const row = await db
    .insertInto('refunds')
    .values({
      order_id: earning.order_id, shop_id: earning.shop_id, currency: earning.currency, amount, commission, seller,
      lines: JSON.stringify(taken), reason: request.reason, created_by: request.by, created_at: stamp,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const id = Number(row.id);
  const entryId = await post(db, {
    key: `refund:${id}`, kind: 'refund', currency: earning.currency, shopId: earning.shop_id, orderId: earning.order_id,
    memo: request.reason, by: request.by, at: stamp,
    postings: [
      { account: 'refunds', shopId: earning.shop_id, amount },
      { account: 'commission', shopId: earning.shop_id, amount: -commission },
      { account: from, shopId: earning.shop_id, amount: -seller },
    ],
  });
  await db.updateTable('refunds').set({ entry_id: entryId }).where('id', '=', id).execute();
  await db
    .updateTable('order_earnings')
    .set({
      refunded: earning.refunded + amount, refunded_commission: earning.refunded_commission + commission,
      refunded_seller: earning.refunded_seller + seller, lines: JSON.stringify(lines), fee_refunded: feeRefunded,
    })
    .where('order_id', '=', earning.order_id)
    .execute();
  return { id, amount, currency: earning.currency, shopId: earning.shop_id, lines: taken };
}
