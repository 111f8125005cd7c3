/**
 * Mail templates (SPEC §2.13, §3.6): update only (no new template; saving with none selected is
 * refused with SPEC §8's words), Control Active / Inactive. Each template serves a mail event
 * (events.ts, by its serial): the editor lists the event's variables, previews the message rendered
 * with their sample values and sends a test mail; the 'Failed mails' tab lists what could not be
 * delivered, with a retry.
 */
import { ACTIVE, REQ, s, t } from '../../contract';
import { defineResource } from '../types';
import { MAIL_EVENTS } from './events';

export default defineResource({
  name: 'templates',
  title: 'Template',
  recordRepresentation: 'subject',
  menu: { token: 'mail-templates', path: '/mail-templates', order: 150, icon: 'Email' },
  api: {
    save: '/templates', list: '/templatess', status: '/templates/status',
    listShape: 'paginated', search: { keyIndex: 16, targets: ['id', 'subject', 'message', 'from_email'] },
    remove: 'tyype', activeAs: 'int', statusFields: ['is_active'],
    rules: { read: 'admin', create: 'none', update: 'admin' },
    onePayload: true, // the legacy back end's forms send SPEC §3.24's one payload
    fields: {
      from_email: s({ type: 'email', required: true }), subject: s(REQ), message: t(REQ),
      serial: s(), dispatch_status: s(), ...ACTIVE,
    },
  },
  rows: {
    // Each mail event's template, once: on an existing database too, when an event is added.
    reference: Object.entries(MAIL_EVENTS).map(([serial, event]) => ({ ...event.template, serial, is_active: 1 })),
    keyedBy: 'serial',
  },
  screen: {
    kind: 'list',
    columns: [
      { kind: 'status', source: 'is_active' },
      { kind: 'text', source: 'id' },
      { kind: 'text', source: 'subject' },
      { kind: 'text', source: 'message' },
      { kind: 'text', source: 'from_email' },
      { kind: 'text', source: 'serial' },
      { kind: 'text', source: 'dispatch_status' },
    ],
    form: {
      tab: 'editor',
      forbidden: 'resources.templates.forbidden',
      fields: [
        { kind: 'email', source: 'from_email' },
        { kind: 'text', source: 'subject' },
        { kind: 'textarea', source: 'message' },
        { kind: 'custom', source: 'preview', component: () => import('./MessagePreview'), wide: true },
      ],
    },
    control: { options: [{ kind: 'active', source: 'is_active', choices: ['Active', 'Inactive'] }] },
    tabs: [{ id: 'failed', label: 'resources.templates.failed.tab', component: () => import('./FailedMails') }],
  },
});
