/**
 * Live chat (SPEC §4.7): a visitor opens a chat; whether an admin has joined, who and when, is set by
 * an administrator's answer only. The first admin to join signs the chat: their name and the time
 * are filled in when the console leaves them out.
 */
import { format } from 'date-fns';
import { isOn } from '../../contract';
import type { EntityHooks } from './types';

const ADMIN_SIDE = ['admin_online', 'admin_name', 'received_time'] as const;

export const hooks: EntityHooks = {
  beforeWrite({ caller, scope, entity }, values, before) {
    const admin = caller?.role === 'admin' && scope.kind === 'all' && caller.can('chat-logs');
    if (!admin) {
      for (const key of ADMIN_SIDE) {
        values[key] = before ? before[key] : (entity.fields[key]?.default ?? null);
      }
      return values;
    }
    if (isOn(values.admin_online)) {
      if (!values.admin_name && !before?.admin_name) values.admin_name = String(caller.user.name ?? '');
      if (!values.received_time && !before?.received_time) values.received_time = format(new Date(), 'HH:mm-dd/MM/yyyy');
    }
    return values;
  },
};
