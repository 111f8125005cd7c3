/**
 * The product API of SPEC §7, written once as data: for every entity its save, list and status
 * paths (spellings kept), the shape of its list answer, its search key and allowed targets
 * (SPEC §9.4), how it is deleted, how is_active goes on the wire, who may use it, and its fields
 * with the types and required flags of SPEC §3. The console's dataProvider and the reference
 * server are both driven by this table.
 */

export type FieldType = 'string' | 'text' | 'email' | 'int' | 'number' | 'bool' | 'json' | 'date';

export interface FieldSpec {
  type: FieldType;
  /** Required when a record is created (the * of SPEC §3); when present, never empty. */
  required?: boolean;
  /** Longest accepted text; strings default to 255, text to 5000. */
  max?: number;
  /** Nested group on the wire: payloads may send `{address: {zip}}` and answers carry it so. */
  group?: string;
  /** The only values accepted. */
  oneOf?: readonly (string | number)[];
  /** Answers carry the value wrapped, `{[wrap]: value}` (a product's `currency {code}`). */
  wrap?: string;
  /** Only an admin may write it (premier, commissions). */
  adminOnly?: boolean;
  /** Set by the server, never taken from a payload. */
  serverSet?: boolean;
}

/** A linked record carried in answers: `one` reads other.id = row[key]; `many` reads other[key] = row.id. */
export interface Relation {
  as: string;
  /** The linked entity's name, which is also its table. */
  entity: string;
  key: string;
  kind: 'one' | 'many';
  pick: readonly string[];
}

/**
 * Who may use an endpoint. public: anyone; user: any signed-in user; owner: an admin holding the
 * entity's access token, or a seller on their own records; admin: an admin holding the token;
 * none: nobody through the API.
 */
export type Rule = 'public' | 'user' | 'owner' | 'admin' | 'none';

export interface EntityContract {
  /** Resource name in the console and table name in the database. */
  name: string;
  save: string;
  list: string;
  status: string;
  /** 'paginated': HLL is the paginator object (HLL.data holds rows); 'array': HLL is a plain array. */
  listShape: 'paginated' | 'array';
  search?: { keyIndex: number; targets: readonly string[] };
  /** Delete payload on the status path: {tyype:'clear', id}, products' {tyype, type:'clear', id}, or {id}. */
  remove: 'tyype' | 'tyype+type' | 'id' | 'none';
  /** How is_active travels from the Control tab: 1/0 or a boolean. */
  activeAs: 'int' | 'bool';
  /** Fields a status call may change besides deletion. */
  statusFields: readonly string[];
  /** The admin screen's access token (SPEC §6.2). */
  access: string;
  /** Seller variant: the token of the seller screen and how records belong to a seller. */
  owner?: { access: string; via: 'owner_id' | 'shop_id' };
  rules: { read: Rule; create: Rule; update: Rule };
  fields: Readonly<Record<string, FieldSpec>>;
  relations?: readonly Relation[];
}

const s = (extra: Partial<FieldSpec> = {}): FieldSpec => ({ type: 'string', ...extra });
const t = (extra: Partial<FieldSpec> = {}): FieldSpec => ({ type: 'text', ...extra });
const n = (extra: Partial<FieldSpec> = {}): FieldSpec => ({ type: 'number', ...extra });
const i = (extra: Partial<FieldSpec> = {}): FieldSpec => ({ type: 'int', ...extra });
const b = (extra: Partial<FieldSpec> = {}): FieldSpec => ({ type: 'bool', ...extra });
const j = (extra: Partial<FieldSpec> = {}): FieldSpec => ({ type: 'json', ...extra });
const REQ = { required: true } as const;

const address = (required: boolean) => ({
  street_name: s({ group: 'address', required }),
  zip: s({ group: 'address', required }),
  city: s({ group: 'address' }),
  state: s({ group: 'address' }),
  country: s({ group: 'address', required }),
  city_details: j({ group: 'address' }),
  state_details: j({ group: 'address' }),
  country_details: j({ group: 'address' }),
});

const ACTIVE = { is_active: b() };
const ADMIN_ONLY = { read: 'admin', create: 'admin', update: 'admin' } as const;

export const ENTITIES = {
  users: {
    name: 'users', save: '/user/edit', list: '/users', status: '/user/status',
    listShape: 'paginated', search: { keyIndex: 0, targets: ['id', 'name', 'email', 'phone', 'street_name', 'city', 'state', 'country', 'zip'] },
    remove: 'none', activeAs: 'int', statusFields: ['is_active'], access: 'users',
    rules: ADMIN_ONLY,
    fields: {
      name: s(REQ), email: s({ type: 'email', required: true }), phone: s({ max: 32 }),
      applications: t(), abilities: s({ serverSet: true, max: 64 }), granted_accesses: t({ serverSet: true }),
      street_name: s(), city: s(), state: s(), country: s(), zip: s(), currency: s({ max: 64 }),
      ...ACTIVE,
    },
    relations: [{ as: 'shops', entity: 'shops', key: 'owner_id', kind: 'many', pick: ['id', 'name'] }],
  },
  shops: {
    name: 'shops', save: '/shop', list: '/shops', status: '/shop/status',
    listShape: 'paginated', search: { keyIndex: 10, targets: ['id', 'name'] },
    remove: 'tyype', activeAs: 'int', statusFields: ['is_active'], access: 'shops',
    owner: { access: 'my-shops', via: 'owner_id' },
    rules: { read: 'owner', create: 'owner', update: 'owner' },
    fields: {
      owner_id: i({ serverSet: true }), name: s(REQ), description: t(REQ), category_id: i(REQ),
      ...address(true),
      bank_name: s({ group: 'bank', required: true }), bank_country: s({ group: 'bank', required: true }),
      swift_code: s({ group: 'bank' }), sort_code: s({ group: 'bank' }),
      account_name: s({ group: 'bank', required: true }), account_number: s({ group: 'bank', required: true }),
      paypal_email: s({ group: 'paypal' }), name_of_seller: s({ group: 'paypal' }),
      ...ACTIVE,
    },
    relations: [
      { as: 'category', entity: 'categories', key: 'category_id', kind: 'one', pick: ['id', 'name'] },
      { as: 'seller', entity: 'users', key: 'owner_id', kind: 'one', pick: ['id', 'name'] },
    ],
  },
  products: {
    name: 'products', save: '/product', list: '/products', status: '/product/status',
    listShape: 'paginated', search: { keyIndex: 7, targets: ['id', 'name'] },
    remove: 'tyype+type', activeAs: 'int', statusFields: ['premier', 'product_type', 'state'], access: 'products',
    owner: { access: 'my-products', via: 'shop_id' },
    rules: { read: 'owner', create: 'owner', update: 'owner' },
    fields: {
      shop_id: i(REQ), name: s(REQ), description: t(REQ), currency: s({ required: true, max: 8, wrap: 'code' }),
      price: n(REQ), sale_price: n(REQ), in_stock: i(REQ), unit: s(), height: n(), width: n(), length: n(),
      weight: n(), sku: s(), quantity: i(),
      state: s({ oneOf: ['active', 'draft'] }), premier: s({ oneOf: ['yes', 'no'], adminOnly: true }),
      product_type: s({ oneOf: ['new', 'preown'] }),
      image: j(), category_id: i(REQ), subcategory_id: i(REQ), variety_option: j(),
      band_id: i({ group: 'band' }), band_name: s({ group: 'band', required: true }),
    },
    relations: [
      { as: 'category', entity: 'categories', key: 'category_id', kind: 'one', pick: ['id', 'name'] },
      { as: 'subcategory', entity: 'subcategories', key: 'subcategory_id', kind: 'one', pick: ['id', 'name'] },
      { as: 'shop', entity: 'shops', key: 'shop_id', kind: 'one', pick: ['id', 'name', 'owner_id'] },
    ],
  },
  orders: {
    name: 'orders', save: '/order', list: '/orders', status: '/order/status',
    listShape: 'paginated', search: { keyIndex: 4, targets: ['id', 'created_at', 'tracking_number'] },
    remove: 'none', activeAs: 'int', statusFields: ['status'], access: 'orders',
    owner: { access: 'my-orders', via: 'shop_id' },
    rules: { read: 'owner', create: 'admin', update: 'owner' },
    fields: {
      shop_id: i(REQ), customer_id: i(), parent_id: i(), payment_gateway: s(REQ), tracking_number: s(REQ),
      number_of_items: i(), status: i({ oneOf: [1, 2, 3, 4, 5, 6] }), currency: s({ max: 8 }),
      customer_contact: s(), amount: n(), sales_tax: n(), discount: n(), bank_name: s(),
      total: n(REQ), total_fxws: n(), paid_total: n(REQ), paid_total_fxws: n(),
      delivery_fee: n(), logistics: s(), shipping_address: j(), billing_address: j(),
      dispatch_status: s(), created_at: s({ serverSet: true }),
      ...ACTIVE,
    },
    relations: [
      { as: 'status', entity: 'orderStatuses', key: 'status', kind: 'one', pick: ['id', 'name'] },
      { as: 'shop', entity: 'shops', key: 'shop_id', kind: 'one', pick: ['id', 'name', 'owner_id'] },
    ],
  },
  templates: {
    name: 'templates', save: '/templates', list: '/templatess', status: '/templates/status',
    listShape: 'paginated', search: { keyIndex: 16, targets: ['id', 'subject', 'message', 'from_email'] },
    remove: 'tyype', activeAs: 'int', statusFields: ['is_active'], access: 'mail-templates',
    rules: { read: 'admin', create: 'none', update: 'admin' },
    fields: {
      from_email: s({ type: 'email', required: true }), subject: s(REQ), message: t(REQ),
      serial: s(), dispatch_status: s(), ...ACTIVE,
    },
  },
  categories: {
    name: 'categories', save: '/category', list: '/categories', status: '/category/status',
    listShape: 'paginated', search: { keyIndex: 2, targets: ['id', 'name'] },
    remove: 'tyype', activeAs: 'int', statusFields: ['is_active'], access: 'category',
    rules: { read: 'user', create: 'admin', update: 'admin' },
    fields: {
      name: s(REQ), commission_currency: s({ required: true, max: 8, adminOnly: true }),
      commission_flat_rate: n({ required: true, adminOnly: true }), commission_monthly: n({ adminOnly: true }),
      ...ACTIVE,
    },
    relations: [{ as: 'subcategories', entity: 'subcategories', key: 'category_id', kind: 'many', pick: ['id', 'name', 'serial'] }],
  },
  subcategories: {
    name: 'subcategories', save: '/category', list: '/categories', status: '/category/status',
    listShape: 'paginated', remove: 'none', activeAs: 'int', statusFields: [], access: 'category',
    rules: { read: 'none', create: 'none', update: 'none' },
    fields: { category_id: i(REQ), name: s(REQ), serial: s() },
  },
  brands: {
    name: 'brands', save: '/brand', list: '/brands', status: '/brand/status',
    listShape: 'paginated', search: { keyIndex: 13, targets: ['id', 'name'] },
    remove: 'tyype', activeAs: 'int', statusFields: ['is_active'], access: 'brands',
    rules: { read: 'user', create: 'admin', update: 'admin' },
    fields: { name: s(REQ), type: s({ required: true, oneOf: ['popular', 'upcoming'] }), product_id: i(), ...ACTIVE },
  },
  subscriptions: {
    name: 'subscriptions', save: '/subcription', list: '/subcriptions', status: '/subcription/status',
    listShape: 'paginated', search: { keyIndex: 12, targets: ['id', 'type', 'nature', 'period'] },
    remove: 'tyype', activeAs: 'bool', statusFields: ['is_active'], access: 'subscriptions',
    rules: ADMIN_ONLY,
    fields: {
      shop_id: i(REQ), type: s(REQ), nature: s(REQ), period: s(REQ), unit: s(REQ), total_clicks: i(REQ),
      amount: n(REQ), currency: s({ max: 8 }), payment_gateway: s(), start_date: s(REQ), end_date: s(REQ),
      ...ACTIVE,
    },
  },
  subscriptionPlans: {
    name: 'subscriptionPlans', save: '/subcriptionPlan', list: '/subcriptionPlans', status: '/subcriptionPlan/status',
    listShape: 'paginated', search: { keyIndex: 11, targets: ['id', 'type', 'nature', 'period'] },
    remove: 'tyype', activeAs: 'int', statusFields: ['is_active'], access: 'subscription-plans',
    rules: { read: 'user', create: 'admin', update: 'admin' },
    fields: {
      type: s(), nature: s(), period: s(), unit: s(), total_clicks: i(), amount: n(REQ),
      currency: s({ required: true, oneOf: ['USD'] }), ...ACTIVE,
    },
  },
  jobs: {
    name: 'jobs', save: '/job', list: '/jobs', status: '/job/status',
    listShape: 'paginated', search: { keyIndex: 18, targets: ['id', 'title', 'description', 'qualification', 'details'] },
    remove: 'tyype', activeAs: 'int', statusFields: ['is_active'], access: 'job-posts',
    rules: { read: 'public', create: 'admin', update: 'admin' },
    fields: {
      title: s(REQ), description: t(REQ), qualification: t(REQ), details: t(REQ), expiry: s(REQ),
      state: s(), country: s(REQ), ...ACTIVE,
    },
  },
  applicants: {
    name: 'applicants', save: '/applicant', list: '/applicants', status: '/applicant/status',
    listShape: 'paginated', search: { keyIndex: 19, targets: ['id', 'title', 'country'] },
    remove: 'tyype', activeAs: 'int', statusFields: ['is_active'], access: 'job-applicants',
    rules: { read: 'admin', create: 'user', update: 'admin' },
    fields: { user_id: i({ serverSet: true }), title: s(REQ), cv: s({ max: 1024 }), country: s(), ...ACTIVE },
    relations: [{ as: 'user', entity: 'users', key: 'user_id', kind: 'one', pick: ['id', 'name', 'email', 'phone'] }],
  },
  orderStatuses: {
    name: 'orderStatuses', save: '/orderStatus', list: '/orderStatuss', status: '/orderStatus/status',
    listShape: 'paginated', search: { keyIndex: 6, targets: ['id', 'name'] },
    remove: 'tyype', activeAs: 'int', statusFields: ['is_active'], access: 'order-status',
    rules: { read: 'user', create: 'admin', update: 'admin' },
    fields: { name: s(REQ), ...ACTIVE },
  },
  exchanges: {
    name: 'exchanges', save: '/exchanges', list: '/exchangess', status: '/exchanges/status',
    listShape: 'array', search: { keyIndex: 20, targets: ['id', 'code', 'country', 'currency'] },
    remove: 'tyype', activeAs: 'int', statusFields: ['is_active'], access: 'currencies-exchange',
    rules: { read: 'public', create: 'admin', update: 'admin' },
    fields: {
      value_per_dollar: n(REQ), currency_symbol: s({ required: true, max: 8 }), code: s({ required: true, max: 8 }),
      currency: s(REQ), country: s(REQ), ...ACTIVE,
    },
  },
  shippings: {
    name: 'shippings', save: '/shipping', list: '/shippings', status: '/shipping/status',
    listShape: 'paginated', search: { keyIndex: 8, targets: ['id', 'means', 'duration', 'note'] },
    remove: 'tyype', activeAs: 'int', statusFields: ['is_active'], access: 'shipping-classes',
    rules: { read: 'user', create: 'admin', update: 'admin' },
    fields: {
      duration: s(REQ), currency: s({ required: true, oneOf: ['USD'] }), amount: n(REQ), means: s(REQ), note: t(),
      ...ACTIVE,
    },
  },
  miles: {
    name: 'miles', save: '/mile', list: '/miles', status: '/mile/status',
    listShape: 'paginated', search: { keyIndex: 9, targets: ['id', 'currency', 'country'] },
    remove: 'tyype', activeAs: 'int', statusFields: ['is_active'], access: 'mile-prices',
    rules: { read: 'user', create: 'admin', update: 'admin' },
    fields: {
      currency: s({ required: true, oneOf: ['USD'] }), country: s(REQ), value_per_mile: n(REQ), ...ACTIVE,
    },
  },
  supports: {
    name: 'supports', save: '/support', list: '/supports', status: '/support/status',
    listShape: 'paginated', search: { keyIndex: 17, targets: ['id', 'title', 'country', 'message'] },
    remove: 'tyype', activeAs: 'int', statusFields: ['is_active'], access: 'support',
    rules: { read: 'admin', create: 'user', update: 'admin' },
    fields: { user_id: i({ serverSet: true }), title: s(REQ), message: t(REQ), country: s(REQ), ...ACTIVE },
    relations: [{ as: 'user', entity: 'users', key: 'user_id', kind: 'one', pick: ['id', 'name'] }],
  },
  distances: {
    name: 'distances', save: '/distance', list: '/distances', status: '/distance/status',
    listShape: 'array', search: { keyIndex: 21, targets: ['id', 'location_A', 'location_B', 'distance_km'] },
    remove: 'id', activeAs: 'int', statusFields: [], access: 'custom-distances',
    rules: { read: 'user', create: 'admin', update: 'admin' },
    fields: { location_A: s(REQ), location_B: s(REQ), distance_km: n(REQ) },
  },
  deletions: {
    name: 'deletions', save: '/deletion', list: '/deletions', status: '/deletion/retrieve',
    listShape: 'paginated', search: { keyIndex: 22, targets: ['id', 'customer', 'feedback'] },
    remove: 'none', activeAs: 'int', statusFields: ['deletion_status', 'is_active'], access: 'deletion-requests',
    rules: { read: 'admin', create: 'user', update: 'admin' },
    fields: {
      deletion_status: s({ required: true, oneOf: ['No action', 'Deleted', 'Deletion rejected by admin'] }),
      customer: s(REQ), feedback: t(REQ), customer_id: i(REQ), ...ACTIVE,
    },
  },
  chats: {
    name: 'chats', save: '/chat', list: '/chats', status: '/chat/status',
    listShape: 'paginated', remove: 'tyype', activeAs: 'int',
    statusFields: ['admin_online', 'admin_name', 'received_time', 'chats'], access: 'chat-logs',
    rules: { read: 'admin', create: 'public', update: 'admin' },
    fields: {
      admin_online: b(), admin_name: s(), received_time: s(), user_name: s(), user_email: s(),
      user_ip_address: s({ max: 64 }), chats: j(), ...ACTIVE,
    },
  },
} as const satisfies Record<string, EntityContract>;

export type EntityName = keyof typeof ENTITIES;

export const ENTITY_LIST: readonly EntityContract[] = Object.values(ENTITIES);

/** The entity a search keyIndex reads (SPEC §9.4). */
export function entityByKeyIndex(keyIndex: number): EntityContract | undefined {
  return ENTITY_LIST.find((e) => e.search?.keyIndex === keyIndex);
}

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

/**
 * The entity behind a console resource. Console resources are named by their route segment
 * ('shops', 'my-shops', 'category', 'Currencies-exchange'), which lower-cased is the access token;
 * `seller` tells the seller variant ('my-shops') from the admin screen.
 */
export function entityFor(resource: string): { entity: EntityContract; seller: boolean } | undefined {
  const token = resource.toLowerCase();
  for (const entity of ENTITY_LIST) {
    if (entity.owner?.access === token) return { entity, seller: true };
  }
  const entity = ENTITY_LIST.find((e) => e.name === resource || e.access === token);
  return entity && { entity, seller: false };
}
