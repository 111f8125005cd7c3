/**
 * Job posts (SPEC §2.19, §3.11): country and state pickers (no city); Control Active / Inactive and
 * a red Delete ({tyype:'clear', id}), no Submit on Control (the table's bulk buttons change status).
 */
import { ACTIVE, REQ, s, t } from '../contract';
import { defineResource } from './types';

/** 'Before' is a date written dd/mm/yyyy (the server also checks the date exists). */
const DAY_MONTH_YEAR = { source: '^\\d{2}/\\d{2}/\\d{4}$', message: 'Before must be a date written dd/mm/yyyy, e.g. 31/12/2026' };

export default defineResource({
  name: 'jobs',
  title: 'Job post',
  menu: { token: 'job-posts', path: '/job-posts', order: 110, icon: 'Work' },
  api: {
    save: '/job', list: '/jobs', status: '/job/status',
    listShape: 'paginated', search: { keyIndex: 18, targets: ['id', 'title', 'description', 'qualification', 'details'] },
    remove: 'tyype', activeAs: 'int', statusFields: ['is_active'],
    rules: { read: 'public', create: 'admin', update: 'admin' },
    fields: {
      title: s(REQ), description: t(REQ), qualification: t(REQ), details: t(REQ), expiry: s({ required: true, max: 10, pattern: DAY_MONTH_YEAR }),
      state: s(), country: s(REQ), ...ACTIVE,
    },
  },
  screen: {
    kind: 'list',
    columns: [
      { kind: 'text', source: 'id' },
      { kind: 'text', source: 'title' },
      { kind: 'text', source: 'description' },
      { kind: 'text', source: 'qualification' },
      { kind: 'text', source: 'details' },
      { kind: 'text', source: 'expiry' },
      { kind: 'text', source: 'state' },
      { kind: 'text', source: 'country' },
    ],
    form: {
      tab: 'add_edit',
      fields: [
        { kind: 'text', source: 'title' },
        { kind: 'text', source: 'expiry', placeholder: true },
        { kind: 'textarea', source: 'description' },
        { kind: 'textarea', source: 'qualification' },
        { kind: 'textarea', source: 'details' },
        { kind: 'location', source: 'country', levels: ['country', 'state'], required: true },
      ],
    },
    control: { options: [{ kind: 'active', source: 'is_active', choices: ['Active', 'Inactive'] }], submit: false, remove: true },
  },
});
