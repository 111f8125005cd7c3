/** A demo request to delete an account, from the demo buyer, not yet acted on. */
import type { DemoBuilder } from '../../contract';
import { account, DEMO_ACCOUNTS } from '../users/demo';

const build: DemoBuilder = async ({ rows }) => {
  const buyer = account(await rows('users'), DEMO_ACCOUNTS.buyer.email);
  return [{ deletion_status: 'No action', customer: buyer.name, feedback: 'I no longer need my account.', customer_id: buyer.id, is_active: 0 }];
};
export default build;
