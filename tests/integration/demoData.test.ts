/**
 * The demo data does not contradict itself: an order is placed on the date of its first status
 * event, and its later events follow in order, none in the future.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

const time = (value: unknown) => new Date(String(value)).getTime();

it("places every demo order on the date of its first status event, the later events after it and none in the future", async () => {
  const orders = await s.db.selectFrom('orders').select(['id', 'created_at']).execute();
  expect(orders.length).toBeGreaterThan(0);
  const now = Date.now();
  for (const order of orders) {
    const events = await s.db.selectFrom('orderEvents').select(['created_at']).where('order_id', '=', order.id).orderBy('id').execute();
    expect(events.length, `order ${order.id}`).toBeGreaterThan(0);
    expect(time(events[0].created_at), `order ${order.id}`).toBe(time(order.created_at));
    for (let k = 1; k < events.length; k++) expect(time(events[k].created_at)).toBeGreaterThanOrEqual(time(events[k - 1].created_at));
    expect(time(events[events.length - 1].created_at)).toBeLessThanOrEqual(now);
  }
});
