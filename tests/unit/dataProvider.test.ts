// @vitest-environment jsdom
/**
 * The dataProvider against a fake HTTP client: exact url, method, headers and body for every
 * method and every quirk of the contract (SPEC §7), in the manner of ra-data-simple-rest's spec.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { HttpError, type GetOneResult } from 'react-admin';
import { ACTIVE, MAX_PER_PAGE, createRegistry, envelope, s, type Info } from '../../contract';
import { registry } from '../../resources';
import { createDataProvider, onStepUp, type DataResource, type HttpClient, type SessionReader } from '../../dataProvider';
import { clearSession, getSession, setSession } from '../../authProvider/session';

const API = 'http://api.test/api';
const TOKEN = 'tok.en';
const USER_ID = 7;

interface Answer {
  status?: number;
  statusText?: string;
  json: unknown;
}
interface Call {
  url: string;
  method: string | undefined;
  headers: Record<string, string>;
  body: unknown;
  multipart: boolean;
}

const ok = (part: Partial<Info> = {}): Info => envelope({ status: true, query: 'Done', ...part });

/** A client answering in turn from `answers` (then plain success) and recording every call. */
function recorder(answers: (Answer | Error)[]) {
  const calls: Call[] = [];
  const client: HttpClient = async (url, init) => {
    const multipart = init.body instanceof FormData;
    calls.push({
      url,
      method: init.method,
      headers: init.headers as Record<string, string>,
      body: init.body instanceof FormData ? Object.fromEntries(init.body) : JSON.parse(String(init.body)),
      multipart,
    });
    const answer = answers.shift() ?? { json: ok() };
    if (answer instanceof Error) throw answer;
    return { status: answer.status ?? 200, statusText: answer.statusText, json: answer.json };
  };
  return { client, calls };
}

/** The provider over the console's own resource files, the session in local storage. */
function fake(...answers: (Answer | Error)[]) {
  const { client, calls } = recorder(answers);
  return { dp: createDataProvider({ apiUrl: API, resources: registry, session: getSession, http: client }), calls };
}

const JSON_HEADERS = {
  'Content-Type': 'application/json',
  Accept: 'application/json',
  Authorization: `Bearer ${TOKEN}`,
};
const FORM_HEADERS = { Authorization: `Bearer ${TOKEN}`, permission: '3' };

const paginated = (data: object[], extra: object = {}) => ({
  data, total: data.length, from: data.length ? 1 : null, to: data.length || null,
  current_page: 1, last_page: 1, per_page: 15, ...extra,
});
const rows = (...ids: number[]) => ids.map((id) => ({ id, name: `row ${id}` }));
const LIST = { pagination: { page: 1, perPage: 15 }, sort: { field: 'id', order: 'ASC' as const }, filter: {} };

beforeEach(() => {
  clearSession();
  setSession(TOKEN, USER_ID);
});

describe('every call', () => {
  it('posts JSON with the bearer token when a session exists', async () => {
    const { dp, calls } = fake({ json: ok({ HLL: paginated(rows(1)) }) });
    await dp.getList('shops', LIST);
    expect(calls).toEqual([
      {
        url: `${API}/shops`, method: 'POST', headers: JSON_HEADERS, multipart: false,
        body: { page: 1, per_page: 15, sort: 'id', order: 'ASC' },
      },
    ]);
  });

  it('sends no Authorization header without a session', async () => {
    clearSession();
    const { dp, calls } = fake({ json: ok({ HLL: paginated([]) }) });
    await dp.getList('category', LIST);
    expect(calls[0].headers).toEqual({ 'Content-Type': 'application/json', Accept: 'application/json' });
  });

  it('turns status false into an HttpError carrying the query (HTTP 2xx gives 400)', async () => {
    const body = envelope({ status: false, query: 'Name is required' });
    const { dp } = fake({ json: body });
    const error = await dp.create('brands', { data: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ message: 'Name is required', status: 400, body });
  });

  it('turns HTTP 401 into an HttpError with status 401', async () => {
    const body = envelope({ query: 'Unauthenticated' });
    const { dp } = fake({ status: 401, statusText: 'Unauthorized', json: body });
    await expect(dp.getList('shops', LIST)).rejects.toMatchObject({ status: 401, message: 'Unauthenticated', body });
  });

  it('uses the HTTP status text when the body is no envelope', async () => {
    const { dp } = fake({ status: 500, statusText: 'Internal Server Error', json: null });
    await expect(dp.getList('shops', LIST)).rejects.toMatchObject({ status: 500, message: 'Internal Server Error' });
  });

  it('reports a network failure as an HttpError with a readable message', async () => {
    const { dp } = fake(new TypeError('Failed to fetch'));
    const error = await dp.getList('shops', LIST).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).message).toBe('Network Error: Failed to fetch');
  });

  it('rejects an unknown resource without calling the server', async () => {
    const { dp, calls } = fake();
    await expect(dp.getList('nope', LIST)).rejects.toThrow('Unknown resource: nope');
    expect(calls).toEqual([]);
  });
});

describe('getList', () => {
  it('reads a paginated answer: rows, total and the pager', async () => {
    const HLL = paginated(rows(16, 17), { total: 17, from: 16, to: 17, current_page: 2, last_page: 2 });
    const { dp, calls } = fake({ json: ok({ HLL }) });
    const result = await dp.getList('products', {
      pagination: { page: 2, perPage: 15 }, sort: { field: 'name', order: 'DESC' }, filter: {},
    });
    expect(calls[0]).toMatchObject({ url: `${API}/products`, body: { page: 2, per_page: 15, sort: 'name', order: 'DESC' } });
    expect(result).toEqual({
      data: rows(16, 17), total: 17, meta: { from: 16, to: 17, current_page: 2, last_page: 2 },
    });
  });

  it.each([
    ['mail-templates', '/templatess'],
    ['Currencies-exchange', '/exchangess'],
    ['order-status', '/orderStatuss'],
    ['subscriptions', '/subcriptions'],
    ['subscription-plans', '/subcriptionPlans'],
    ['category', '/categories'],
    ['job-posts', '/jobs'],
    ['job-applicants', '/applicants'],
    ['shipping-classes', '/shippings'],
    ['mile-prices', '/miles'],
    ['custom-distances', '/distances'],
    ['deletion-requests', '/deletions'],
    ['support', '/supports'],
    ['chat-logs', '/chats'],
  ])('lists %s from %s', async (resource, path) => {
    const { dp, calls } = fake({ json: ok({ HLL: [] }) });
    await dp.getList(resource, LIST);
    expect(calls[0].url).toBe(`${API}${path}`);
  });

  it('pages a plain-array answer on the client when the server gives no total', async () => {
    const { dp, calls } = fake({ json: ok({ HLL: rows(1, 2, 3, 4, 5) }) });
    const result = await dp.getList('custom-distances', {
      pagination: { page: 2, perPage: 2 }, sort: { field: 'id', order: 'ASC' }, filter: {},
    });
    expect(calls[0]).toMatchObject({ url: `${API}/distances`, body: { page: 2, per_page: 2 } });
    expect(result).toEqual({
      data: rows(3, 4), total: 5, meta: { from: 3, to: 4, current_page: 2, last_page: 3 },
    });
  });

  it('keeps a plain-array answer as the page when the server gives a total', async () => {
    const { dp } = fake({ json: { ...ok({ HLL: rows(3, 4) }), total: 5 } });
    const result = await dp.getList('Currencies-exchange', {
      pagination: { page: 2, perPage: 2 }, sort: { field: 'id', order: 'ASC' }, filter: {},
    });
    expect(result).toEqual({
      data: rows(3, 4), total: 5, meta: { from: 3, to: 4, current_page: 2, last_page: 3 },
    });
  });

  it('searches with /search-dive when q is given', async () => {
    const { dp, calls } = fake({ json: ok({ HLL: rows(1, 2, 3) }) });
    const result = await dp.getList('shops', {
      pagination: { page: 1, perPage: 2 }, sort: { field: 'id', order: 'ASC' }, filter: { q: 'acme' },
    });
    expect(calls).toEqual([
      {
        url: `${API}/search-dive`, method: 'POST', headers: JSON_HEADERS, multipart: false,
        body: { keyIndex: 10, value: 'acme', targets: ['id', 'name'], page: 1, per_page: 2 },
      },
    ]);
    expect(result).toEqual({ data: rows(1, 2), total: 3, meta: { from: 1, to: 2, current_page: 1, last_page: 2 } });
  });

  it('takes a paged search answer as it is', async () => {
    const { dp, calls } = fake({ json: { ...ok({ HLL: rows(9) }), total: 41 } });
    const result = await dp.getList('mail-templates', {
      pagination: { page: 5, perPage: 10 }, sort: { field: 'id', order: 'ASC' }, filter: { q: 'welcome' },
    });
    expect(calls[0].body).toEqual({
      keyIndex: 16, value: 'welcome', targets: ['id', 'subject', 'message', 'from_email'], page: 5, per_page: 10,
    });
    expect(result).toEqual({ data: rows(9), total: 41, meta: { from: 41, to: 41, current_page: 5, last_page: 5 } });
  });

  it('lists normally when q is blank or the entity has no search key', async () => {
    const { dp, calls } = fake({ json: ok({ HLL: paginated([]) }) }, { json: ok({ HLL: paginated([]) }) });
    await dp.getList('shops', { ...LIST, filter: { q: '  ' } });
    await dp.getList('chat-logs', { ...LIST, filter: { q: 'hello' } });
    expect(calls.map((c) => [c.url, c.body])).toEqual([
      [`${API}/shops`, { page: 1, per_page: 15, sort: 'id', order: 'ASC' }],
      [`${API}/chats`, { page: 1, per_page: 15, sort: 'id', order: 'ASC' }],
    ]);
  });

  it('sends other filters and also applies them on the client (brands with product_id 0)', async () => {
    const HLL = paginated([
      { id: 1, name: 'Plain', product_id: 0 },
      { id: 2, name: 'Of a product', product_id: 5 },
    ]);
    const { dp, calls } = fake({ json: ok({ HLL }) });
    const result = await dp.getList('brands', { ...LIST, filter: { product_id: 0 } });
    expect(calls[0]).toMatchObject({
      url: `${API}/brands`, body: { page: 1, per_page: 15, sort: 'id', order: 'ASC', filter: { product_id: 0 } },
    });
    expect(result.data).toEqual([{ id: 1, name: 'Plain', product_id: 0 }]);
    expect(result.total).toBe(1);
  });

  it.each([
    ['my-shops', '/shops', [{ id: 1, owner_id: USER_ID }, { id: 2, owner_id: 8 }, { id: 3, owner_id: '7' }], [1, 3]],
    ['my-products', '/products', [{ id: 1, shop: { owner_id: 8 } }, { id: 2, shop: { owner_id: USER_ID } }, { id: 3, shop: null }], [2]],
    ['my-orders', '/orders', [{ id: 1, shop: { owner_id: USER_ID } }, { id: 2, shop: { owner_id: 9 } }], [1]],
  ])('%s keeps only the session user\'s rows from %s', async (resource, path, data, kept) => {
    const { dp, calls } = fake({ json: ok({ HLL: paginated(data) }) });
    const result = await dp.getList(resource, LIST);
    expect(calls[0].url).toBe(`${API}${path}`);
    expect(calls[0].body).toMatchObject({ scope: 'own' });
    expect(result.data.map((r) => r.id)).toEqual(kept);
    expect(result.total).toBe(kept.length);
  });

  it("keeps, on a buyer variant, only the rows naming the session user as buyer, and asks for no seller scope", async () => {
    const def = registry.resources.find((r) => r.buyer)!;
    const key = registry.entity(def.name).buyerKey!;
    const data = [{ id: 1, [key]: USER_ID }, { id: 2, [key]: 9 }, { id: 3, [key]: null }];
    const { dp, calls } = fake({ json: ok({ HLL: paginated(data) }) });
    const result = await dp.getList(def.buyer!.path.slice(1), LIST);
    expect(calls[0].url).toBe(`${API}${registry.entity(def.name).list}`);
    expect(calls[0].body).not.toHaveProperty('scope');
    expect(result.data.map((r) => r.id)).toEqual([1]);
    const search = fake({ json: ok({ HLL: data }) });
    expect((await search.dp.getList(def.buyer!.path.slice(1), { ...LIST, filter: { q: '10' } })).data.map((r) => r.id)).toEqual([1]);
  });

  it('scopes seller search results too', async () => {
    const { dp, calls } = fake({ json: ok({ HLL: [{ id: 1, owner_id: 8 }, { id: 2, owner_id: USER_ID }] }) });
    const result = await dp.getList('my-shops', { ...LIST, filter: { q: 'shop' } });
    expect(calls[0].url).toBe(`${API}/search-dive`);
    expect(calls[0].body).toMatchObject({ keyIndex: 10, value: 'shop', scope: 'own' });
    expect(result.data).toEqual([{ id: 2, owner_id: USER_ID }]);
  });

  it('shows a seller nothing without a session', async () => {
    clearSession();
    const { dp } = fake({ json: ok({ HLL: paginated([{ id: 1, owner_id: undefined }, { id: 2, owner_id: 7 }]) }) });
    expect((await dp.getList('my-shops', LIST)).data).toEqual([]);
  });

  it('lists users with the multipart users call', async () => {
    const { dp, calls } = fake({ json: ok({ HLL: paginated(rows(1, 2)) }) });
    const result = await dp.getList('users', { ...LIST, pagination: { page: 3, perPage: 20 } });
    expect(calls).toEqual([
      { url: `${API}/users`, method: 'POST', headers: FORM_HEADERS, multipart: true, body: { page: '3', per_page: '20' } },
    ]);
    expect(result.data).toEqual(rows(1, 2));
  });
});

describe('getOne, getMany, getManyReference', () => {
  it('finds a record through /search-dive on id', async () => {
    const { dp, calls } = fake({ json: ok({ HLL: [{ id: 15, name: 'x' }, { id: 5, name: 'Chair' }] }) });
    const result = await dp.getOne('products', { id: '5' });
    expect(calls).toEqual([
      {
        url: `${API}/search-dive`, method: 'POST', headers: JSON_HEADERS, multipart: false,
        body: { keyIndex: 7, value: '5', targets: ['id'] },
      },
    ]);
    expect(result).toEqual({ data: { id: 5, name: 'Chair' } });
  });

  it('rejects with 404 when the search has no such id', async () => {
    const { dp } = fake({ json: ok({ HLL: [{ id: 15 }] }) });
    await expect(dp.getOne('Currencies-exchange', { id: 1 })).rejects.toMatchObject({ status: 404 });
  });

  it('does not give a seller another seller\'s record', async () => {
    const { dp } = fake({ json: ok({ HLL: [{ id: 3, owner_id: 8 }] }) });
    await expect(dp.getOne('my-shops', { id: 3 })).rejects.toMatchObject({ status: 404 });
  });

  it('reads a user from the multipart users call', async () => {
    const user = { id: 3, name: 'Ada', abilities: '[1,2,3]' };
    const { dp, calls } = fake({ json: ok({ detail: user }) });
    expect(await dp.getOne('users', { id: 3 })).toEqual({ data: user });
    expect(calls).toEqual([
      { url: `${API}/users`, method: 'POST', headers: FORM_HEADERS, multipart: true, body: { id: '3' } },
    ]);
  });

  it('pages through the list for an entity with no search key (chats)', async () => {
    const { dp, calls } = fake(
      { json: ok({ HLL: paginated(rows(1, 2), { current_page: 1, last_page: 2 }) }) },
      { json: ok({ HLL: paginated(rows(3, 4), { current_page: 2, last_page: 2 }) }) },
    );
    expect(await dp.getOne('chat-logs', { id: 4 })).toEqual({ data: { id: 4, name: 'row 4' } });
    expect(calls.map((c) => [c.url, c.body])).toEqual([
      [`${API}/chats`, { page: 1, per_page: 100 }],
      [`${API}/chats`, { page: 2, per_page: 100 }],
    ]);
  });

  it('stops paging at the last page', async () => {
    const { dp, calls } = fake({ json: ok({ HLL: paginated(rows(1)) }) });
    await expect(dp.getOne('chat-logs', { id: 9 })).rejects.toMatchObject({ status: 404 });
    expect(calls).toHaveLength(1);
  });

  it('getMany asks for every id in one list call', async () => {
    const { dp, calls } = fake({ json: ok({ HLL: paginated(rows(2, 1)) }) });
    expect(await dp.getMany('brands', { ids: [1, 2] })).toEqual({ data: rows(1, 2) });
    expect(calls.map((c) => [c.url, c.body])).toEqual([[`${API}/brands`, { page: 1, per_page: 2, filter: { id: [1, 2] } }]]);
  });

  it('getMany reads one by one the ids a legacy server left out (it ignores the filter), and leaves out what is not there', async () => {
    const { dp, calls } = fake(
      { json: ok({ HLL: paginated(rows(9, 2)) }) },
      { json: ok({ HLL: rows(1) }) },
      { json: ok({ HLL: [] }) },
    );
    expect(await dp.getMany('brands', { ids: [1, 2, 3] })).toEqual({ data: rows(1, 2) });
    expect(calls.map((c) => c.body)).toEqual([
      { page: 1, per_page: 3, filter: { id: [1, 2, 3] } },
      { keyIndex: 13, value: '1', targets: ['id'] },
      { keyIndex: 13, value: '3', targets: ['id'] },
    ]);
  });

  it('getMany asks a page of ids at a time, and keeps a seller to their own records', async () => {
    const ids = Array.from({ length: MAX_PER_PAGE + 1 }, (_, i) => i + 1);
    const mine = (list: number[]) => list.map((id) => ({ id, owner_id: USER_ID }));
    const { dp, calls } = fake(
      { json: ok({ HLL: paginated(mine(ids.slice(0, MAX_PER_PAGE))) }) },
      { json: ok({ HLL: paginated([{ id: MAX_PER_PAGE + 1, owner_id: 8 }]) }) },
      { json: ok({ HLL: [{ id: MAX_PER_PAGE + 1, owner_id: 8 }] }) },
    );
    const { data } = await dp.getMany('my-shops', { ids });
    expect(data.map((r) => r.id)).toEqual(ids.slice(0, MAX_PER_PAGE));
    expect(calls.map((c) => (c.body as { filter?: { id: unknown[] } }).filter?.id.length)).toEqual([MAX_PER_PAGE, 1, undefined]);
    expect(calls[0].body).toMatchObject({ scope: 'own', per_page: MAX_PER_PAGE });
  });

  it('getMany of users reads each user with the users call (no call reads several)', async () => {
    const { dp, calls } = fake({ json: ok({ detail: { id: 1, name: 'A' } }) }, { json: ok({ detail: { id: 2, name: 'B' } }) });
    expect(await dp.getMany('users', { ids: [1, 2] })).toEqual({ data: [{ id: 1, name: 'A' }, { id: 2, name: 'B' }] });
    expect(calls.map((c) => [c.url, c.multipart, c.body])).toEqual([
      [`${API}/users`, true, { id: '1' }],
      [`${API}/users`, true, { id: '2' }],
    ]);
  });

  it('getManyReference lists with the target as a filter', async () => {
    const HLL = paginated([{ id: 1, shop_id: 3 }, { id: 2, shop_id: 4 }]);
    const { dp, calls } = fake({ json: ok({ HLL }) });
    const result = await dp.getManyReference('products', { ...LIST, target: 'shop_id', id: 3 });
    expect(calls[0]).toMatchObject({
      url: `${API}/products`, body: { page: 1, per_page: 15, sort: 'id', order: 'ASC', filter: { shop_id: 3 } },
    });
    expect(result.data).toEqual([{ id: 1, shop_id: 3 }]);
  });
});

describe('create and update', () => {
  it('create posts the data without id to the save path and returns the saved record and query', async () => {
    const saved = { id: 12, name: 'Acme', description: 'Tools' };
    const { dp, calls } = fake({ json: ok({ query: 'Shop created', detail: saved }) });
    const result = await dp.create('my-shops', { data: { id: undefined, name: 'Acme', description: 'Tools' } });
    expect(calls).toEqual([
      {
        url: `${API}/shop`, method: 'POST', headers: JSON_HEADERS, multipart: false,
        body: { name: 'Acme', description: 'Tools' },
      },
    ]);
    expect(result).toEqual({ data: saved, meta: { query: 'Shop created' } });
  });

  it('create keeps the data when the answer carries no record', async () => {
    const { dp, calls } = fake({ json: ok({ query: 'Saved' }) });
    const result = await dp.create('mail-templates', { data: { subject: 'Hi' } });
    expect(calls[0].url).toBe(`${API}/templates`);
    expect(result).toEqual({ data: { subject: 'Hi', id: undefined }, meta: { query: 'Saved' } });
  });

  it.each([
    ['subscriptions', '/subcription'],
    ['subscription-plans', '/subcriptionPlan'],
    ['Currencies-exchange', '/exchanges'],
    ['order-status', '/orderStatus'],
    ['custom-distances', '/distance'],
  ])('saves %s with %s', async (resource, path) => {
    const { dp, calls } = fake({ json: ok({ detail: { id: 1 } }) });
    await dp.create(resource, { data: { name: 'x' } });
    expect(calls[0].url).toBe(`${API}${path}`);
  });

  it('update posts {...data, id} to the save path', async () => {
    const { dp, calls } = fake({ json: ok({ query: 'Updated' }) });
    const result = await dp.update('custom-distances', {
      id: 4, data: { location_A: 'NG,Lagos,Ikeja', distance_km: 536 }, previousData: { id: 4, location_B: 'GH,,' },
    });
    expect(calls).toEqual([
      {
        url: `${API}/distance`, method: 'POST', headers: JSON_HEADERS, multipart: false,
        body: { location_A: 'NG,Lagos,Ikeja', distance_km: 536, id: 4 },
      },
    ]);
    expect(result).toEqual({
      data: { id: 4, location_A: 'NG,Lagos,Ikeja', location_B: 'GH,,', distance_km: 536 },
      meta: { query: 'Updated' },
    });
  });

  it('updates a user through /user/edit with exactly the contract fields', async () => {
    const { dp, calls } = fake({ json: ok({ query: 'User updated' }) });
    const previousData = {
      id: 3, name: 'Ada', email: 'ada@example.com', phone: '+44', applications: null, is_active: 1,
      abilities: '[1]', granted_accesses: '["shops"]', shops: [{ id: 1, name: 'A' }],
    };
    await dp.update('users', { id: 3, data: { ...previousData, abilities: [1, 2, 3] }, previousData });
    expect(calls).toEqual([
      {
        url: `${API}/user/edit`, method: 'POST', headers: JSON_HEADERS, multipart: false,
        body: {
          abilities: [1, 2, 3], applications: null, email: 'ada@example.com', id: 3, is_active: 1,
          name: 'Ada', phone: '+44',
        },
      },
    ]);
  });

  it('updateMany updates each id', async () => {
    const { dp, calls } = fake();
    expect(await dp.updateMany('brands', { ids: [1, 2], data: { type: 'popular' } })).toEqual({ data: [1, 2] });
    expect(calls.map((c) => [c.url, c.body])).toEqual([
      [`${API}/brand`, { type: 'popular', id: 1 }],
      [`${API}/brand`, { type: 'popular', id: 2 }],
    ]);
  });
});

describe('delete', () => {
  it.each([
    ['shops', '/shop/status', { tyype: 'clear', id: 5 }],
    ['job-posts', '/job/status', { tyype: 'clear', id: 5 }],
    ['Currencies-exchange', '/exchanges/status', { tyype: 'clear', id: 5 }],
    ['mail-templates', '/templates/status', { tyype: 'clear', id: 5 }],
    ['products', '/product/status', { tyype: 'clear', type: 'clear', id: 5 }],
    ['my-products', '/product/status', { tyype: 'clear', type: 'clear', id: 5 }],
    ['custom-distances', '/distance/status', { id: 5 }],
  ])('deletes %s with %s %j', async (resource, path, body) => {
    const { dp, calls } = fake({ json: ok({ query: 'Deleted' }) });
    const result = await dp.delete(resource, { id: 5, previousData: { id: 5, name: 'gone' } });
    expect(calls).toEqual([{ url: `${API}${path}`, method: 'POST', headers: JSON_HEADERS, multipart: false, body }]);
    expect(result).toEqual({ data: { id: 5, name: 'gone' }, meta: { query: 'Deleted' } });
  });

  it('refuses to delete what the contract cannot delete', async () => {
    const { dp, calls } = fake();
    await expect(dp.delete('orders', { id: 1 })).rejects.toMatchObject({ status: 405 });
    await expect(dp.delete('users', { id: 1 })).rejects.toBeInstanceOf(HttpError);
    expect(calls).toEqual([]);
  });

  it('deleteMany deletes each id', async () => {
    const { dp, calls } = fake();
    expect(await dp.deleteMany('brands', { ids: [1, 2] })).toEqual({ data: [1, 2] });
    expect(calls.map((c) => [c.url, c.body])).toEqual([
      [`${API}/brand/status`, { tyype: 'clear', id: 1 }],
      [`${API}/brand/status`, { tyype: 'clear', id: 2 }],
    ]);
  });
});

describe('custom methods', () => {
  it.each([
    ['shops', '/shop/status', 'Active', 1],
    ['shops', '/shop/status', 'Deactivate', 0],
    ['mail-templates', '/templates/status', true, 1],
    ['brands', '/brand/status', 'Inactive', 0],
    ['job-posts', '/job/status', 1, 1],
  ])('setStatus %s sends is_active as 1/0 (%s → %s)', async (resource, path, choice, sent) => {
    const { dp, calls } = fake({ json: ok({ query: 'Status changed' }) });
    const result = await dp.setStatus(resource, { id: 2, data: { is_active: choice }, previousData: { id: 2, name: 'n' } });
    expect(calls).toEqual([
      { url: `${API}${path}`, method: 'POST', headers: JSON_HEADERS, multipart: false, body: { is_active: sent, id: 2 } },
    ]);
    expect(result).toEqual({ data: { id: 2, name: 'n', is_active: choice }, query: 'Status changed' });
  });

  it('setStatus sends a subscription whole, with a boolean is_active (Active is active)', async () => {
    const previousData = { id: 4, type: 'advert', nature: 'clicks', period: 'monthly', is_active: false };
    const { dp, calls } = fake();
    await dp.setStatus('subscriptions', { id: 4, data: { is_active: 'Active' }, previousData });
    expect(registry.entity('subscriptions').activeAs).toBe('bool');
    expect(calls[0]).toMatchObject({ url: `${API}/subcription/status`, body: { ...previousData, is_active: true } });
  });

  it('setStatus sends a product state with all three values, the others from the record', async () => {
    const previousData = { id: 8, name: 'Chair', premier: 'no', product_type: 'preown', state: 'active' };
    const { dp, calls } = fake();
    await dp.setStatus('products', { id: 8, data: { premier: 'yes' }, previousData });
    expect(calls[0]).toMatchObject({
      url: `${API}/product/status`,
      body: { type: 'state', premier: 'yes', product_type: 'preown', state: 'active', id: 8 },
    });
    expect(Object.keys(calls[0].body as object).sort()).toEqual(['id', 'premier', 'product_type', 'state', 'type']);
  });

  it('setStatus sends an order code as status on Orders and as state on My Orders', async () => {
    const previousData = { id: 9, status: { id: 1, name: 'New Order' } };
    const { dp, calls } = fake();
    await dp.setStatus('orders', { id: 9, data: { status: 3 }, previousData });
    await dp.setStatus('my-orders', { id: 9, data: { status: 4 }, previousData });
    expect(calls.map((c) => [c.url, c.body])).toEqual([
      [`${API}/order/status`, { status: 3, id: 9 }],
      [`${API}/order/status`, { state: 4, id: 9 }],
    ]);
  });

  it('assignRole posts the tokens and resolves to the query', async () => {
    const { dp, calls } = fake({ json: ok({ query: 'Roles assigned' }) });
    expect(await dp.assignRole(3, ['shops', 'users'])).toBe('Roles assigned');
    expect(calls).toEqual([
      {
        url: `${API}/user/assign-role`, method: 'POST', headers: JSON_HEADERS, multipart: false,
        body: { id: 3, granted_accesses: ['shops', 'users'] },
      },
    ]);
  });

  it('blacklist posts /user/status and resolves to the query', async () => {
    const { dp, calls } = fake({ json: ok({ query: 'User deactivated' }) }, { json: ok({ query: 'Toggled' }) });
    expect(await dp.blacklist(3, false)).toBe('User deactivated');
    expect(await dp.blacklist(3)).toBe('Toggled');
    expect(calls.map((c) => [c.url, c.body])).toEqual([
      [`${API}/user/status`, { id: 3, is_active: 0 }],
      [`${API}/user/status`, { id: 3 }],
    ]);
  });

  it('call posts any contract path and returns the envelope', async () => {
    const answer = ok({ HLL: [{ id: 1, name: 'Mine' }] });
    const { dp, calls } = fake({ json: answer });
    expect(await dp.call('/shopz', { owner_id: USER_ID })).toEqual(answer);
    expect(calls[0]).toMatchObject({ url: `${API}/shopz`, body: { owner_id: USER_ID } });
  });
});

describe('uploads and the products lifecycle (SPEC §7.4, §7.5)', () => {
  beforeEach(() => setSession(TOKEN, USER_ID));

  it('upload sends file, file1, file2, file3 and tag as a multipart form with the bearer token', async () => {
    const { dp, calls } = fake({ json: ok({ query: '3 images uploaded', detail: { files: ['a', 'b', 'c'] } }) });
    const files = [1, 2, 3].map((n) => new Blob([`png${n}`], { type: 'image/png' }));
    const result = await dp.upload('image', 'Lamp_7', files, { shop_id: '4' });
    expect(calls[0]).toMatchObject({ url: `${API}/upload-image`, method: 'POST', multipart: true, headers: { Authorization: `Bearer ${TOKEN}`, Accept: 'application/json' } });
    expect(Object.keys(calls[0].body as object)).toEqual(['file', 'file1', 'file2', 'file3'].slice(0, 3).concat(['tag', 'shop_id']));
    expect(calls[0].body).toMatchObject({ tag: 'Lamp_7', shop_id: '4' });
    expect(result).toEqual({ query: '3 images uploaded', files: ['a', 'b', 'c'] });
    await dp.upload('docx', 'cv_7', [new Blob(['zip'])]);
    expect(calls[1]).toMatchObject({ url: `${API}/upload-docx`, multipart: true });
  });

  it('a product save uploads the chosen images first, then sends their §7.4 entries as image', async () => {
    const { lifecycle } = await import('../../resources/products/lifecycle');
    const { dp, calls } = fake({ json: ok({ query: '2 images uploaded' }) });
    const files = [new File(['a'], 'a.png', { type: 'image/png' }), new File(['b'], 'b.png', { type: 'image/png' })];
    const data = await lifecycle.beforeSave({ name: 'Desk lamp', shop_id: 4, image: { pending: files } }, dp);
    expect(calls[0]).toMatchObject({ url: `${API}/upload-image`, body: { tag: 'Desk_lamp7', shop_id: '4' } });
    expect(data.image).toEqual([
      { id: expect.any(Number), image: 'http://api.test/api/files/images/Desk_lamp7_1.png' },
      { id: expect.any(Number), image: 'http://api.test/api/files/images/Desk_lamp7_2.png' },
    ]);
    // Nothing chosen: the save goes as it is, with no upload.
    const unchanged = { name: 'Desk lamp', image: [{ id: 1, image: 'x' }] };
    expect(await lifecycle.beforeSave(unchanged, dp)).toBe(unchanged);
    expect(calls).toHaveLength(1);
  });
});

describe('step-up (issue 26)', () => {
  const refused = { status: 403, json: envelope({ query: 'Confirm with your second factor to continue', detail: { second_factor: ['totp', 'recovery'], step_up: true } }) };

  it('sends a refused call again, once, after the handler confirmed', async () => {
    const asked: unknown[] = [];
    onStepUp(async (detail) => void asked.push(detail));
    try {
      const { dp, calls } = fake(refused, { json: ok({ query: 'Shop updated successfully' }) });
      expect((await dp.call('/shop', { id: 3, name: 'x' })).query).toBe('Shop updated successfully');
      expect(asked).toEqual([{ second_factor: ['totp', 'recovery'], step_up: true }]);
      expect(calls).toHaveLength(2);
      expect(calls[1]).toEqual(calls[0]);
    } finally {
      onStepUp(null);
    }
  });

  it('leaves the refusal as it came when the handler rejects (cancelled), or asks only once', async () => {
    onStepUp(async () => {
      throw new Error('cancelled');
    });
    try {
      const { dp, calls } = fake(refused);
      await expect(dp.call('/shop', { id: 3 })).rejects.toMatchObject({ message: 'Confirm with your second factor to continue', status: 403 });
      expect(calls).toHaveLength(1);
    } finally {
      onStepUp(null);
    }
    let asked = 0;
    onStepUp(async () => void asked++);
    try {
      const { dp, calls } = fake(refused, refused);
      await expect(dp.call('/shop', { id: 3 })).rejects.toMatchObject({ status: 403 });
      expect([asked, calls.length]).toEqual([1, 2]);
    } finally {
      onStepUp(null);
    }
  });

  it('is not asked for other refusals, nor without a handler', async () => {
    let asked = 0;
    onStepUp(async () => void asked++);
    try {
      const { dp } = fake({ status: 403, json: envelope({ query: 'You are not allowed to do this', detail: { second_factor: ['totp'] } }) });
      await expect(dp.call('/shop', {})).rejects.toMatchObject({ status: 403 });
      expect(asked).toBe(0);
    } finally {
      onStepUp(null);
    }
    const { dp, calls } = fake(refused);
    await expect(dp.call('/shop', {})).rejects.toMatchObject({ status: 403 });
    expect(calls).toHaveLength(1);
  });
});

describe('built from what it is given: a registry, a session, an HTTP client', () => {
  /** A small registry: a plain entity with a seller variant, and one with a provider of its own. */
  const entity = (name: string, extra: Partial<DataResource> = {}): DataResource => ({
    name,
    title: name,
    menu: { token: name, path: `/${name}`, order: 1 },
    api: {
      save: `/${name}-save`, list: `/${name}-list`, status: `/${name}-status`, listShape: 'paginated',
      search: { targets: ['id', 'label'] }, remove: 'tyype', activeAs: 'int', statusFields: ['is_active'],
      rules: { read: 'admin', create: 'admin', update: 'admin' }, fields: { label: s(), owner_id: s(), ...ACTIVE },
    },
    ...extra,
  });
  const small = createRegistry<DataResource>([
    entity('gadgets', { seller: { token: 'my-gadgets', path: '/my-gadgets', order: 2, via: 'owner_id' } }),
    entity('gizmos', {
      dataProvider: ({ api, list, base }) => ({
        getList: (resource, params) => list(resource, params, (body, signal) => api.post('/gizmos-own', { page: body.page }, signal)),
        getOne: async (_resource, params): Promise<GetOneResult> => ({ data: { id: params.id, via: 'own', base: typeof base.getOne } }),
      }),
    }),
  ]);
  const build = (session: SessionReader, ...answers: Answer[]) => {
    const { client, calls } = recorder(answers);
    return { dp: createDataProvider({ apiUrl: API, resources: small, session, http: client }), calls };
  };
  const someone: SessionReader = () => ({ token: 'given.token', id: '42' });

  it('sends the token of the session it is given, and keeps the seller rows of that session', async () => {
    clearSession();
    const { dp, calls } = build(someone, { json: ok({ HLL: paginated([{ id: 1, owner_id: 42 }, { id: 2, owner_id: USER_ID }]) }) });
    const result = await dp.getList('my-gadgets', LIST);
    expect(calls[0]).toMatchObject({ url: `${API}/gadgets-list`, headers: { Authorization: 'Bearer given.token' }, body: { scope: 'own' } });
    expect(result.data.map((r) => r.id)).toEqual([1]);
    const signedOut = build(() => null, { json: ok({ HLL: paginated([]) }) });
    await signedOut.dp.getList('gadgets', LIST);
    expect(signedOut.calls[0].headers).not.toHaveProperty('Authorization');
  });

  it("reads only the registry it is given: the app's resources are unknown to it", async () => {
    const { dp, calls } = build(someone);
    await expect(dp.getList('shops', LIST)).rejects.toThrow('Unknown resource: shops');
    expect(calls).toEqual([]);
  });

  it("sends a resource's calls to its own provider (combineDataProviders), the others and the rest of its calls to the generic one", async () => {
    const { dp, calls } = build(someone, { json: ok({ HLL: paginated(rows(5)) }) }, { json: ok({ HLL: paginated(rows(6)) }) });
    expect((await dp.getList('gizmos', LIST)).data).toEqual(rows(5));
    expect((await dp.getList('gadgets', LIST)).data).toEqual(rows(6));
    expect(calls.map((c) => [c.url, c.body])).toEqual([
      [`${API}/gizmos-own`, { page: 1 }],
      [`${API}/gadgets-list`, { page: 1, per_page: 15, sort: 'id', order: 'ASC' }],
    ]);
    expect(await dp.getOne('gizmos', { id: 3 })).toEqual({ data: { id: 3, via: 'own', base: 'function' } });
    await dp.create('gizmos', { data: { label: 'x' } });
    expect(calls[2]).toMatchObject({ url: `${API}/gizmos-save`, body: { label: 'x' } });
    // The custom methods are the provider's own, not routed by resource.
    expect(dp.apiUrl).toBe(API);
    await dp.call('/anything', { a: 1 });
    expect(calls[3]).toMatchObject({ url: `${API}/anything`, body: { a: 1 } });
  });

  it('passes meta through to the call as extra fields, the provider\'s own fields winning', async () => {
    const { dp, calls } = build(
      someone,
      { json: ok({ HLL: paginated([]) }) },
      { json: ok({ HLL: [{ id: 4 }] }) },
      { json: ok({ query: 'Saved' }) },
      { json: ok({ query: 'Saved' }) },
      { json: ok({ query: 'Deleted' }) },
    );
    const meta = { embed: 'shop', page: 99 };
    await dp.getList('gadgets', { ...LIST, meta });
    await dp.getOne('gadgets', { id: 4, meta });
    await dp.create('gadgets', { data: { label: 'a' }, meta });
    await dp.update('gadgets', { id: 4, data: { label: 'b' }, previousData: { id: 4 }, meta });
    await dp.delete('gadgets', { id: 4, meta });
    expect(calls.map((c) => c.body)).toEqual([
      { embed: 'shop', page: 1, per_page: 15, sort: 'id', order: 'ASC' },
      { embed: 'shop', page: 99, keyIndex: small.entity('gadgets').search!.keyIndex, value: '4', targets: ['id'] },
      { embed: 'shop', page: 99, label: 'a' },
      { embed: 'shop', page: 99, label: 'b', id: 4 },
      { embed: 'shop', page: 99, tyype: 'clear', id: 4 },
    ]);
  });
});
