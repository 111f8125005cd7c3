/** A demo job application, from the demo buyer. */
import type { DemoBuilder } from '../../contract';
import { account, DEMO_ACCOUNTS } from '../users/demo';

const build: DemoBuilder = async ({ rows }) => {
  const buyer = account(await rows('users'), DEMO_ACCOUNTS.buyer.email);
  return [{ user_id: buyer.id, title: 'Customer support agent', cv: `/files/docs/cv_${String(buyer.id)}.docx`, country: 'Nigeria', is_active: 1 }];
};
export default build;
