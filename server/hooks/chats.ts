/**
 * Live chat (SPEC §4.7): a visitor opens a chat; whether an admin has joined, who and when, is set by
 * an administrator's answer only.
 */
import type { EntityHooks } from './types';

const ADMIN_SIDE = ['admin_online', 'admin_name', 'received_time'] as const;

export const hooks: EntityHooks = {
  beforeWrite({ caller, scope, entity }, values, before) {
    const admin = caller?.role === 'admin' && scope.kind === 'all' && caller.can('chat-logs');
    if (!admin) {
      for (const key of ADMIN_SIDE) {
        values[key] = before ? before[key] : (entity.fields[key]?.default ?? null);
      }
    }
    return values;
  },
};
