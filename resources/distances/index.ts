/**
 * Custom distances (SPEC §2.25, §3.17): 'Location A', 'Location B' and 'Distance (Kilometer)', all
 * required; a radio chooses which of the two locations the country, state and city pickers fill,
 * written as 'country,state,area'. Save and Delete ({id}); the list's HLL is a plain array.
 */
import { n, REQ, s } from '../../contract';
import { defineResource } from '../types';

export default defineResource({
  name: 'distances',
  title: 'Custom distance',
  menu: { token: 'custom-distances', path: '/custom-distances', order: 200, icon: 'SocialDistance' },
  api: {
    save: '/distance', list: '/distances', status: '/distance/status',
    listShape: 'array', search: { keyIndex: 21, targets: ['id', 'location_A', 'location_B', 'distance_km'] },
    remove: 'id', activeAs: 'int', statusFields: [],
    rules: { read: 'user', create: 'admin', update: 'admin' },
    onePayload: true, // the legacy back end's forms send SPEC §3.24's one payload
    fields: { location_A: s(REQ), location_B: s(REQ), distance_km: n({ required: true, min: 0 }) },
  },
  rows: {
    demo: [
      { location_A: 'Nigeria,Lagos,Ikeja', location_B: 'Nigeria,Oyo,Ibadan', distance_km: 128 },
      { location_A: 'United Kingdom,England,London', location_B: 'United Kingdom,England,Manchester', distance_km: 262 },
      { location_A: 'Liberia,Montserrado,Monrovia', location_B: 'Liberia,Margibi,Kakata', distance_km: 56 },
    ],
  },
  screen: {
    kind: 'list',
    columns: [
      { kind: 'text', source: 'id' },
      { kind: 'text', source: 'location_A' },
      { kind: 'text', source: 'location_B' },
      { kind: 'text', source: 'distance_km' },
    ],
    form: {
      tab: 'add_edit',
      fields: [
        { kind: 'text', source: 'location_A', placeholder: true },
        { kind: 'text', source: 'location_B', placeholder: true },
        { kind: 'number', source: 'distance_km', placeholder: true },
        { kind: 'custom', source: 'fill', component: () => import('./LocationFiller'), wide: true },
      ],
    },
    control: { options: [], submit: false, remove: true },
  },
});
