/**
 * ADMIN_SECOND_FACTOR=required (issue 26): an admin without a second factor is answered 403 on
 * every call but setting one up and signing out, whatever the console shows. Optional by default,
 * so the demo runs with two commands.
 */
import type { AppContext } from './context';
import type { Caller } from './auth';
import { ApiError } from './errors';
import { factorsOfUser } from './secondFactor';

export const ENROL_FIRST = 'Set up a second factor before anything else';
/** The calls an admin who must enrol can still make. */
const OPEN = new Set(['/api/user/second-factor', '/api/user/logout']);

/** Whether this caller must set up a second factor before anything else. */
export const mustEnrol = (config: AppContext['config'], caller: Caller | null): boolean =>
  config.adminSecondFactor === 'required' && caller?.role === 'admin' && factorsOfUser(caller.user).length === 0;

/** Throws 403 (detail {enrol_second_factor: true}) for any other call of an admin who must enrol. */
export function enrolmentGate(config: AppContext['config'], caller: Caller | null, url: string): void {
  if (mustEnrol(config, caller) && !OPEN.has(url)) throw new ApiError(403, ENROL_FIRST, {}, { enrol_second_factor: true });
}
