/**
 * Account deletion requests (SPEC §2.26, §3.18, §4.6): the dropdown No Action / Delete Permanently
 * / Cancel Delete, then Save; is_active is set only for 'Deleted' and a settled request is final
 * (the server refuses with 'This user have been previously deleted'). Carrying out 'Deleted'
 * anonymises the account on the server (server/hooks/deletions.ts).
 */
import { ACTIVE, i, REQ, s, t } from '../../contract';
import { defineResource } from '../types';
import { lifecycle } from './lifecycle';

export const DELETION_STATUSES = ['No action', 'Deleted', 'Deletion rejected by admin'] as const;

export default defineResource({
  name: 'deletions',
  title: 'Deletion request',
  menu: { token: 'deletion-requests', path: '/deletion-requests', order: 210, icon: 'PersonRemove' },
  api: {
    save: '/deletion', list: '/deletions', status: '/deletion/retrieve',
    listShape: 'paginated', search: { keyIndex: 22, targets: ['id', 'customer', 'feedback'] },
    remove: 'none', activeAs: 'int', statusFields: ['deletion_status', 'is_active'],
    rules: { read: 'admin', create: 'user', update: 'admin' },
    onePayload: true, // the legacy back end's forms send SPEC §3.24's one payload
    fields: {
      deletion_status: s({ oneOf: DELETION_STATUSES, default: 'No action' }),
      // Set by the server from the asker (an admin asking for someone names customer_id).
      customer: s(), feedback: t(REQ), customer_id: i(), ...ACTIVE,
    },
  },
  rows: { demo: () => import('./demo') },
  screen: {
    kind: 'list',
    columns: [
      { kind: 'status', source: 'is_active' },
      { kind: 'text', source: 'id' },
      { kind: 'text', source: 'deletion_status' },
      { kind: 'text', source: 'customer' },
      { kind: 'text', source: 'feedback' },
      { kind: 'text', source: 'customer_id' },
    ],
    form: {
      tab: 'editor',
      fields: [
        { kind: 'select', source: 'deletion_status', choices: DELETION_STATUSES, required: true },
        { kind: 'text', source: 'customer', required: true },
        { kind: 'number', source: 'customer_id', required: true },
        { kind: 'textarea', source: 'feedback' },
      ],
      // 'Delete Permanently' anonymises the account for good: Save asks first.
      confirm: { source: 'deletion_status', value: 'Deleted', title: 'resources.deletions.confirm_title', content: 'resources.deletions.confirm_content' },
    },
  },
  lifecycle,
});
