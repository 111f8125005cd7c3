/**
 * Support messages (SPEC §3.12): anyone signed in writes to support with a title and a message; the
 * server names the writer (user_id, the contract's creator field) and their country, from their
 * account's address. A message from an account with no address keeps the country it was sent with.
 */
import type { EntityHooks } from './types';

export const hooks: EntityHooks = {
  async beforeWrite({ db, caller }, values, before) {
    if (before || !caller) return values;
    const user = await db.selectFrom('users').select('country').where('id', '=', caller.id).executeTakeFirst();
    const country = String(user?.country ?? '').trim();
    if (country) values.country = country;
    return values;
  },
};
