/**
 * SPEC §7.6 and §4.6: a deletion request's save carries is_active, true (1) only when the status is
 * 'Deleted'.
 */
import type { ResourceCallbacks } from 'react-admin';

export const activeFor = (status: unknown): 0 | 1 => (status === 'Deleted' ? 1 : 0);

export const lifecycle: Omit<ResourceCallbacks, 'resource'> = {
  beforeSave: async (data: Record<string, unknown>) => ({ ...data, is_active: activeFor(data.deletion_status) }),
};
