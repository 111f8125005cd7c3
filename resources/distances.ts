/** Custom distances (SPEC §2.25, §3.17). */
import { n, REQ, s } from '../contract';
import { defineResource } from './types';

export default defineResource({
  name: 'distances',
  title: 'Custom distance',
  menu: { token: 'custom-distances', path: '/custom-distances', order: 200, icon: 'SocialDistance' },
  api: {
    save: '/distance', list: '/distances', status: '/distance/status',
    listShape: 'array', search: { keyIndex: 21, targets: ['id', 'location_A', 'location_B', 'distance_km'] },
    remove: 'id', activeAs: 'int', statusFields: [],
    rules: { read: 'user', create: 'admin', update: 'admin' },
    fields: { location_A: s(REQ), location_B: s(REQ), distance_km: n(REQ) },
  },
});
