/**
 * Payouts (issue 28): their calls are the ledger's own routes (server/routes/ledger.ts). What runs on
 * a schedule lives here, in the sweep every API process runs every minute: delivered orders whose
 * hold has ended release their earnings, and the month's fee pass goes on (up to FEE_RUN_MS a run).
 * Both claim their work (a conditional UPDATE, the pass's row, a unique event key), so several
 * processes sweeping at once post once.
 */
import { releaseDue } from '../ledger/earnings';
import { chargeMonthlyFees } from '../ledger/payouts';
import type { EntityHooks } from './types';

export const hooks: EntityHooks = {
  async sweep({ db, at, stopping, report }) {
    return (await releaseDue(db, at, { report, stopping })) + (await chargeMonthlyFees(db, at, { stopping }));
  },
};
