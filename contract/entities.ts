/**
 * The calls of SPEC §7 that are not one entity's save/list/status, and the constants of the contract.
 * Each entity's own paths live in its resource file (resources/).
 */

/** The other calls of SPEC §7 that are not an entity's save/list/status. */
export const PATHS = {
  register: '/user',
  login: '/user/terminal',
  users: '/users',
  userEdit: '/user/edit',
  userStatus: '/user/status',
  reset: '/user/reset',
  updatePassword: '/user/update',
  assignRole: '/user/assign-role',
  /** Extension: ends the session on the server; a legacy server answers 404, which is ignored. */
  logout: '/user/logout',
  /** Extensions: the caller's own sessions, and ending one or all others (the account page). */
  sessions: '/user/sessions',
  endSessions: '/user/sessions/end',
  /** One's own second factors (issue 26), and an admin's reset of another user's. */
  secondFactor: '/user/second-factor',
  secondFactorReset: '/user/second-factor/reset',
  /** Extension: a challenge to sign in with a passkey instead of the password. */
  passkeyOptions: '/user/passkey-options',
  search: '/search-dive',
  ownerShops: '/shopz',
  chatMe: '/chat/me',
  findPlace: '/find-place',
  uploadImage: '/upload-image',
  uploadDocx: '/upload-docx',
  uploadStatus: '/upload/status',
} as const;

/** SPEC §4.5: order status codes. */
export const ORDER_STATUSES = [
  { id: 1, name: 'New Order' },
  { id: 2, name: 'Order Confirmed' },
  { id: 3, name: 'Order Shipped' },
  { id: 4, name: 'Order in Transit' },
  { id: 5, name: 'Order Delivered' },
  { id: 6, name: 'Order Cancelled' },
] as const;

/** SPEC §7.2: fixed parts of the auth payloads. */
export const AUTH_SOURCE = 'inbuilt';
export const LOGIN_ACTION = 'login';
/** SPEC §7.2: the users call's permission header. */
export const USERS_PERMISSION = 3;
