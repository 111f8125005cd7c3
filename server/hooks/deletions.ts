/**
 * Account deletion requests (SPEC §4.6): a request already carried out is final; only 'Deleted'
 * marks it done. A user asks for their own account only: the customer fields and the status of a
 * request made by anyone but an administrator are set by the server.
 */
import { badRequest } from '../errors';
import type { EntityHooks } from './types';

export const hooks: EntityHooks = {
  beforeWrite({ caller, scope }, values, before) {
    if (before && Number(before.is_active) === 1) throw badRequest('This user have been previously deleted');
    const admin = caller?.role === 'admin' && scope.kind === 'all' && caller.can('deletion-requests');
    if (!before && !admin && caller) {
      values.customer_id = caller.id;
      values.customer = String(caller.user.name ?? '');
      values.deletion_status = 'No action';
    }
    if (values.deletion_status !== undefined) values.is_active = values.deletion_status === 'Deleted' ? 1 : 0;
    return values;
  },
};
