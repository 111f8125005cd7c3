/**
 * Shops: their bank and Paypal details are where a seller's payouts go, so setting or changing them
 * asks a caller who has a second factor for a fresh one (issue 26, step-up). A save or status call
 * that makes a shop due for its category's monthly fee (created, switched on, moved to a category
 * with a fee) charges this month's with it, once.
 */
import type { Row } from '../db';
import { chargeShopFee } from '../ledger/payouts';
import { requireFreshSecondFactor } from '../secondFactor';
import type { EntityHooks } from './types';

const PAYOUT_GROUPS = new Set(['bank', 'paypal']);

export const hooks: EntityHooks = {
  async beforeWrite({ entity, caller, clock }, values, before) {
    const payout = Object.keys(entity.fields).filter((name) => PAYOUT_GROUPS.has(entity.fields[name].group ?? ''));
    const changes = (name: string) => values[name] !== undefined && String(values[name] ?? '') !== String((before as Row | undefined)?.[name] ?? '');
    if (payout.some(changes)) await requireFreshSecondFactor(caller, clock());
    return values;
  },

  async afterWrite({ db, clock }, row) {
    await chargeShopFee(db, Number(row.id), clock());
  },
};
