/**
 * The calls of the API that are not an entity's save, list or status, described once: what each
 * does, who may call it, whether it is an extension (absent in strict mode), its body's fields and
 * the shape of a successful answer. The reference server's OpenAPI document is generated from this
 * table and the registry; a test fails when a route of the server is described by neither.
 */
import { CHAT_PATHS } from './chat';
import { DASHBOARD_PATH } from './dashboard';
import { MIN_PASSWORD_LENGTH } from './envelope';
import { PATHS } from './entities';
import { REQ, b, i, j, s, type Fails, type FieldSpec } from './entity';
import { LEDGER_CALLS } from './ledger';

/** Who may call, as the OpenAPI document states it (x-roles). */
export type CallRole = 'anyone' | 'signed-in' | 'seller' | 'admin';

export interface CallSpec {
  method: 'GET' | 'POST';
  /** The path under the API base; `{name}` marks a path parameter. */
  path: string;
  summary: string;
  roles: readonly CallRole[];
  /** Extra words on who may call (an access token, the records' owner). */
  who?: string;
  /** An admin-only call that also needs this access token in the caller's granted accesses. */
  access?: string;
  extension?: boolean;
  /** A JSON body's fields; `multipart` for a form. */
  body?: Readonly<Record<string, FieldSpec>>;
  multipart?: Readonly<Record<string, FieldSpec>>;
  /** What a success answers: the envelope, a file, or a plain JSON value. */
  answers?: 'envelope' | 'file' | 'json' | 'html' | 'events';
  /** An operator's call (a probe for the load balancer): kept in strict mode, may answer 503. */
  operations?: boolean;
  /**
   * What a success carries, as JSON Schema: `detail` and `HLL` of the envelope, and fields beside
   * them (`extra`); `{record: 'shops'}` stands for an entity's record.
   */
  detail?: Readonly<Record<string, unknown>>;
  hll?: Readonly<Record<string, unknown>>;
  extra?: Readonly<Record<string, unknown>>;
  /** A file's content types ('image/png'); a wildcard ('image/*') when it varies. */
  types?: readonly string[];
  /** Query parameters, by name. */
  query?: Readonly<Record<string, { description: string }>>;
  /**
   * The statuses it answers besides 400, 401, 403 and the 413 and 415 of a body, each with the
   * reason (the API document lists every status a call answers).
   */
  fails?: Fails;
}

/** The outbox's calls for admins holding Mail templates (extensions). */
export const MAIL_PATHS = { test: '/templates/test', failed: '/mails/failed', retry: '/mail/retry' } as const;

const SIGNED_IN: readonly CallRole[] = ['signed-in'];

/** JSON Schema helpers for the answers' detail and HLL. */
const obj = (properties: Record<string, unknown>, required = Object.keys(properties)) => ({ type: 'object', properties, required, additionalProperties: false });
const int = { type: 'integer' };
const str = { type: 'string' };
const list = (items: Record<string, unknown>) => ({ type: 'array', items });
const THROTTLED = 'Too many attempts from this address or for this account; Retry-After says when to try again';
const PAGE_OF = (items: Record<string, unknown>) => ({
  ...obj({ data: list(items), total: int, from: { type: ['integer', 'null'] }, to: { type: ['integer', 'null'] }, current_page: int, last_page: int, per_page: int }),
});
const ADMIN: readonly CallRole[] = ['admin'];
const SELLER_ADMIN: readonly CallRole[] = ['seller', 'admin'];

/**
 * What registering and signing in answer: the session; enrol_second_factor: an admin or a seller who
 * must set up a second factor (ADMIN_SECOND_FACTOR, SELLER_SECOND_FACTOR=required) before anything else.
 */
const SIGNED_IN_DETAIL = obj({ token: str, id: int, enrol_second_factor: { type: 'boolean' } }, ['token', 'id']);

export const CALLS: readonly CallSpec[] = [
  {
    method: 'POST', path: PATHS.register, summary: 'Register an account (never an administrator); answers a session token', roles: ['anyone'],
    body: { name: s(REQ), email: s({ type: 'email', required: true }), phone: s({ required: true, max: 32 }), password: s({ required: true, min: MIN_PASSWORD_LENGTH, max: 200 }), abilities: j() },
    detail: SIGNED_IN_DETAIL, fails: { 403: 'An administrator account cannot be registered', 409: 'The email or phone number is already registered', 429: THROTTLED },
  },
  {
    method: 'POST', path: PATHS.login, summary: 'Sign in with email or phone and password; answers {token, id} in detail', roles: ['anyone'],
    body: {
      credential: s({ max: 255 }), password: s({ max: 200 }), actionType: s(), source: s(),
      // An account with a second factor (issue 26): a current authenticator code or a recovery code, or a passkey's assertion;
      // a passkey's assertion alone (no credential, no password) signs in instead of the password (not in strict mode).
      otp: s({ max: 64 }), passkey: j(),
    },
    detail: SIGNED_IN_DETAIL,
    fails: {
      401: 'The email, phone number or password is not correct; or, right, the account has a second factor to present (detail.second_factor lists its kinds)',
      403: 'The account has been deactivated', 429: THROTTLED,
    },
  },
  {
    method: 'POST', path: PATHS.secondFactor,
    summary: "One's own second factors: status, totp-begin ({secret, uri}), totp-confirm {code} ({recovery_codes}), totp-off {code}, verify {code} (step-up for 5 minutes), passkey-begin, passkey-finish {credential, name}, passkey-remove {id}, passkey-options, passkey-verify {credential}",
    roles: SIGNED_IN,
    body: {
      action: s({ required: true, oneOf: ['status', 'totp-begin', 'totp-confirm', 'totp-off', 'verify', 'passkey-begin', 'passkey-finish', 'passkey-remove', 'passkey-options', 'passkey-verify'] }),
      code: s({ max: 64 }), credential: j(), name: s({ max: 64 }), id: i({ min: 1 }),
    },
    // What each action answers: its status, the secret and address, the recovery codes, a passkey's options.
    detail: { anyOf: [{ type: 'object', description: "The action's answer (see the summary)" }, { type: 'null' }] },
    fails: {
      404: 'No such passkey of the caller', 409: 'Authenticator codes are already on (or not on) for this action', 429: THROTTLED,
      503: 'Authenticator codes are not set up on this server (no MFA_KEY in production)',
    },
  },
  {
    method: 'POST', path: PATHS.passkeyOptions, summary: 'Options to sign in with a passkey instead of the password (a single-use challenge, good for 5 minutes); the assertion then goes to the sign-in call as `passkey`, without credential or password', roles: ['anyone'], extension: true,
    detail: { type: 'object', properties: { challenge: str }, required: ['challenge'], description: 'WebAuthn request options' }, fails: { 429: THROTTLED },
  },
  {
    method: 'POST', path: PATHS.secondFactorReset, summary: "Remove another user's second factors (they set one up again at their next sign-in); needs the admin's own fresh second factor", roles: ADMIN, access: 'users',
    who: "an admin holding 'users' who holds every access the user holds, never on themselves", body: { id: i({ required: true, min: 1 }) },
    fails: { 404: 'No user has this id' },
  },
  {
    method: 'POST', path: PATHS.users, summary: 'List users (paginated), or read one user by id (one\'s own, or any for an admin)', roles: ['signed-in', 'admin'],
    who: "an admin holding 'users' for the list and other users; anyone signed in for their own record",
    body: { id: i({ min: 1 }), page: i({ min: 1 }), per_page: i({ min: 1, max: 100 }) },
    multipart: { id: s(), page: s(), per_page: s() },
    detail: { anyOf: [{ record: 'users' }, { type: 'null' }] }, hll: { anyOf: [PAGE_OF({ record: 'users' }), { type: 'null' }] },
    fails: { 404: 'No user has this id' },
  },
  {
    method: 'POST', path: PATHS.userEdit, summary: 'Edit a user (one\'s own profile, or another user an admin may manage)', roles: ['signed-in', 'admin'],
    who: "oneself, or an admin holding 'users' who holds every access the user holds",
    body: { id: i({ required: true, min: 1 }), name: s(), email: s({ type: 'email' }), phone: s({ max: 32 }), applications: s({ type: 'text' }), abilities: j(), is_active: b(), current_password: s({ max: 200 }) },
    detail: { record: 'users' },
    fails: {
      404: 'No user has this id', 409: 'The email or phone number is already registered',
      429: "Too many wrong current passwords for the account (one's own new email or phone number asks for it); Retry-After says when to try again",
    },
  },
  {
    method: 'POST', path: PATHS.userStatus, summary: 'Blacklist or reactivate a user (ends their sessions when blacklisted)', roles: ADMIN, access: 'users',
    who: "an admin holding 'users', never on themselves", body: { id: i({ required: true, min: 1 }), is_active: b() },
    detail: { record: 'users' }, fails: { 404: 'No user has this id' },
  },
  {
    method: 'POST', path: PATHS.assignRole, summary: 'Set the accesses granted to an admin', roles: ADMIN, access: 'users',
    who: "an admin holding 'users' and every access granted",
    body: { id: i({ required: true, min: 1 }), granted_accesses: j({ required: true, shape: { type: 'array', items: { type: 'string' } } }) },
    detail: { record: 'users' }, fails: { 404: 'No user has this id' },
  },
  {
    method: 'POST', path: PATHS.reset, summary: 'Mail a password-reset link (answers the same whether or not the email is known)', roles: ['anyone'],
    body: { email: s({ type: 'email', required: true }) }, fails: { 429: THROTTLED },
  },
  {
    method: 'POST', path: PATHS.updatePassword, summary: 'Set a new password with a reset token, or change one\'s own with the current password', roles: ['anyone', 'signed-in'],
    body: { reset_token: s(), current_password: s({ max: 200 }), password: s({ required: true, min: MIN_PASSWORD_LENGTH, max: 200 }) },
    fails: { 401: 'Changing one\'s own password needs a session', 429: THROTTLED },
  },
  { method: 'POST', path: PATHS.logout, summary: 'End the session in use', roles: SIGNED_IN, extension: true },
  {
    method: 'POST', path: PATHS.sessions, summary: "The caller's live sessions", roles: SIGNED_IN, extension: true,
    hll: list(obj({ id: int, created_at: str, expires_at: str, current: { type: 'boolean' } })),
  },
  {
    method: 'POST', path: PATHS.endSessions, summary: 'End one of the caller\'s sessions, or every other one', roles: SIGNED_IN, extension: true,
    body: { id: i({ min: 1 }), others: b() }, fails: { 404: 'The caller has no session with this id' },
  },
  {
    method: 'POST', path: PATHS.search, summary: 'Search one list by its keyIndex in the given columns (id exactly, others as a part of the text)', roles: ['anyone', 'signed-in'],
    who: 'as the list searched is read',
    body: { keyIndex: i({ required: true }), value: s({ max: 100 }), targets: j({ required: true, shape: { type: 'array', minItems: 1, items: { type: 'string' } } }), page: i({ min: 1 }), per_page: i({ min: 1, max: 100 }) },
    hll: list({ type: 'object', properties: { id: int }, required: ['id'], description: "A record of the list searched (its entity's schema)" }),
    extra: { total: { ...int, description: 'The number of matches, when per_page is sent' } },
    fails: { 401: 'The list searched needs a session' },
  },
  {
    method: 'POST', path: PATHS.ownerShops, summary: "The caller's own shops, or with owner_id another user's (an admin holding 'shops')", roles: SELLER_ADMIN,
    body: { owner_id: i({ min: 1 }) }, hll: list({ record: 'shops' }),
  },
  {
    method: 'POST', path: PATHS.findPlace, summary: 'Look a typed place up among cities, states and countries (up to 5 candidates)', roles: SIGNED_IN, body: { location: s({ required: true }) },
    extra: { candidates: list(obj({ name: str, formatted_address: str, geometry: obj({ location: obj({ lat: { type: 'number' }, lng: { type: 'number' } }) }) })) },
  },
  {
    method: 'POST', path: PATHS.uploadImage, summary: 'Upload up to 4 product images (PNG or JPEG, 10 MB each, decoded and written anew without metadata) under a tag, within the uploader\'s storage quota', roles: SELLER_ADMIN,
    who: "a seller, or an admin holding 'products'", multipart: { file: s(REQ), file1: s(), file2: s(), file3: s(), tag: s(REQ), shop_id: s() },
    detail: obj({ tag: str, files: list(str) }),
    fails: { 403: "The tag is another user's: a seller's new tag is the product name followed by their own user id", 413: 'A file, the form or the uploader\'s storage quota is too large', 429: 'Too many uploads at once' },
  },
  {
    method: 'POST', path: PATHS.uploadDocx, summary: 'Upload a .docx document: the caller\'s CV, replacing the previous one (only admins name a document with tag)', roles: SIGNED_IN,
    multipart: { file: s(REQ), tag: s() }, detail: obj({ files: list(str) }),
    fails: { 413: 'The file, the form or the uploader\'s storage quota is too large', 429: 'Too many uploads at once' },
  },
  {
    method: 'POST', path: PATHS.uploadStatus, summary: "Remove a tag's images", roles: SELLER_ADMIN,
    who: "the images' owner, or an admin holding 'products'", body: { tyype: s({ oneOf: ['clear'] }), type: s({ oneOf: ['clear'] }), tag: s(REQ) },
    detail: obj({ tag: str }), fails: { 404: 'No images are stored under this tag' },
  },
  { method: 'GET', path: '/files/images/{name}', summary: 'An uploaded image; with ?size=thumb its thumbnail (WebP, 256 px; an extension)', roles: ['anyone'], answers: 'file',
    types: ['image/png', 'image/jpeg', 'image/webp'], query: { size: { description: "'thumb': the thumbnail" } },
  },
  {
    method: 'GET', path: '/download/{name}', summary: 'A stored document, as an attachment', roles: SIGNED_IN, answers: 'file',
    who: "its uploader, or an admin holding 'job-applicants'", types: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  },
  {
    method: 'POST', path: DASHBOARD_PATH, summary: "The dashboard's cards and charts, scoped as the lists are", roles: SIGNED_IN, extension: true,
    body: { from: s({ type: 'date' }), to: s({ type: 'date' }) },
    detail: { type: 'object', properties: { role: { type: 'string', enum: ['admin', 'seller', 'buyer'] } }, required: ['role'], description: 'The cards and charts of the caller\'s role (contract/dashboard.ts: DashboardStats)' },
  },
  {
    method: 'POST', path: '/packages', summary: "The active subscription plans a seller may take, and their shops' subscriptions", roles: ['seller'], extension: true,
    hll: obj({ plans: list({ type: 'object', properties: { id: int }, required: ['id'] }), subscriptions: list({ type: 'object', properties: { id: int, shop_name: str }, required: ['id'] }) }),
  },
  {
    method: 'POST', path: '/package/subscribe', summary: 'Subscribe one of the caller\'s shops to a plan (waits for an admin to activate it)', roles: ['seller'], extension: true,
    body: { plan_id: i({ required: true, min: 1 }), shop_id: i({ required: true, min: 1 }) },
    detail: { type: 'object', properties: { id: int, shop_id: int, shop_name: str }, required: ['id', 'shop_id'] },
    fails: { 409: 'The shop already has this package, active or waiting for activation' },
  },
  {
    method: 'POST', path: '/order/quote', summary: "A cart's delivery fee and total per shop before paying, from the shipping settings (nothing is placed), and the shipping classes on offer", roles: SIGNED_IN, extension: true,
    body: { shipping_id: i({ min: 1 }), shipping_address: j(), orders: j() },
    hll: { type: 'object', properties: { classes: list({ type: 'object' }), shipping_id: { type: ['integer', 'null'] }, quotes: list({ type: 'object' }) }, required: ['classes', 'shipping_id', 'quotes'] },
  },
  {
    method: 'POST', path: '/deletion/mine', summary: "The caller's own account deletion requests, newest first, with their state", roles: SIGNED_IN, extension: true,
    hll: list({ type: 'object', properties: { id: int }, required: ['id'] }),
  },
  {
    method: 'POST', path: '/catalogue', summary: 'Active products of active shops, for buyers', roles: SIGNED_IN, extension: true,
    body: { page: i({ min: 1 }), per_page: i({ min: 1, max: 100 }), q: s({ max: 100 }) },
    hll: PAGE_OF({ type: 'object', properties: { id: int, name: str, own: { type: 'boolean' } }, required: ['id', 'own'] }),
  },
  {
    method: 'POST', path: PATHS.chatMe, summary: "The visitor's own chat, found by the visitor's chat cookie (the address sent is not trusted)", roles: ['anyone'],
    body: { user_ip_address: s({ max: 64 }) }, detail: { record: 'chats' }, fails: { 404: 'The visitor has no chat' },
  },
  {
    method: 'POST', path: CHAT_PATHS.unread, summary: 'How many chats wait for an admin (incoming, or with visitor messages not yet seen)', roles: ADMIN, access: 'chat-logs', extension: true,
    who: "an admin holding 'chat-logs'", detail: obj({ unread: int }),
  },
  {
    method: 'POST', path: CHAT_PATHS.seen, summary: "The admins have seen this chat's visitor messages", roles: ADMIN, access: 'chat-logs', extension: true,
    who: "an admin holding 'chat-logs'", body: { id: i({ required: true, min: 1 }) },
    detail: obj({ id: int, unread: int, incoming: { type: 'boolean' } }), fails: { 404: 'No chat has this id' },
  },
  {
    method: 'POST', path: CHAT_PATHS.ticket, summary: "A single-use ticket, valid 60 s, that opens the admins' chat event stream", roles: ADMIN, access: 'chat-logs', extension: true,
    who: "an admin holding 'chat-logs'", detail: obj({ ticket: str, expires_in: int }),
  },
  {
    method: 'GET', path: CHAT_PATHS.events, summary: 'Server-sent events: a chat changed (admins with ?ticket=, or a visitor with their chat cookie for their own chat)', roles: ['anyone'], extension: true,
    who: "an admin holding 'chat-logs' (with a ticket), or the visitor of the chat", answers: 'events',
    query: { ticket: { description: 'A ticket from POST /chat/ticket (an admin); without it, the visitor\'s chat cookie' } },
    fails: { 401: 'No ticket (or an unknown, spent or expired one) and no chat of the visitor', 403: "The ticket's holder may not read chats", 429: 'Too many streams open for this account or address' },
  },
  {
    method: 'POST', path: MAIL_PATHS.test, summary: "Mail a template, with its event's sample values, to the caller (the form's from_email, subject and message when sent, else the saved ones)",
    roles: ADMIN, access: 'mail-templates', extension: true, who: "an admin holding 'mail-templates'",
    body: { id: i({ required: true, min: 1 }), from_email: s({ type: 'email' }), subject: s(), message: s({ type: 'text' }) },
    fails: { 404: 'No template has this id' },
  },
  {
    method: 'POST', path: MAIL_PATHS.failed, summary: 'The mails that failed after their last attempt, newest first (at most 100), with their error', roles: ADMIN,
    access: 'mail-templates', extension: true, who: "an admin holding 'mail-templates'",
    hll: list({ type: 'object', properties: { id: int }, required: ['id'] }), extra: { total: int },
  },
  {
    method: 'POST', path: MAIL_PATHS.retry, summary: 'Send a failed mail again (its attempts start over)', roles: ADMIN, access: 'mail-templates', extension: true,
    who: "an admin holding 'mail-templates'", body: { id: i({ required: true, min: 1 }) },
  },
  {
    method: 'GET', path: '/health', summary: 'Liveness: the process is running (reads nothing); for the load balancer', roles: ['anyone'], operations: true,
  },
  {
    method: 'GET', path: '/ready', summary: 'Readiness: the database answers, its tables are migrated, the file storage is writable and the process is not stopping; 503 with the reason otherwise',
    roles: ['anyone'], operations: true,
  },
  { method: 'GET', path: '/openapi.json', summary: 'This document', roles: ['anyone'], extension: true, answers: 'json' },
  { method: 'GET', path: '/docs', summary: 'An interactive reference of this document', roles: ['anyone'], extension: true, answers: 'html' },
  {
    method: 'GET', path: '/docs/{file}', summary: "The interactive reference's files", roles: ['anyone'], extension: true, answers: 'file',
    types: ['text/css', 'text/javascript'],
  },
  ...LEDGER_CALLS,
];
