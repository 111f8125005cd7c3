/**
 * Demo data of the dashboard and live chat: the demo orders spread over the last four weeks (newer
 * ids newer, so lists keep their order) so the charts have days to show, each order's status history
 * moved with it (placed when the order was, each later change some hours after the one before, never
 * later than now), and a chat an admin has already answered, longer than the six messages a chat
 * opens with.
 */
import { now, type DB } from '../db';

const DAY_MS = 86_400_000;
/** Between one status change of a demo order and the next. */
const EVENT_GAP_MS = 5 * 3_600_000;

export async function seedDashboard(db: DB) {
  const orders = await db.selectFrom('orders').select('id').orderBy('id').execute();
  const today = Date.now();
  for (const [index, order] of orders.entries()) {
    const daysAgo = Math.round(((orders.length - 1 - index) * 27) / Math.max(1, orders.length - 1));
    const stamp = new Date(today - daysAgo * DAY_MS - (index % 5) * 3_600_000).toISOString();
    const events = await db.selectFrom('orderEvents').select('id').where('order_id', '=', order.id).orderBy('id').execute();
    const placed = Date.parse(stamp);
    const times = events.map((_, k) => new Date(Math.min(today, placed + k * EVENT_GAP_MS)).toISOString());
    for (const [k, event] of events.entries()) {
      await db.updateTable('orderEvents').set({ created_at: times[k], updated_at: times[k] }).where('id', '=', event.id).execute();
    }
    const last = times[times.length - 1] ?? stamp;
    await db.updateTable('orders').set({ created_at: stamp, updated_at: last }).where('id', '=', order.id).execute();
  }
  const lines: [0 | 1, string][] = [
    [1, 'Hi, I ordered a blue dress last week.'],
    [0, 'Hello Ngozi, thanks for writing. What is the order number?'],
    [1, 'It is TRK1007.'],
    [0, 'Thank you. I can see it: it left the warehouse yesterday.'],
    [1, 'Great. When will it arrive in Lagos?'],
    [0, 'DHL expects to deliver it within three days.'],
    [1, 'Can I change the delivery address?'],
    [0, 'Yes: reply with the new address and I will pass it on.'],
  ];
  const stamp = now();
  await db
    .insertInto('chats')
    .values({
      admin_online: 1, admin_name: 'Ada Admin', received_time: '09:15-21/11/2026', user_name: 'Ngozi Eze', user_email: 'ngozi@example.com',
      user_ip_address: '102.89.0.1', is_active: 1, created_at: stamp, updated_at: stamp,
      chats: JSON.stringify(lines.map(([visitor, message]) => ({ sent: visitor, recieved: visitor ? 0 : 1, message }))),
    })
    .execute();
}
