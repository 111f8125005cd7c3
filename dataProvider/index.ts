/**
 * react-admin DataProvider over the product API (SPEC §7), driven by the registry of resource files.
 * Resources are named by route segment ('shops', 'my-shops', 'Currencies-exchange'); the registry
 * maps them to their entity and tells seller variants apart. One method per data call and no
 * per-resource branch (as ra-data-simple-rest): what differs between entities is read from their
 * contract entry, and per-resource quirks live in each resource's lifecycle callbacks. Extensions a legacy server ignores
 * (per_page, sort, order, filter, scope) are sent, and everything the console needs is also done on the
 * client (seller scoping, equality filters, paging of plain-array answers).
 */
import { HttpError } from 'react-admin';
import type {
  CreateParams, CreateResult, DataProvider, DeleteParams, DeleteResult, GetListParams, GetListResult,
  GetOneParams, GetOneResult, Identifier, RaRecord, SortPayload, UpdateParams, UpdateResult,
} from 'react-admin';
import {
  DEFAULT_PER_PAGE, FIRST_PAGE, MAX_PER_PAGE, PATHS, encodeActive,
  type EntityContract, type Info, type Paginated, type Registry,
} from '../contract';
import { registry as defaultRegistry } from '../resources';
import { getSession } from '../authProvider/session';
import { createApi, defaultClient, isObject, type HttpClient } from './http';

export { createApi, defaultClient, fetchClient, onStepUp, type Api, type HttpClient, type HttpResponse } from './http';

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

const isRecord = (value: unknown): value is RaRecord => isObject(value) && value.id != null;

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
function matcher(entity: EntityContract, variant: { seller: boolean; buyer?: boolean }, filter: Record<string, unknown>) {
  const userId = getSession()?.id;
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

export function createDataProvider(
  apiUrl: string,
  httpClient: HttpClient = defaultClient,
  registry: Registry = defaultRegistry,
): MarketplaceDataProvider {
  const api = createApi(apiUrl, httpClient);

  function resolve(resource: string): { entity: EntityContract; seller: boolean; buyer?: boolean } {
    const found = registry.screen(resource);
    if (!found) throw new HttpError(`Unknown resource: ${resource}`, 404, null);
    return found;
  }

  async function getList(resource: string, params: Partial<GetListParams>): Promise<GetListResult> {
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
      info = await api.post(PATHS.search, { keyIndex, value: text, targets, ...paging }, signal);
    } else if (entity.multipartList) {
      info = await api.users(paging, signal);
    } else {
      const filtered = Object.keys(filter).length ? { filter } : {};
      info = await api.post(entity.list, { ...paging, ...sortOf(params.sort), ...filtered }, signal);
    }
    const { rows, total, meta } = toPage(info, page, perPage, matcher(entity, variant, filter));
    return { data: rows, total, meta };
  }

  async function getOne(resource: string, { id, signal }: GetOneParams): Promise<GetOneResult> {
    const variant = resolve(resource);
    const { entity, seller } = variant;
    const keep = matcher(entity, variant, {});
    const find = (rows: RaRecord[]) => rows.find((row) => String(row.id) === String(id) && keep(row));
    let record: RaRecord | undefined;
    if (entity.multipartList) {
      const { detail } = await api.users({ id }, signal);
      record = isRecord(detail) ? detail : undefined;
    } else if (entity.search) {
      const { keyIndex } = entity.search;
      const body = { keyIndex, value: String(id), targets: ['id'], ...(seller ? OWN : {}) };
      record = find(rowsOf((await api.post(PATHS.search, body, signal)).HLL));
    } else {
      // No search key (chats): page through the list.
      for (let page = FIRST_PAGE; !record; page++) {
        const info = await api.post(entity.list, { page, per_page: MAX_PER_PAGE }, signal);
        const { rows, meta } = toPage(info, page, MAX_PER_PAGE, () => true);
        record = find(rows);
        if (!rows.length || page >= meta.last_page) break;
      }
    }
    if (!record) throw new HttpError('ra.notification.item_doesnt_exist', 404, null);
    return { data: record };
  }

  async function create(resource: string, { data }: CreateParams): Promise<CreateResult> {
    const { entity } = resolve(resource);
    const { id: _ignored, ...body } = (data ?? {}) as Record<string, unknown>;
    const { detail, query } = await api.post(entity.save, body);
    return { data: withAnswer({ ...body, id: undefined, ...savedFields(detail) }, query), meta: { query } };
  }

  async function update(resource: string, { id, data, previousData }: UpdateParams): Promise<UpdateResult> {
    const { entity } = resolve(resource);
    const record = { ...previousData, ...data, id };
    const body = entity.saveFields ? pick(record, entity.saveFields) : { ...data, id };
    const { detail, query } = await api.post(entity.save, body);
    return { data: withAnswer({ ...record, ...savedFields(detail) }, query), meta: { query } };
  }

  async function remove(resource: string, { id, previousData }: DeleteParams): Promise<DeleteResult> {
    const { entity } = resolve(resource);
    if (entity.remove === 'none') throw new HttpError(`${resource} records cannot be deleted`, 405, null);
    const { query } = await api.post(entity.status, REMOVE[entity.remove](id));
    return { data: withAnswer({ ...(previousData ?? { id }) }, query), meta: { query } };
  }

  return {
    apiUrl,
    supportAbortSignal: true,
    getList,
    getOne,
    getMany: async (resource, { ids, signal }) => ({
      data: (await Promise.all(ids.map((id) => getOne(resource, { id, signal })))).map((r) => r.data),
    }),
    getManyReference: (resource, { target, id, filter, ...params }) =>
      getList(resource, { ...params, filter: { ...filter, [target]: id } }),
    create,
    update,
    updateMany: async (resource, { ids, data }) => {
      await Promise.all(ids.map((id) => update(resource, { id, data, previousData: { id } })));
      return { data: ids };
    },
    delete: remove,
    deleteMany: async (resource, { ids }) => {
      await Promise.all(ids.map((id) => remove(resource, { id })));
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
      const { query, detail } = await api.form(kind === 'image' ? PATHS.uploadImage : PATHS.uploadDocx, form);
      const stored = isObject(detail) && Array.isArray(detail.files) ? detail.files.map(String) : [];
      return { query, files: stored };
    },
    call: (path, body) => api.post(path, body),
  };
}

export default createDataProvider;
