/**
 * react-admin DataProvider over the product API (SPEC §7), driven by the registry of resource files
 * it is given. Resources are named by route segment ('shops', 'my-shops', 'Currencies-exchange'); the
 * registry maps them to their entity and tells seller variants apart. One method per data call and
 * no per-resource branch (as ra-data-simple-rest): what differs between entities is read from their
 * contract entry, per-resource quirks live in each resource's lifecycle callbacks, and a resource
 * whose calls differ altogether declares its own small provider (`dataProvider`), combined with this
 * one by react-admin's combineDataProviders. Extensions a legacy server ignores (per_page, sort,
 * order, filter, scope) are sent, and everything the console needs is also done on the client
 * (seller scoping, equality filters, paging of plain-array answers).
 */
import { HttpError, combineDataProviders } from 'react-admin';
import type {
  CreateParams, CreateResult, DataProvider, DeleteParams, DeleteResult, GetListParams, GetListResult, GetManyParams, GetManyResult,
  GetOneParams, GetOneResult, Identifier, RaRecord, SortPayload, UpdateParams, UpdateResult,
} from 'react-admin';
import {
  DEFAULT_PER_PAGE, FIRST_PAGE, MAX_PER_PAGE, PATHS, encodeActive,
  type EntityContract, type Info, type Paginated, type Registry, type ResourceApi,
} from '../contract';
import { createApi, defaultClient, isObject, type Api, type HttpClient, type SessionReader } from './http';

export {
  bearerOf, createApi, defaultClient, fetchClient, onStepUp,
  type Api, type CallOptions, type HttpClient, type HttpResponse, type SessionReader,
} from './http';

/** The pager of SPEC §2.9, returned as `meta` by getList. */
export interface PageMeta {
  from: number | null;
  to: number | null;
  current_page: number;
  last_page: number;
}

export interface SetStatusParams {
  id: Identifier;
  /** The Control tab's choices, e.g. {is_active: 'Active'} or {state: 'draft'}. */
  data: Record<string, unknown>;
  previousData?: RaRecord;
}

/** What an upload answers: the server's message and the stored files' addresses. */
export interface UploadResult {
  query: string;
  files: string[];
}

/**
 * The server's `query` message of a create, update or delete, carried on the returned record
 * (react-admin hands a mutation's `onSuccess` only its `data`): read it with `answerOf`.
 */
const ANSWER = Symbol.for('marketplace.answer');

export function withAnswer<T extends object>(data: T, query: string): T {
  Object.defineProperty(data, ANSWER, { value: query, enumerable: false });
  return data;
}

/** The server's message that came with a saved or deleted record, if any. */
export const answerOf = (data: unknown): string | undefined =>
  data && typeof data === 'object' ? ((data as Record<symbol, unknown>)[ANSWER] as string | undefined) : undefined;

/** What a resource's own provider is built from (see `ResourceProvider`). */
export interface ProviderParts {
  /** The contract transport (POST JSON, multipart forms), with the session's token. */
  api: Api;
  /** The generic provider: the resource's other calls stay its. */
  base: MarketplaceDataProvider;
  /**
   * getList as the generic provider does it (search, scoping, filters, paging of the answer), with
   * the resource's own plain list call: `body` holds page, per_page and what else the list sends.
   */
  list(resource: string, params: Partial<GetListParams>, call: (body: Record<string, unknown>, signal?: AbortSignal) => Promise<Info>): Promise<GetListResult>;
  /** The error of a record that is not there (react-admin's 404). */
  notFound(): Error;
}

/**
 * A resource's own data calls (react-admin's combineDataProviders picks them by resource): the
 * methods it answers differently; the others are the generic provider's.
 */
export type ResourceProvider = (parts: ProviderParts) => Partial<DataProvider>;

/** What the dataProvider reads of a resource file: its entity, and its own provider if any. */
export interface DataResource extends ResourceApi {
  dataProvider?: ResourceProvider;
}

export interface DataProviderOptions {
  /** The product API base (SPEC §7.1 {host}). */
  apiUrl: string;
  /** The registry of resource files: entities, screens and their variants, resources' own providers. */
  resources: Registry<DataResource>;
  /** The signed-in user: the bearer token of every call, and whose rows seller and buyer screens keep. */
  session: SessionReader;
  /** The HTTP client; fetch by default. Tests give a recording one. */
  http?: HttpClient;
}

export interface MarketplaceDataProvider extends DataProvider {
  /** The product API base the provider calls (SPEC §7.1 {host}). */
  apiUrl: string;
  /** The Control tab: POST the entity's status path. */
  setStatus(resource: string, params: SetStatusParams): Promise<{ data: RaRecord; query: string }>;
  /** Assign Roles: the user's granted accesses. Resolves to the server's message. */
  assignRole(id: Identifier, tokens: readonly string[]): Promise<string>;
  /** Deactivate / Activate a user. Resolves to the server's message. */
  blacklist(id: Identifier, isActive?: unknown): Promise<string>;
  /** SPEC §7.5: images (file, file1, file2, file3) or one docx, under a tag. */
  upload(kind: 'image' | 'docx', tag: string, files: readonly Blob[], extra?: Record<string, string>): Promise<UploadResult>;
  /** Any other contract call (PATHS): POST a JSON body, get the checked envelope. */
  call<D = unknown, H = unknown>(path: string, body?: object): Promise<Info<D, H>>;
}

/** Extension: a seller screen asks the server for the caller's own records only (an admin's 'My Shops'). */
const OWN = { scope: 'own' } as const;

/** SPEC §4.8 and §7: delete payloads on the status path, per the contract's remove style. */
const REMOVE: Record<Exclude<EntityContract['remove'], 'none'>, (id: Identifier) => object> = {
  tyype: (id) => ({ tyype: 'clear', id }),
  'tyype+type': (id) => ({ tyype: 'clear', type: 'clear', id }),
  id: (id) => ({ id }),
};

const pick = (record: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> =>
  Object.fromEntries(keys.filter((k) => k in record).map((k) => [k, record[k]]));

/** A save answer's `detail`, when it is the saved record, overrides what was sent. */
const savedFields = (detail: unknown): Record<string, unknown> => (isObject(detail) ? detail : {});

const rowsOf = (hll: unknown): RaRecord[] =>
  (Array.isArray(hll) ? hll : isObject(hll) && Array.isArray(hll.data) ? hll.data : []) as RaRecord[];

const sortOf = (sort?: SortPayload) =>
  sort?.field ? { sort: sort.field, order: sort.order === 'DESC' ? 'DESC' : 'ASC' } : {};

export const span = (page: number, perPage: number, count: number, total: number): PageMeta => {
  const from = count ? (page - 1) * perPage + 1 : null;
  return {
    from,
    to: from === null ? null : from + count - 1,
    current_page: page,
    last_page: Math.max(1, Math.ceil(total / perPage)),
  };
};

/**
 * One page from an answer. HLL is the paginator (rows in HLL.data) or a plain array: an array with
 * a `total` beside it was paged by the server, otherwise it is the whole list and is paged here.
 * `keep` drops rows on the client (seller scoping and filters for legacy servers).
 */
function toPage(info: Info, page: number, perPage: number, keep: (row: RaRecord) => boolean) {
  const hll = info.HLL;
  const source = rowsOf(hll);
  const kept = source.filter(keep);
  const removed = source.length - kept.length;
  if (Array.isArray(hll) && typeof info.total !== 'number') {
    const rows = kept.slice((page - 1) * perPage, page * perPage);
    return { rows, total: kept.length, meta: span(page, perPage, rows.length, kept.length) };
  }
  const pager: Partial<Paginated<RaRecord>> = isObject(hll) ? hll : {};
  const total = Math.max(0, (pager.total ?? info.total ?? source.length) - removed);
  const meta =
    typeof pager.current_page === 'number'
      ? {
          from: pager.from ?? null,
          to: pager.to ?? null,
          current_page: pager.current_page,
          last_page: pager.last_page ?? pager.current_page,
        }
      : span(page, perPage, kept.length, total);
  return { rows: kept, total, meta };
}

const sameValue = (value: unknown, wanted: unknown): boolean =>
  Array.isArray(wanted) ? wanted.some((w) => sameValue(value, w)) : String(value) === String(wanted);

/**
 * Rows a screen may show: a seller variant keeps the session user's rows (SPEC §6.2: owner_id, or
 * the shop's owner_id), a buyer variant the rows naming the session user as buyer (the entity's
 * buyerKey); filters compare by equality, skipping fields the rows do not carry.
 */
function matcher(
  entity: EntityContract,
  variant: { seller: boolean; buyer?: boolean },
  filter: Record<string, unknown>,
  userId: string | undefined,
) {
  const owner = variant.seller ? entity.owner : undefined;
  const ownerOf = (row: RaRecord): unknown =>
    variant.buyer && entity.buyerKey
      ? row[entity.buyerKey]
      : owner?.via === 'owner_id' ? row.owner_id : isObject(row.shop) ? row.shop.owner_id : undefined;
  const scoped = variant.seller || variant.buyer;
  return (row: RaRecord): boolean =>
    (!scoped || (userId !== undefined && ownerOf(row) != null && String(ownerOf(row)) === userId)) &&
    Object.entries(filter).every(([key, wanted]) => row[key] === undefined || sameValue(row[key], wanted));
}

/** The value a Control choice stands for: a linked record ({id, name}) by its id. */
const plain = (value: unknown) => (isObject(value) && value.id != null ? value.id : value);

/** The status call's payload for the Control tab (SPEC §4.3–§4.5, §7), from the entity's contract. */
function statusPayload(
  entity: EntityContract,
  seller: boolean,
  id: Identifier,
  data: Record<string, unknown>,
  previous: Record<string, unknown>,
): object {
  const record = { ...previous, ...data };
  const body: Record<string, unknown> =
    entity.statusSends === 'record' ? { ...record } : pick(record, entity.statusFields);
  for (const key of Object.keys(body)) body[key] = plain(body[key]);
  if ('is_active' in body) body.is_active = encodeActive(entity, body.is_active);
  if (seller) {
    for (const [field, alias] of Object.entries(entity.sellerStatusAs ?? {})) {
      if (field in body) {
        body[alias] = body[field];
        delete body[field];
      }
    }
  }
  return { ...entity.statusExtra, ...body, id };
}

const notFound = () => new HttpError('ra.notification.item_doesnt_exist', 404, null);

/** `meta` of react-admin's params goes to the call as extra fields; the provider's own fields win. */
const withMeta = (meta: unknown, body: object): object => (isObject(meta) ? { ...meta, ...body } : body);

/** The provider over the contract for every resource, and each resource's own provider over it. */
export function createDataProvider({ apiUrl, resources, session, http = defaultClient }: DataProviderOptions): MarketplaceDataProvider {
  const api = createApi(apiUrl, session, http);

  function resolve(resource: string): { entity: EntityContract; seller: boolean; buyer?: boolean } {
    const found = resources.screen(resource);
    if (!found) throw new HttpError(`Unknown resource: ${resource}`, 404, null);
    return found;
  }

  async function list(resource: string, params: Partial<GetListParams>, call: (body: Record<string, unknown>, signal?: AbortSignal) => Promise<Info>): Promise<GetListResult> {
    const variant = resolve(resource);
    const { entity, seller } = variant;
    const page = params.pagination?.page ?? FIRST_PAGE;
    const perPage = params.pagination?.perPage ?? DEFAULT_PER_PAGE;
    const { q, ...filter }: Record<string, unknown> = params.filter ?? {};
    const text = typeof q === 'string' ? q.trim() : '';
    const paging = { page, per_page: perPage, ...(seller ? OWN : {}) };
    const signal = params.signal;
    let info: Info;
    if (text && entity.search) {
      const { keyIndex, targets } = entity.search;
      info = await api.post(PATHS.search, withMeta(params.meta, { keyIndex, value: text, targets, ...paging }), signal);
    } else {
      const filtered = Object.keys(filter).length ? { filter } : {};
      info = await call(withMeta(params.meta, { ...paging, ...sortOf(params.sort), ...filtered }) as Record<string, unknown>, signal);
    }
    const { rows, total, meta } = toPage(info, page, perPage, matcher(entity, variant, filter, session()?.id));
    return { data: rows, total, meta };
  }

  const getList = (resource: string, params: Partial<GetListParams>) =>
    list(resource, params, (body, signal) => api.post(resolve(resource).entity.list, body, signal));

  async function getOne(resource: string, { id, signal, meta }: GetOneParams): Promise<GetOneResult> {
    const variant = resolve(resource);
    const { entity, seller } = variant;
    const keep = matcher(entity, variant, {}, session()?.id);
    const find = (rows: RaRecord[]) => rows.find((row) => String(row.id) === String(id) && keep(row));
    let record: RaRecord | undefined;
    if (entity.search) {
      const { keyIndex } = entity.search;
      const body = { keyIndex, value: String(id), targets: ['id'], ...(seller ? OWN : {}) };
      record = find(rowsOf((await api.post(PATHS.search, withMeta(meta, body), signal)).HLL));
    } else {
      // No search key (chats): page through the list.
      for (let page = FIRST_PAGE; !record; page++) {
        const info = await api.post(entity.list, withMeta(meta, { page, per_page: MAX_PER_PAGE }), signal);
        const { rows, meta: pager } = toPage(info, page, MAX_PER_PAGE, () => true);
        record = find(rows);
        if (!rows.length || page >= pager.last_page) break;
      }
    }
    if (!record) throw notFound();
    return { data: record };
  }

  async function create(resource: string, { data, meta }: CreateParams): Promise<CreateResult> {
    const { entity } = resolve(resource);
    const { id: _ignored, ...body } = (data ?? {}) as Record<string, unknown>;
    const { detail, query } = await api.post(entity.save, withMeta(meta, body));
    return { data: withAnswer({ ...body, id: undefined, ...savedFields(detail) }, query), meta: { query } };
  }

  async function update(resource: string, { id, data, previousData, meta }: UpdateParams): Promise<UpdateResult> {
    const { entity } = resolve(resource);
    const record = { ...previousData, ...data, id };
    const body = entity.saveFields ? pick(record, entity.saveFields) : { ...data, id };
    const { detail, query } = await api.post(entity.save, withMeta(meta, body));
    return { data: withAnswer({ ...record, ...savedFields(detail) }, query), meta: { query } };
  }

  async function remove(resource: string, { id, previousData, meta }: DeleteParams): Promise<DeleteResult> {
    const { entity } = resolve(resource);
    if (entity.remove === 'none') throw new HttpError(`${resource} records cannot be deleted`, 405, null);
    const { query } = await api.post(entity.status, withMeta(meta, REMOVE[entity.remove](id)));
    return { data: withAnswer({ ...(previousData ?? { id }) }, query), meta: { query } };
  }

  /**
   * Several records in one list call naming their ids (`filter: {id: [...]}`, an extension, a page of
   * at most MAX_PER_PAGE ids at a time). A legacy server ignores the filter and answers its first
   * page: the ids that page lacks are read one by one, as getOne does; an id no call finds is left
   * out (as ra-data-simple-rest's getMany does).
   */
  async function getMany(resource: string, { ids, signal, meta }: GetManyParams): Promise<GetManyResult> {
    const found = new Map<string, RaRecord>();
    for (let start = 0; start < ids.length; start += MAX_PER_PAGE) {
      const chunk = ids.slice(start, start + MAX_PER_PAGE);
      const { data } = await getList(resource, { pagination: { page: FIRST_PAGE, perPage: chunk.length }, filter: { id: chunk }, signal, meta });
      for (const row of data) found.set(String(row.id), row);
    }
    const missing = ids.filter((id) => !found.has(String(id)));
    const read = await Promise.all(
      missing.map((id) =>
        getOne(resource, { id, signal, meta }).then(
          (r) => r.data,
          (error: unknown) => {
            if (error instanceof HttpError && error.status === 404) return undefined;
            throw error;
          },
        ),
      ),
    );
    for (const row of read) if (row) found.set(String(row.id), row);
    return { data: ids.flatMap((id) => found.get(String(id)) ?? []) };
  }

  const base: MarketplaceDataProvider = {
    apiUrl,
    supportAbortSignal: true,
    getList,
    getOne,
    getMany,
    getManyReference: (resource, { target, id, filter, ...params }) =>
      getList(resource, { ...params, filter: { ...filter, [target]: id } }),
    create,
    update,
    updateMany: async (resource, { ids, data, meta }) => {
      await Promise.all(ids.map((id) => update(resource, { id, data, previousData: { id }, meta })));
      return { data: ids };
    },
    delete: remove,
    deleteMany: async (resource, { ids, meta }) => {
      await Promise.all(ids.map((id) => remove(resource, { id, meta })));
      return { data: ids };
    },
    async setStatus(resource, { id, data, previousData = { id } }) {
      const { entity, seller } = resolve(resource);
      const payload = statusPayload(entity, seller, id, data, previousData);
      const { detail, query } = await api.post(entity.status, payload);
      return { data: { ...previousData, ...data, id, ...savedFields(detail) }, query };
    },
    assignRole: async (id, tokens) => (await api.post(PATHS.assignRole, { id, granted_accesses: tokens })).query,
    blacklist: async (id, isActive) => {
      const active = isActive === undefined ? {} : { is_active: encodeActive({ activeAs: 'int' }, isActive) };
      return (await api.post(PATHS.userStatus, { id, ...active })).query;
    },
    async upload(kind, tag, files, extra = {}) {
      const form = new FormData();
      // SPEC §7.5: file, file1, file2, file3.
      files.forEach((file, index) => form.append(index === 0 ? 'file' : `file${index}`, file));
      form.append('tag', tag);
      for (const [key, value] of Object.entries(extra)) form.append(key, value);
      const { query, detail } = await api.form(kind === 'image' ? PATHS.uploadImage : PATHS.uploadDocx, form, { headers: { Accept: 'application/json' } });
      const stored = isObject(detail) && Array.isArray(detail.files) ? detail.files.map(String) : [];
      return { query, files: stored };
    },
    call: (path, body) => api.post(path, body),
  };

  // Resources with calls of their own (users' multipart list), by entity; every other resource is the base's.
  const parts: ProviderParts = { api, base, list, notFound };
  const own = new Map<string, DataProvider>(
    resources.resources.flatMap((def) => (def.dataProvider ? [[def.name, { ...base, ...def.dataProvider(parts) }] as const] : [])),
  );
  const combined = combineDataProviders((resource) => own.get(resources.screen(resource)?.entity.name ?? '') ?? base);
  // The data calls go through the combination; the custom methods (status, uploads…) stay the base's.
  return { ...base, ...combined };
}

export default createDataProvider;
