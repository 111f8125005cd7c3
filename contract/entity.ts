/**
 * How the product API of SPEC §7 describes one entity: its save, list and status paths (spellings
 * kept), the shape of its list answer, its search key and targets (SPEC §9.4), how it is deleted,
 * how is_active goes on the wire, who may use it, and its fields with their types, flags and
 * defaults. Each resource file (resources/) declares its entity with these types; the console's
 * dataProvider and the reference server are both driven by them.
 */

export type FieldType = 'string' | 'text' | 'email' | 'int' | 'number' | 'bool' | 'json' | 'date';

export interface FieldSpec {
  type: FieldType;
  /** Required when a record is created (the * of SPEC §3); when present, never empty. */
  required?: boolean;
  /** Text: shortest/longest length. Numbers: smallest/largest value. Unset: the kind's (KIND_LIMITS). */
  min?: number;
  max?: number;
  /** No two records share this value (compared case-insensitively for text). */
  unique?: boolean;
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
  /** Set by the server to the id of the user who creates the record (a shop's owner_id). */
  creator?: boolean;
  /** The value a new record starts with when the payload leaves it out (SPEC §9.3). */
  default?: string | number | boolean | null;
  /**
   * Holds addresses of uploaded files (a product's images, an application's CV): saving the record
   * marks those files as used; uploads no record ever names are removed after a grace period.
   */
  files?: boolean;
  /**
   * A JSON field's shape as JSON Schema, for the API document (an order's items); the entity's
   * hooks check it.
   */
  shape?: Readonly<Record<string, unknown>>;
  /** The server looks records up by this column (an order's hold expiry): it gets an index of its own. */
  indexed?: boolean;
  /** Text: the format the whole value must have (a coupon's code), checked by the server and the form. */
  pattern?: FieldPattern;
}

/** A text format: the expression, a value that has it, and the format in words in each language. */
export interface FieldPattern {
  /** A regular expression in JavaScript's syntax, without flags; the whole value must match it: '[A-Z0-9]+'. */
  regex: string;
  /** A value of this format, shown in messages and used by the generated tests: 'WELCOME10'. */
  example: string;
  /** The format in words, completing "… must be": '3 to 32 capital letters or digits'. */
  hint: { en: string; fr: string };
}

/**
 * The limits of each kind of field, written once: a field's own `min`/`max` narrow them. The server's
 * validation (server/records.ts), the API document (server/openapi/schemas.ts) and the database's columns
 * (server/db/schema.ts) all read them through `limitsOf`.
 * - Text-like kinds: the longest value (a json field: its encoded length); a string, email or date
 *   column is a varchar of that length.
 * - A whole number: what the `integer` column holds on both databases (PostgreSQL's is 32 bits).
 * - A number: 10^15 either way, where a double still holds every hundredth exactly.
 */
export const KIND_LIMITS: Readonly<Record<FieldType, Readonly<FieldLimits>>> = {
  string: { maxLength: 255 },
  email: { maxLength: 255 },
  date: { maxLength: 32 },
  text: { maxLength: 5000 },
  json: { maxLength: 20000 },
  int: { minimum: -2147483648, maximum: 2147483647 },
  number: { minimum: -1e15, maximum: 1e15 },
  bool: {},
};

/** A field's limits: its text's length (shortest, longest) or its number's range (smallest, largest). */
export interface FieldLimits {
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
}

/** The limits of a field: its own min/max where it declares them, its kind's otherwise. */
export function limitsOf(field: FieldSpec): FieldLimits {
  const kind = KIND_LIMITS[field.type];
  if (kind.maxLength !== undefined) {
    return { ...(field.min !== undefined ? { minLength: field.min } : {}), maxLength: field.max ?? kind.maxLength };
  }
  if (kind.maximum !== undefined) return { minimum: field.min ?? kind.minimum, maximum: field.max ?? kind.maximum };
  return {};
}

/** What is wrong with a field's declared min/max: a number's range beyond what its kind holds, a min above the max. */
export function limitsProblem(field: FieldSpec): string | undefined {
  const kind = KIND_LIMITS[field.type];
  const { min, max } = field;
  if (min !== undefined && max !== undefined && min > max) return `its min ${min} is above its max ${max}`;
  if (kind.maximum === undefined) return undefined;
  for (const bound of [min, max]) {
    if (bound !== undefined && (bound < kind.minimum! || bound > kind.maximum)) {
      return `${bound} is outside the ${field.type} kind's range (${kind.minimum} to ${kind.maximum})`;
    }
  }
  return undefined;
}

/** The pattern as an expression matching whole values (anchored, Unicode). */
export const patternRegExp = (pattern: FieldPattern): RegExp => new RegExp(`^(?:${pattern.regex})$`, 'u');

/** Whether a text has the field's format (a field without a pattern takes any text). */
export const matchesPattern = (field: FieldSpec, text: string): boolean => !field.pattern || patternRegExp(field.pattern).test(text);

/** The server's words when a text lacks its format: 'code must be 3 to 32 capital letters or digits, such as WELCOME10'. */
export const patternProblem = (what: string, pattern: FieldPattern): string => `${what} must be ${pattern.hint.en}, such as ${pattern.example}`;

/** Error statuses a call answers besides the 400, 401, 403, 413 and 415 every call may, each with its reason. */
export type Fails = Readonly<Partial<Record<401 | 403 | 404 | 409 | 413 | 429 | 503, string>>>;

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

/** What a resource file says of its API (the contract entry, without what its menu entries give). */
export interface ApiSpec {
  save: string;
  list: string;
  status: string;
  /** 'paginated': HLL is the paginator object (HLL.data holds rows); 'array': HLL is a plain array. */
  listShape: 'paginated' | 'array';
  /**
   * SPEC §9.4: the searched columns and the keyIndex naming them. Entities of the legacy API keep
   * their keyIndex; a new entity may leave it out and gets one derived from its name.
   */
  search?: { keyIndex?: number; targets: readonly string[] };
  /** Delete payload on the status path: {tyype:'clear', id}, products' {tyype, type:'clear', id}, or {id}. */
  remove: 'tyype' | 'tyype+type' | 'id' | 'none';
  /** How is_active travels from the Control tab: 1/0 or a boolean. */
  activeAs: 'int' | 'bool';
  /** Fields a status call may change besides deletion. */
  statusFields: readonly string[];
  /**
   * What a status call carries besides the id: the status fields (default), or the whole record
   * with the choices merged in (subscriptions, SPEC §7.6).
   */
  statusSends?: 'fields' | 'record';
  /** Constant fields every status call carries (products: `type: 'state'`, SPEC §7.4). */
  statusExtra?: Readonly<Record<string, string | number>>;
  /** Status fields the seller variant sends under another name (My Orders: `status` as `state`, SPEC §4.5). */
  sellerStatusAs?: Readonly<Record<string, string>>;
  /**
   * The console's save sends SPEC §3.24's one payload (contract/onePayload.ts: every legacy form's
   * fields, groups and defaults), as the legacy back end expects. Otherwise the payload is derived from
   * this entity's own fields (their groups, wraps and defaults).
   */
  onePayload?: boolean;
  /** The save call carries exactly these fields (users' edit call, SPEC §7.2). */
  saveFields?: readonly string[];
  /** The access token of the admin screen, when the entity has no menu entry of its own (subcategories). */
  access?: string;
  rules: { read: Rule; create: Rule; update: Rule };
  /**
   * The field naming the buyer of a record (an order's customer_id): with a read rule of 'owner', a
   * buyer reads, and never changes, the records that name them.
   */
  buyerKey?: string;
  /** Its calls are served by routes of their own (users: register, sign in, the multipart list). */
  ownRoutes?: boolean;
  /**
   * A cookie the answer sets when a caller without a session creates a record, holding the key that
   * finds it again (chats: the visitor's): the API document names it on the save call and the REST
   * face's POST.
   */
  createCookie?: string;
  /** Not part of the legacy contract: its calls answer 404 in strict mode (the audit log). */
  extension?: boolean;
  fields: Readonly<Record<string, FieldSpec>>;
  relations?: readonly Relation[];
}

/** The entity as the server and the dataProvider use it: the API spec with its names resolved. */
export interface EntityContract extends ApiSpec {
  /** Table name in the database; the resource file's name. */
  name: string;
  /** Singular name in the server's messages ('Shop updated successfully'). */
  title: string;
  search?: { keyIndex: number; targets: readonly string[] };
  /** The admin screen's access token (SPEC §6.2). */
  access: string;
  /** Seller variant: the token of the seller screen and how records belong to a seller. */
  owner?: { access: string; via: 'owner_id' | 'shop_id' };
}

/**
 * `owner.via: 'shop_id'`: a record belongs to the owner of the shop its shop_id names — that table's
 * owner_id column.
 */
export const OWNED_THROUGH = { shop_id: { parent: 'shops', owner: 'owner_id' } } as const;

/** Whether an entity can create new records through its API (update-only screens say no). */
export const canCreate = (entity: EntityContract) => entity.rules.create !== 'none';

/** SPEC §4.3: one truth for "is this value on" — 1, true, '1', 'true', 'active', 'yes'. */
export const isOn = (value: unknown): boolean =>
  typeof value === 'string' ? ['1', 'true', 'active', 'yes'].includes(value.trim().toLowerCase()) : value === true || value === 1;

/** is_active on the wire: 1/0 or a boolean, per the entity's activeAs. */
export const encodeActive = (entity: Pick<EntityContract, 'activeAs'>, value: unknown): boolean | 0 | 1 =>
  entity.activeAs === 'bool' ? isOn(value) : isOn(value) ? 1 : 0;

/** Field builders for resource files: `s(REQ)`, `n({ min: 0 })`, `b({ default: 1 })`. */
export const s = (extra: Partial<FieldSpec> = {}): FieldSpec => ({ type: 'string', ...extra });
export const t = (extra: Partial<FieldSpec> = {}): FieldSpec => ({ type: 'text', ...extra });
export const e = (extra: Partial<FieldSpec> = {}): FieldSpec => ({ type: 'email', ...extra });
export const n = (extra: Partial<FieldSpec> = {}): FieldSpec => ({ type: 'number', ...extra });
export const i = (extra: Partial<FieldSpec> = {}): FieldSpec => ({ type: 'int', ...extra });
export const b = (extra: Partial<FieldSpec> = {}): FieldSpec => ({ type: 'bool', ...extra });
export const j = (extra: Partial<FieldSpec> = {}): FieldSpec => ({ type: 'json', ...extra });
export const d = (extra: Partial<FieldSpec> = {}): FieldSpec => ({ type: 'date', ...extra });
export const REQ = { required: true } as const;

/** is_active, on by default for new records. */
export const ACTIVE = { is_active: b({ default: 1 }) } as const;

/** An address group (SPEC §3.3): street, zip, city/state/country with the picker's details. */
export const address = (required: boolean) => ({
  street_name: s({ group: 'address', required }),
  zip: s({ group: 'address', required }),
  city: s({ group: 'address' }),
  state: s({ group: 'address' }),
  country: s({ group: 'address', required }),
  city_details: j({ group: 'address' }),
  state_details: j({ group: 'address' }),
  country_details: j({ group: 'address' }),
});

export const ADMIN_ONLY = { read: 'admin', create: 'admin', update: 'admin' } as const;
