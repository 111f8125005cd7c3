/**
 * Account deletion requests (SPEC §4.6): a request already carried out is final; only 'Deleted'
 * marks it done. A user asks for their own account only: the customer fields and the status of a
 * request made by anyone but an administrator are set by the server.
 *
 * Carrying out 'Deleted' anonymises the account in the same transaction: the user's name, email,
 * phone and address are replaced, the password no longer works, abilities and accesses are dropped,
 * every session and reset link ends; their support messages and job applications (CVs) are deleted,
 * their chats lose name and email, their shops are closed and their products set to draft. Orders
 * are kept (with the anonymised customer): the marketplace must keep its sales records.
 */
import { sql } from 'kysely';
import { DEFAULT_ABILITIES } from '../../contract';
import type { DB, Row } from '../db';
import { now } from '../db';
import { badRequest, conflict, forbidden } from '../errors';
import { ensureMayManage } from '../guard';
import { forgetResetLinks } from '../auth';
import { removeFactors } from '../secondFactor';
import { queueMail } from '../mail';
import type { EntityHooks } from './types';

export const SETTLED = 'This user have been previously deleted';
export const DELETED_NAME = 'Deleted user';
const OWN_DELETE = 'You cannot delete your own account from here';
const FIXED_MESSAGE = 'The customer of a deletion request is set when it is made and cannot be changed';

/** Replaces a user's personal data and ends everything that lets them in. */
export async function anonymiseUser(db: DB, userId: number): Promise<void> {
  const user = await db.selectFrom('users').select(['id', 'email']).where('id', '=', userId).executeTakeFirst();
  if (!user) throw badRequest(`There is no user with id ${userId}`);
  const stamp = now();
  await db
    .updateTable('users')
    .set({
      name: DELETED_NAME, email: `deleted-user-${userId}@deleted.invalid`, phone: null, applications: null,
      street_name: null, city: null, state: null, country: null, zip: null, currency: null,
      abilities: JSON.stringify(DEFAULT_ABILITIES), granted_accesses: '[]', is_active: 0,
      // Not a hash of any password: no sign-in can match it.
      password_hash: 'deleted', updated_at: stamp,
    })
    .where('id', '=', userId)
    .execute();
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
  await removeFactors(db, userId);
  await forgetResetLinks(db, userId);
  await db.deleteFrom('password_resets').where('user_id', '=', userId).execute();
  await db.deleteFrom('supports').where('user_id', '=', userId).execute();
  await db.deleteFrom('applicants').where('user_id', '=', userId).execute();
  // Their documents can no longer be downloaded by anyone.
  await db.deleteFrom('uploads').where('kind', '=', 'docx').where('owner_id', '=', userId).execute();
  if (typeof user.email === 'string' && user.email) {
    await db
      .updateTable('chats')
      .set({ user_name: DELETED_NAME, user_email: '', updated_at: stamp })
      .where(sql<boolean>`lower(user_email) = ${user.email.toLowerCase()}`)
      .execute();
  }
  await db.updateTable('shops').set({ is_active: 0, updated_at: stamp }).where('owner_id', '=', userId).execute();
  await db
    .updateTable('products')
    .set({ state: 'draft', updated_at: stamp })
    .where('shop_id', 'in', db.selectFrom('shops').select('id').where('owner_id', '=', userId))
    .execute();
}

export const OPEN_OWN = 'You have already asked for your account to be deleted: an administrator will answer that request first';

/**
 * A new request's customer: an admin asking for someone names them by customer_id (their name is
 * filled in when left out). One open request at a time: while one waits ('No action'), another open
 * one is refused.
 */
async function readCustomer(db: DB, values: Row, callerId: number | undefined) {
  if (values.customer_id === undefined || values.customer_id === null) throw badRequest('customer id is required');
  const customer = Number(values.customer_id);
  if (!values.customer) {
    const user = await db.selectFrom('users').select('name').where('id', '=', customer).executeTakeFirst();
    if (!user) throw badRequest(`There is no user with id ${customer}`);
    values.customer = String(user.name ?? '');
  }
  if ((values.deletion_status ?? 'No action') !== 'No action') return;
  const open = await db
    .selectFrom('deletions')
    .select('id')
    .where('customer_id', '=', customer)
    .where('deletion_status', '=', 'No action')
    .where('is_active', '=', 0)
    .executeTakeFirst();
  if (open) throw conflict(customer === callerId ? OPEN_OWN : `User ${customer} already has an open deletion request (#${Number(open.id)})`);
}

/** Who a request names is set when it is made: settling one can never be turned against someone else. */
const FIXED = ['customer', 'customer_id'] as const;

export const hooks: EntityHooks = {
  async beforeWrite({ db, caller, scope }, values: Row, before) {
    if (before && Number(before.is_active) === 1) throw badRequest(SETTLED);
    const admin = caller?.role === 'admin' && scope.kind === 'all' && caller.can('deletion-requests');
    if (!before && !admin && caller) {
      values.customer_id = caller.id;
      values.customer = String(caller.user.name ?? '');
      values.deletion_status = 'No action';
    }
    if (!before) await readCustomer(db, values, caller?.id);
    if (before) {
      for (const key of FIXED) {
        // The form sends them back as they are; a different value is refused.
        if (values[key] !== undefined && String(values[key]) !== String(before[key])) throw forbidden(FIXED_MESSAGE);
        delete values[key];
      }
    }
    if (values.deletion_status !== undefined) values.is_active = values.deletion_status === 'Deleted' ? 1 : 0;
    else if (values.is_active !== undefined) values.is_active = before ? Number(before.is_active) : 0;
    // Settling a request (carried out or rejected) mails its user, at the address they had until now.
    const settled = values.deletion_status !== undefined && values.deletion_status !== 'No action' && values.deletion_status !== before?.deletion_status;
    const user = settled
      ? await db.selectFrom('users').select(['name', 'email']).where('id', '=', Number(values.customer_id ?? before?.customer_id)).executeTakeFirst()
      : undefined;
    if (values.is_active === 1) {
      const customer = Number(values.customer_id ?? before?.customer_id);
      const target = await db.selectFrom('users').selectAll().where('id', '=', customer).executeTakeFirst();
      if (!target) throw badRequest(`There is no user with id ${customer}`);
      // The Users screen's rule: never oneself, never a user more privileged than the admin acting.
      if (!caller) throw forbidden(OWN_DELETE);
      ensureMayManage(caller, target, OWN_DELETE);
      await anonymiseUser(db, customer);
      values.customer = DELETED_NAME;
      // Other requests of the same user are settled with this one.
      let others = db.updateTable('deletions').set({ deletion_status: 'Deleted', is_active: 1, customer: DELETED_NAME, updated_at: now() }).where('customer_id', '=', customer);
      if (before) others = others.where('id', '!=', Number(before.id));
      await others.execute();
    }
    if (user) await queueMail(db, 'DELETION_SETTLED', String(user.email ?? ''), { name: String(user.name ?? ''), status: String(values.deletion_status) });
    return values;
  },
};
