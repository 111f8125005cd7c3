/**
 * The console on the REST dialect (config.json `dataDialect: "simple-rest"`): react-admin's own
 * `ra-data-simple-rest` provider for the data calls (lists, records, creates, updates, deletes) on
 * `{apiUrl}/rest/{entity}`, wrapped only where this product needs more:
 * - console resources are route segments ('my-shops', 'Currencies-exchange'): they are mapped to
 *   their entity, and a seller screen asks for the caller's own records (`scope=own`);
 * - the bearer token goes on every call, and a refusal becomes a react-admin HttpError carrying the
 *   server's `query` (as the contract dialect does);
 * - the server's message (`X-Message`) rides on a saved record, for the console's notifications;
 * - lists carry the pager's `meta`, a search's text is trimmed;
 * - status calls, uploads, role assignment, blacklisting and any other call go to the contract's
 *   own paths, through the contract dataProvider.
 */
import { HttpError, fetchUtils, type DataProvider, type DeleteParams, type DeleteResult, type GetListParams, type Identifier, type RaRecord } from 'react-admin';
import simpleRestProvider from 'ra-data-simple-rest';
import type { EntityContract } from '../contract';
import { bearerOf, isObject, type SessionReader } from './http';
import { answerOf, createDataProvider, fetchClient, span, withAnswer, type DataProviderOptions, type MarketplaceDataProvider } from './index';
import { rememberServerWords } from '../i18n/server';

/** What ra-data-simple-rest expects of its HTTP client: react-admin's fetchUtils.fetchJson answer. */
export type RestResponse = Awaited<ReturnType<typeof fetchUtils.fetchJson>>;

type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** The REST face's HTTP client: JSON, the bearer token, the envelope's `query` on failures. */
export function restClient(fetchImpl: FetchLike, session: SessionReader, extraQuery = ''): (url: string, options?: RequestInit) => Promise<RestResponse> {
  return async (url, options = {}) => {
    const headers = new Headers(options.headers ?? {});
    headers.set('Accept', 'application/json');
    if (options.body !== undefined && !headers.has('Content-Type')) headers.set('Content-Type', 'application/json');
    for (const [key, value] of Object.entries(bearerOf(session))) headers.set(key, value);
    const address = extraQuery && (!options.method || options.method === 'GET') ? `${url}${url.includes('?') ? '&' : '?'}${extraQuery}` : url;
    let response: Response;
    try {
      response = await fetchImpl(address, { ...options, headers });
    } catch (error) {
      if (error instanceof Error && error.name === 'AbortError') throw error;
      throw new HttpError(`Network Error: ${error instanceof Error ? error.message : String(error)}`, 0, null);
    }
    const body = await response.text();
    let json: unknown = null;
    try {
      json = body ? JSON.parse(body) : null;
    } catch {
      json = null;
    }
    if (response.status < 200 || response.status >= 300) {
      const query = isObject(json) ? (typeof json.query === 'string' && json.query) || (typeof json.message === 'string' && json.message) : '';
      if (isObject(json)) rememberServerWords(json.query, json.i18n);
      throw new HttpError(query || response.statusText || `HTTP error ${response.status}`, response.status, json);
    }
    const message = response.headers.get('X-Message');
    if (message && isObject(json)) withAnswer(json, message);
    return { status: response.status, headers: response.headers, body, json };
  };
}

export interface RestDataProviderOptions extends Omit<DataProviderOptions, 'http'> {
  /** The fetch function; the browser's by default. Tests give a recording one. */
  fetch?: FetchLike;
}

export function createRestDataProvider({
  apiUrl, resources: registry, session, fetch: fetchImpl = (input, init) => fetch(input, init),
}: RestDataProviderOptions): MarketplaceDataProvider {
  const contract = createDataProvider({ apiUrl, resources: registry, session, http: fetchClient(fetchImpl as typeof fetch) });
  const base = `${apiUrl}/rest`;
  const all: DataProvider = simpleRestProvider(base, restClient(fetchImpl, session));
  const own: DataProvider = simpleRestProvider(base, restClient(fetchImpl, session, 'scope=own'));

  /** The entity behind a console resource, and the provider its screen reads through. */
  function resolve(resource: string): { entity: EntityContract; rest: DataProvider } {
    const found = registry.screen(resource);
    if (!found) throw new HttpError(`Unknown resource: ${resource}`, 404, null);
    return { entity: found.entity, rest: found.seller ? own : all };
  }

  /** A search's text trimmed, an empty one dropped (the contract dialect's rule). */
  function cleanFilter(filter: Record<string, unknown> = {}): Record<string, unknown> {
    const { q, ...rest } = filter;
    const text = typeof q === 'string' ? q.trim() : q;
    return text === '' || text === undefined || text === null ? rest : { ...rest, q: text };
  }

  async function getList(resource: string, params: GetListParams) {
    const { entity, rest } = resolve(resource);
    const result = await rest.getList(entity.name, { ...params, filter: cleanFilter(params.filter) });
    const { page, perPage } = params.pagination ?? { page: 1, perPage: 10 };
    return { ...result, meta: span(page, perPage, result.data.length, result.total ?? result.data.length) };
  }

  async function remove(resource: string, params: DeleteParams): Promise<DeleteResult> {
    const { entity, rest } = resolve(resource);
    if (entity.remove === 'none') throw new HttpError(`${resource} records cannot be deleted`, 405, null);
    const { data } = await rest.delete(entity.name, params);
    const query = answerOf(data);
    const merged: RaRecord = { ...(params.previousData ?? { id: params.id }), ...(isObject(data) ? data : {}) };
    return { data: query ? withAnswer(merged, query) : merged, meta: { query } };
  }

  const stripId = (data: unknown): Record<string, unknown> => {
    const { id: _ignored, ...fields } = (data ?? {}) as Record<string, unknown>;
    return fields;
  };

  return {
    ...contract,
    getList,
    getOne: (resource, params) => {
      const { entity, rest } = resolve(resource);
      return rest.getOne(entity.name, params);
    },
    getMany: (resource, params) => {
      const { entity, rest } = resolve(resource);
      return rest.getMany(entity.name, params);
    },
    getManyReference: (resource, params) => {
      const { entity, rest } = resolve(resource);
      return rest.getManyReference(entity.name, { ...params, filter: cleanFilter(params.filter) });
    },
    create: async (resource, params) => {
      const { entity, rest } = resolve(resource);
      const { data } = await rest.create(entity.name, { ...params, data: stripId(params.data) });
      return { data, meta: { query: answerOf(data) } };
    },
    update: async (resource, params) => {
      const { entity, rest } = resolve(resource);
      const { data } = await rest.update(entity.name, params);
      return { data, meta: { query: answerOf(data) } };
    },
    updateMany: (resource, params) => {
      const { entity, rest } = resolve(resource);
      return rest.updateMany(entity.name, params);
    },
    delete: remove,
    deleteMany: async (resource, params) => {
      const { entity, rest } = resolve(resource);
      if (entity.remove === 'none') throw new HttpError(`${resource} records cannot be deleted`, 405, null);
      return rest.deleteMany(entity.name, params) as Promise<{ data: Identifier[] }>;
    },
  };
}
