/**
 * An order's timeline: every status change, who made it, from and to, and when. Written only by the
 * server (server/hooks/orders.ts) and read inside the order (its `timeline`): nobody writes it
 * through the API, so it has no routes and no screen.
 */
import { i, s } from '../../contract';
import { defineResource } from '../types';

export default defineResource({
  name: 'orderEvents',
  title: 'Order event',
  recordRepresentation: 'user_name',
  api: {
    save: '/orderEvent', list: '/orderEvents', status: '/orderEvent/status',
    listShape: 'array', remove: 'none', activeAs: 'int', statusFields: [],
    access: 'orders',
    rules: { read: 'none', create: 'none', update: 'none' },
    fields: { order_id: i({ required: true }), from_status: i(), to_status: i(), user_id: i(), user_name: s(),
      /** Why the server moved it itself: 'hold_expired' (unpaid when its hold ended). */
      reason: s({ max: 32 }) },
  },
  // The demo orders' timelines.
  rows: { demo: () => import('./demo') },
});
