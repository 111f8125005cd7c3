/**
 * The registry: every resource file's entity, menu entries and search key, enumerated once. The
 * console builds it from resources/ (resources/index.ts) and the server from the same folder
 * (server/registry.ts); tables, routes, rules, the sidebar, canAccess and the generated tests all
 * read it, so declaring a resource file declares everything else.
 */
import { limitsOf, limitsProblem, patternRegExp, type ApiSpec, type EntityContract } from './entity';
import { isAlwaysAllowed } from './roles';

/** A sidebar entry of SPEC §2.6: its access token (SPEC §6.2), route path (SPEC §2.1), place and icon. */
export interface MenuEntry {
  token: string;
  path: string;
  /** Place in the admin sidebar (ascending). */
  order: number;
  /** Icon name from the console's icon set (src/layout/menuIcons.tsx); the server never sees React. */
  icon?: string;
}

/** The seller variant of a screen (My Shops): its menu entry and how a record belongs to a seller. */
export interface SellerEntry extends MenuEntry {
  via: 'owner_id' | 'shop_id';
  /** Place in the seller's own sidebar, when it differs from the admin order (SPEC §2.6). */
  sellerOrder?: number;
}

/**
 * A sidebar entry of the seller's list only, for a page of the resource (its `routes`): placed after
 * SPEC §2.6's seller entries by `sellerOrder`, never in the admin list nor among assignable tokens.
 */
export interface SellerPageEntry {
  token: string;
  path: string;
  sellerOrder: number;
  icon?: string;
}

/**
 * A sidebar entry of the buyer's list (see docs/decisions.md on buyers): the buyer variant of a
 * screen (`buyer`: the records naming the buyer by the entity's `api.buyerKey`, read only) or a page
 * of the resource (`buyerPages`, one of its `routes`), placed by `buyerOrder` after the dashboard.
 */
export interface BuyerEntry {
  token: string;
  path: string;
  buyerOrder: number;
  icon?: string;
}

/** What the registry reads of a resource file; the console's declaration adds its screen. */
export interface ResourceApi {
  /** Entity and table name ('shops'). */
  name: string;
  /** Singular name in the server's messages ('Shop'). */
  title: string;
  api: ApiSpec;
  /** The admin screen's sidebar entry; absent for entities without a screen of their own. */
  menu?: MenuEntry;
  /**
   * The admin screen's route when it has no sidebar entry of its own (`/subcategory`, opened from
   * Categories): guarded by the entity's `api.access`, never an assignable token of its own.
   */
  screenPath?: string;
  seller?: SellerEntry;
  sellerPages?: readonly SellerPageEntry[];
  buyer?: BuyerEntry;
  buyerPages?: readonly BuyerEntry[];
  /**
   * Console pages of the resource outside its screen (`/catalogue`, `/packages`): open to every
   * signed-in user, or only to those holding `access` (a sidebar token).
   */
  routes?: readonly PageRoute[];
  /**
   * Rows the entity's table starts with, written as a save's payload would carry them (an `id` may be
   * given): `reference` in every installation, when the table is empty (order statuses); `demo` in
   * demo mode, while the table holds nothing but its reference rows. Checked by the entity's rules.
   * With `keyedBy`, each reference row goes in whenever no row has its value of that field, so a row
   * added to the declaration reaches an existing database too (a mail event's template by its serial).
   * Demo rows that link to other entities' rows are built by a lazily loaded module (`DemoRows`).
   */
  rows?: { reference?: readonly DeclaredRow[]; demo?: DemoRows; keyedBy?: string };
  /** Server-only parts of the entity's table: columns no payload carries, unique column sets, indexes its readers need. */
  table?: TableExtras;
}

/** A column type of a table's server-only columns. */
export type ColumnType = `varchar(${number})` | 'integer' | 'bigint' | 'text' | 'double precision';

export interface TableExtras {
  columns?: Readonly<Record<string, ColumnType>>;
  unique?: readonly (readonly string[])[];
  indexes?: readonly (readonly string[])[];
}

/** A row of a declaration: field values as a payload carries them. */
export type DeclaredRow = Readonly<Record<string, unknown>>;

/** What a module building an entity's demo rows is given (server/seed.ts). */
export interface DemoContext {
  /**
   * Another entity's rows as its table holds them once its demo rows are in: asked before that
   * entity's turn, it is seeded first (once), so no list of entities in seeding order exists.
   */
  rows(name: string): Promise<readonly DeclaredRow[]>;
  /** The registry seeded (`assignable`: every access a full admin holds). */
  registry: Registry;
  /** The time the demo data is made at, in ms: dates spread back from it. */
  now: number;
}

/**
 * Builds an entity's demo rows. They are written as the table stores them, every column given
 * (a record's creator, an order's totals and dates, JSON as values or text), after the entity's rules
 * have checked the fields a payload carries; an entity whose hooks write its rows themselves
 * (`insertDemo`: users' passwords hashed) gets each row in its own shape.
 */
export type DemoBuilder = (ctx: DemoContext) => readonly DeclaredRow[] | Promise<readonly DeclaredRow[]>;

/**
 * An entity's demo rows: payloads given in the declaration, or a module loaded only when they are
 * seeded (`() => import('./demo')`, its default export a `DemoBuilder`), so the console, which reads
 * the same declaration, never loads them.
 */
export type DemoRows = readonly DeclaredRow[] | (() => Promise<{ default: DemoBuilder }>);

/** A console page of a resource: its path, and the sidebar token it needs (none: any signed-in user). */
export interface PageRoute {
  path: string;
  access?: string;
}

/**
 * A route the console knows behind the sign-in: a resource's screen (its admin screen, its seller
 * variant) or page, or a page of the console itself. `token` is the access it needs (none: any
 * signed-in user). Every one of them is guarded by the same check (canAccess on its first segment).
 */
export interface ConsoleRoute {
  path: string;
  token?: string;
}

export interface AccessEntry {
  token: string;
  path: string;
  /** 1: the buyer's own items; 2: the seller's own items; 3: admin items. */
  level: 1 | 2 | 3;
  icon?: string;
}

export interface ScreenOf<R extends ResourceApi> {
  resource: R;
  entity: EntityContract;
  /** The seller variant ('my-shops'). */
  seller: boolean;
  /** The buyer variant ('my-purchases'): the records naming the buyer, read only. */
  buyer?: boolean;
}

export interface Registry<R extends ResourceApi = ResourceApi> {
  resources: readonly R[];
  entities: readonly EntityContract[];
  /** The entity of this name; throws for an unknown one (a programming error). */
  entity(name: string): EntityContract;
  /** The entity a search keyIndex reads (SPEC §9.4). */
  byKeyIndex(keyIndex: number): EntityContract | undefined;
  /**
   * The resource behind a console route segment ('shops', 'my-shops', 'Currencies-exchange'), or an
   * entity name; `seller` tells the seller variant.
   */
  screen(resource: string): ScreenOf<R> | undefined;
  /** Every sidebar entry in admin order, the dashboard first. */
  access: readonly AccessEntry[];
  /** The seller's sidebar tokens in their order (SPEC §2.6). */
  sellerTokens: readonly string[];
  /** Sidebar entries of the seller's list only (pages such as /packages). */
  sellerPages: readonly AccessEntry[];
  /** The buyer's sidebar tokens in their order, the dashboard first. */
  buyerTokens: readonly string[];
  /** Sidebar entries of the buyer's list only (buyer variants and pages). */
  buyerEntries: readonly AccessEntry[];
  /** Tokens an admin may grant in 'Assign Roles': all but the 'my' and dashboard entries (SPEC §6.2). */
  assignable: readonly string[];
  /** Every route of the console behind the sign-in, but the dashboard's (`/`), which all may open. */
  routes: readonly ConsoleRoute[];
  /** The page (not screen) of this route segment ('catalogue', 'search'). */
  page(segment: string): ConsoleRoute | undefined;
}

/** The dashboard is a page, not a resource: always first (SPEC §2.6). */
export const DASHBOARD: AccessEntry = { token: 'dashboard', path: '/', level: 2, icon: 'Dashboard' };

/** The console's own pages, besides the dashboard: the global search (every signed-in user). */
export const SEARCH_PATH = '/search';
const SHELL_PAGES: readonly ConsoleRoute[] = [{ path: SEARCH_PATH }];

/** A new entity's keyIndex when its file names none: stable, derived from its name, above the legacy ones. */
export function derivedKeyIndex(name: string): number {
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  return 1000 + (hash % 9000);
}

/**
 * A field's min/max fit its kind (a whole number's range is what its column holds); a pattern is a
 * text field's, compiles, and its example has it (generated tests and messages use the example).
 */
function checkFields(def: ResourceApi): void {
  for (const [name, field] of Object.entries(def.api.fields)) {
    const where = `${def.name}.${name}`;
    const limits = limitsProblem(field);
    if (limits) throw new Error(`${where}: ${limits}`);
    if (!field.pattern) continue;
    if (!['string', 'text', 'email'].includes(field.type)) throw new Error(`${where}: a pattern needs a text field`);
    let regex: RegExp;
    try {
      regex = patternRegExp(field.pattern);
    } catch (error) {
      throw new Error(`${where}: the pattern does not compile (${String(error)})`);
    }
    const { example } = field.pattern;
    const { minLength = 0, maxLength = Infinity } = limitsOf(field);
    if (!regex.test(example) || example.length > maxLength || example.length < minLength) {
      throw new Error(`${where}: the example ${example} does not have the field's format`);
    }
  }
}

/** The entity a resource file declares, with its names resolved from its menu entries. */
export function entityOf(def: ResourceApi): EntityContract {
  const access = def.api.access ?? def.menu?.token;
  if (!access) throw new Error(`Resource ${def.name} needs a menu entry or api.access`);
  checkFields(def);
  const { search, ...api } = def.api;
  return {
    ...api,
    name: def.name,
    title: def.title,
    access,
    ...(search ? { search: { keyIndex: search.keyIndex ?? derivedKeyIndex(def.name), targets: search.targets } } : {}),
    ...(def.seller ? { owner: { access: def.seller.token, via: def.seller.via } } : {}),
  };
}

/**
 * Alphabetical order of entity names (letters only, camelCase), as `localeCompare` orders them but
 * without it: its first call builds the locale's collator, which cost a phone's slowed CPU 50 ms
 * while the sign-in page opened.
 */
const alphabetical = (a: string, b: string) => {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : a < b ? 1 : a > b ? -1 : 0;
};

export function createRegistry<R extends ResourceApi>(defs: readonly R[]): Registry<R> {
  const resources = [...defs].sort((a, b) => (a.menu?.order ?? 1e9) - (b.menu?.order ?? 1e9) || alphabetical(a.name, b.name));
  const entities = resources.map(entityOf);
  const byName = new Map(entities.map((e, index) => [e.name, { entity: e, resource: resources[index] }]));
  if (byName.size !== entities.length) throw new Error('Two resource files declare the same entity name');
  const keyIndexes = new Map<number, string>();
  for (const e of entities) {
    if (!e.search) continue;
    const other = keyIndexes.get(e.search.keyIndex);
    if (other) throw new Error(`Resources ${other} and ${e.name} share the search keyIndex ${e.search.keyIndex}`);
    keyIndexes.set(e.search.keyIndex, e.name);
  }

  type Item = { entry: AccessEntry; order: number; sellerOrder?: number };
  const items: Item[] = [];
  const routes = new Map<string, ScreenOf<R>>();
  resources.forEach((resource, index) => {
    const entity = entities[index];
    if (resource.menu) {
      const { token, path, order, icon } = resource.menu;
      items.push({ entry: { token, path, level: 3, icon }, order });
      routes.set(path.slice(1), { resource, entity, seller: false });
    } else if (resource.screenPath) {
      routes.set(resource.screenPath.slice(1), { resource, entity, seller: false });
    }
    if (resource.seller) {
      const { token, path, order, icon, sellerOrder } = resource.seller;
      items.push({ entry: { token, path, level: 2, icon }, order, sellerOrder: sellerOrder ?? order });
      routes.set(path.slice(1), { resource, entity, seller: true });
    }
    if (resource.buyer) {
      if (!entity.buyerKey) throw new Error(`Resource ${resource.name} declares a buyer variant without api.buyerKey`);
      routes.set(resource.buyer.path.slice(1), { resource, entity, seller: false, buyer: true });
    }
  });
  items.sort((a, b) => a.order - b.order);
  const access = [DASHBOARD, ...items.map((i) => i.entry)];
  const pages: Item[] = resources.flatMap((resource) =>
    (resource.sellerPages ?? []).map(({ token, path, icon, sellerOrder }) => ({
      entry: { token, path, level: 2 as const, icon }, order: Number.MAX_SAFE_INTEGER, sellerOrder,
    })),
  );
  const sellerTokens = [
    DASHBOARD.token,
    ...[...items, ...pages].filter((i) => i.sellerOrder !== undefined).sort((a, b) => a.sellerOrder! - b.sellerOrder!).map((i) => i.entry.token),
  ];
  const sellerPages = pages.map((p) => p.entry);
  const buyerItems = resources
    .flatMap((resource) => [...(resource.buyer ? [resource.buyer] : []), ...(resource.buyerPages ?? [])])
    .sort((a, b) => a.buyerOrder - b.buyerOrder);
  const buyerEntries: AccessEntry[] = buyerItems.map(({ token, path, icon }) => ({ token, path, level: 1, icon }));
  const screens: ConsoleRoute[] = resources.flatMap((resource, index) => [
    ...(resource.menu ? [{ path: resource.menu.path, token: resource.menu.token }] : []),
    ...(!resource.menu && resource.screenPath ? [{ path: resource.screenPath, token: entities[index].access }] : []),
    ...(resource.seller ? [{ path: resource.seller.path, token: resource.seller.token }] : []),
    ...(resource.buyer ? [{ path: resource.buyer.path, token: resource.buyer.token }] : []),
  ]);
  const pageRoutes: ConsoleRoute[] = [
    ...SHELL_PAGES,
    ...resources.flatMap((resource) => (resource.routes ?? []).map(({ path, access }) => (access ? { path, token: access } : { path }))),
  ];
  const tokens = new Set<string>();
  for (const { token } of [...access, ...sellerPages, ...buyerEntries]) {
    if (tokens.has(token)) throw new Error(`Two sidebar entries use the access token ${token}`);
    tokens.add(token);
  }

  return {
    resources,
    entities,
    entity(name) {
      const found = byName.get(name);
      if (!found) throw new Error(`No resource file declares the entity ${name}`);
      return found.entity;
    },
    byKeyIndex: (keyIndex) => entities.find((e) => e.search?.keyIndex === keyIndex),
    screen(resource) {
      const route = routes.get(resource) ?? [...routes.entries()].find(([path]) => path.toLowerCase() === resource.toLowerCase())?.[1];
      if (route) return route;
      const found = byName.get(resource);
      return found && { resource: found.resource, entity: found.entity, seller: false };
    },
    access,
    sellerTokens,
    sellerPages,
    buyerTokens: [DASHBOARD.token, ...buyerEntries.map((e) => e.token)],
    buyerEntries,
    assignable: access.map((a) => a.token).filter((token) => !isAlwaysAllowed(token)),
    routes: [...screens, ...pageRoutes],
    page: (segment) => pageRoutes.find((p) => p.path.slice(1).toLowerCase() === segment.toLowerCase()),
  };
}

