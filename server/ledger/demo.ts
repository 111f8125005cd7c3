/**
 * Demo money (issue 28): the demo orders' story in the ledger, told through the ledger's own rules
 * (by the orders' hooks, once the demo orders and their timelines are in).
 * Paid orders earn at their date; delivered ones a day later, so those older than the hold period are
 * available; one line of a delivered order and the whole of a shipped one are refunded; the shop
 * with the most available is paid out (marked paid), and the next one has a payout waiting.
 */
import { DEFAULT_PAYOUT_HOLD_DAYS } from '../../contract';
import type { DB } from '../db';
import { followOrder, refund, release } from './earnings';
import { createPayout, settlePayout } from './payouts';

const DAY = 24 * 3600_000;
const DELIVERED = 5;
const SHIPPED = 3;

/** The story of these demo orders, told at `now`. */
export async function demoLedger(db: DB, orderIds: readonly number[], now = Date.now()) {
  if (!orderIds.length) return;
  const orders = await db.selectFrom('orders').selectAll().where('id', 'in', [...orderIds]).orderBy('id').execute();
  const settings = { holdDays: DEFAULT_PAYOUT_HOLD_DAYS };
  for (const order of orders) {
    const placed = Date.parse(String(order.created_at)) || now;
    // Paid when placed (the order as it stood then), delivered a day later.
    await followOrder(db, { ...order, status: 1 }, undefined, placed, settings, null);
    if (Number(order.status) === DELIVERED) await followOrder(db, order, { ...order, status: 4 }, Math.min(now, placed + DAY), settings, null);
  }
  // Released in the seed's own transaction (the sweep gives each release a transaction of its own).
  const due = await db.selectFrom('order_earnings').select('order_id').where('release_at', '<=', new Date(now).toISOString()).execute();
  for (const { order_id } of due) await release(db, Number(order_id), now);
  const earned = await db.selectFrom('order_earnings').innerJoin('orders', 'orders.id', 'order_earnings.order_id').select(['order_earnings.order_id as id', 'orders.status as status', 'order_earnings.lines as lines']).orderBy('order_earnings.order_id').execute();
  const at = new Date(now).toISOString();
  const delivered = earned.find((o) => Number(o.status) === DELIVERED && (JSON.parse(String(o.lines)) as unknown[]).length > 1);
  if (delivered) {
    const [line] = JSON.parse(String(delivered.lines)) as { product_id: number }[];
    await refund(db, { orderId: Number(delivered.id), lines: [{ product_id: line.product_id, quantity: 1 }], reason: 'Arrived damaged', by: null, at });
  }
  const shipped = earned.find((o) => Number(o.status) === SHIPPED);
  if (shipped) await refund(db, { orderId: Number(shipped.id), reason: 'Returned by the buyer', by: null, at });
  const richest = await db
    .selectFrom('ledger_balances')
    .select(['shop_id', 'currency'])
    .where('account', '=', 'available')
    .where('amount', '>', 0)
    .orderBy('amount', 'desc')
    .limit(2)
    .execute();
  for (const [k, shop] of richest.entries()) {
    const payout = await createPayout(db, { shopId: Number(shop.shop_id), currency: String(shop.currency), by: null, at });
    if (k === 0) await settlePayout(db, { id: payout.id, state: 'paid', reference: 'DEMO-TRANSFER-1', by: null, at });
  }
}
