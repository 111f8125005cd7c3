/**
 * Job applicants (SPEC §2.20, §3.11): read-only. The CV is a 'click' link that downloads the
 * document through GET /download/{name} with the bearer token; Name, Email and Phone are the
 * applicant's user's.
 */
import { ACTIVE, i, REQ, s } from '../../contract';
import { defineResource } from '../types';

export default defineResource({
  name: 'applicants',
  title: 'Job application',
  recordRepresentation: 'title',
  menu: { token: 'job-applicants', path: '/job-applicants', order: 120, icon: 'PeopleAlt' },
  api: {
    save: '/applicant', list: '/applicants', status: '/applicant/status',
    listShape: 'paginated', search: { keyIndex: 19, targets: ['id', 'title', 'country'] },
    remove: 'tyype', activeAs: 'int', statusFields: ['is_active'],
    rules: { read: 'admin', create: 'user', update: 'admin' },
    fields: { user_id: i({ serverSet: true, creator: true }), title: s(REQ), cv: s({ max: 1024, files: true }), country: s(), ...ACTIVE },
    relations: [{ as: 'user', entity: 'users', key: 'user_id', kind: 'one', pick: ['id', 'name', 'email', 'phone'] }],
  },
  rows: { demo: () => import('./demo') },
  screen: {
    kind: 'list',
    columns: [
      { kind: 'text', source: 'id' },
      { kind: 'text', source: 'title' },
      { kind: 'custom', source: 'cv', component: () => import('./CvCell') },
      { kind: 'text', source: 'country' },
      { kind: 'text', source: 'user.name' },
      { kind: 'text', source: 'user.email' },
      { kind: 'text', source: 'user.phone' },
    ],
  },
});
