/**
 * The demo orders' timelines: placed by their buyer when the order was, every later status change
 * made by the demo admin some hours after the one before (resources/orders/demo.ts).
 */
import type { DeclaredRow, DemoBuilder } from '../../contract';
import { eventTimes, timeline } from '../orders/demo';
import { account, DEMO_ACCOUNTS } from '../users/demo';

const build: DemoBuilder = async ({ rows, now }) => {
  const users = await rows('users');
  const staff = account(users, DEMO_ACCOUNTS.admin.email);
  const events: DeclaredRow[] = [];
  for (const order of await rows('orders')) {
    const buyer = users.find((user) => Number(user.id) === Number(order.customer_id)) ?? staff;
    const statuses = timeline(Number(order.status));
    const times = eventTimes(Date.parse(String(order.created_at)), statuses.length, now);
    statuses.forEach((status, k) => {
      const by = k ? staff : buyer;
      events.push({
        order_id: order.id, from_status: k ? statuses[k - 1] : null, to_status: status, user_id: by.id, user_name: by.name,
        created_at: times[k], updated_at: times[k],
      });
    });
  }
  return events;
};
export default build;
