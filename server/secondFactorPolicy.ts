/**
 * ADMIN_SECOND_FACTOR=required and SELLER_SECOND_FACTOR=required (issue 26, ASVS 6.3.3): an admin, or
 * a seller, without a second factor is answered 403 on every call but setting one up and signing out,
 * whatever the console shows. Optional by default, so the demo runs with two commands. Buyers are
 * never held (docs/decisions.md).
 */
import type { AppContext } from './context';
import type { Caller } from './auth';
import { ApiError } from './errors';
import { factorsOfUser } from './secondFactor';

export const ENROL_FIRST = 'Set up a second factor before anything else';
/** The calls a user who must enrol can still make. */
const OPEN = new Set(['/api/user/second-factor', '/api/user/logout']);

/** Whether this caller must set up a second factor before anything else. */
export function mustEnrol(config: AppContext['config'], caller: Caller | null): boolean {
  if (!caller || factorsOfUser(caller.user).length > 0) return false;
  if (caller.role === 'admin') return config.adminSecondFactor === 'required';
  return caller.role === 'seller' && config.sellerSecondFactor === 'required';
}

/** Throws 403 (detail {enrol_second_factor: true}) for any other call of a user who must enrol. */
export function enrolmentGate(config: AppContext['config'], caller: Caller | null, url: string): void {
  if (mustEnrol(config, caller) && !OPEN.has(url)) throw new ApiError(403, ENROL_FIRST, {}, { enrol_second_factor: true });
}
