/** Mail templates (SPEC §2.13, §3.6): update only. */
import { ACTIVE, REQ, s, t } from '../contract';
import { defineResource } from './types';

export default defineResource({
  name: 'templates',
  title: 'Template',
  menu: { token: 'mail-templates', path: '/mail-templates', order: 150, icon: 'Email' },
  api: {
    save: '/templates', list: '/templatess', status: '/templates/status',
    listShape: 'paginated', search: { keyIndex: 16, targets: ['id', 'subject', 'message', 'from_email'] },
    remove: 'tyype', activeAs: 'int', statusFields: ['is_active'],
    rules: { read: 'admin', create: 'none', update: 'admin' },
    fields: {
      from_email: s({ type: 'email', required: true }), subject: s(REQ), message: t(REQ),
      serial: s(), dispatch_status: s(), ...ACTIVE,
    },
  },
});
