/** The demo support messages, from the demo buyer. */
import type { DemoBuilder } from '../../contract';
import { account, DEMO_ACCOUNTS } from '../users/demo';

const build: DemoBuilder = async ({ rows }) => {
  const buyer = account(await rows('users'), DEMO_ACCOUNTS.buyer.email);
  return [
    { user_id: buyer.id, title: 'Late delivery', message: 'My order has not arrived yet.', country: 'Liberia', is_active: 1 },
    { user_id: buyer.id, title: 'Wrong size received', message: 'I ordered size M and received size L.', country: 'Nigeria', is_active: 1 },
  ];
};
export default build;
