/**
 * Job posts (SPEC §2.19, §3.11): country and state pickers (no city); Control Active / Inactive and
 * a red Delete ({tyype:'clear', id}), no Submit on Control (the table's bulk buttons change status).
 */
import { ACTIVE, REQ, s, t } from '../contract';
import { defineResource } from './types';

/** 'Before' is a date written dd/mm/yyyy (the server also checks the date exists). */
const DAY_MONTH_YEAR = { regex: '\\d{2}/\\d{2}/\\d{4}', example: '31/12/2026', hint: { en: 'a date written dd/mm/yyyy', fr: 'une date écrite jj/mm/aaaa' } };

export default defineResource({
  name: 'jobs',
  title: 'Job post',
  recordRepresentation: 'title',
  menu: { token: 'job-posts', path: '/job-posts', order: 110, icon: 'Work' },
  api: {
    save: '/job', list: '/jobs', status: '/job/status',
    listShape: 'paginated', search: { keyIndex: 18, targets: ['id', 'title', 'description', 'qualification', 'details'] },
    remove: 'tyype', activeAs: 'int', statusFields: ['is_active'],
    rules: { read: 'public', create: 'admin', update: 'admin' },
    onePayload: true, // the legacy back end's forms send SPEC §3.24's one payload
    fields: {
      title: s(REQ), description: t(REQ), qualification: t(REQ), details: t(REQ), expiry: s({ required: true, max: 10, pattern: DAY_MONTH_YEAR }),
      state: s(), country: s(REQ), ...ACTIVE,
    },
  },
  rows: {
    demo: [
      { title: 'Customer support agent', description: 'Help our buyers and sellers.', qualification: 'Any degree', details: 'Remote', expiry: '31/12/2026', state: 'Lagos', country: 'Nigeria', is_active: 1 },
      {
        title: 'Marketplace operations analyst', description: 'Watch the health of the marketplace.', qualification: 'Two years in e-commerce',
        details: 'Hybrid, London office', expiry: '30/06/2027', state: 'England', country: 'United Kingdom', is_active: 1,
      },
      {
        title: 'Seller success manager', description: 'Help new sellers open their shops.', qualification: 'Account management',
        details: 'On site', expiry: '15/01/2027', state: 'Montserrado', country: 'Liberia', is_active: 0,
      },
    ],
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
