// @vitest-environment jsdom
/**
 * The console's REST dialect (ra-data-simple-rest, wrapped) against a fake fetch: the addresses,
 * methods, headers and bodies it sends, how it reads Content-Range and the server's message, how
 * refusals become HttpErrors with the server's text, and which calls stay on the contract's paths.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { HttpError } from 'react-admin';
import { envelope } from '../../contract';
import { registry } from '../../resources';
import { answerOf } from '../../dataProvider';
import { createRestDataProvider } from '../../dataProvider/rest';
import { clearSession, getSession, setSession } from '../../authProvider/session';

const API = 'http://api.test/api';

interface Sent {
  url: URL;
  method: string;
  headers: Headers;
  body: unknown;
}

type Reply = { status?: number; json?: unknown; headers?: Record<string, string> };

/** A fetch answering in turn from `replies` (then `{}`), recording every request. */
function fake(...replies: Reply[]) {
  const sent: Sent[] = [];
  const fetchImpl = async (input: string, init: RequestInit = {}) => {
    const body = init.body instanceof FormData ? Object.fromEntries(init.body) : init.body ? JSON.parse(String(init.body)) : undefined;
    sent.push({ url: new URL(input), method: init.method ?? 'GET', headers: new Headers(init.headers), body });
    const reply = replies.shift() ?? { json: {} };
    return new Response(reply.json === undefined ? '' : JSON.stringify(reply.json), {
      status: reply.status ?? 200,
      headers: { 'Content-Type': 'application/json', ...reply.headers },
    });
  };
  return { dp: createRestDataProvider({ apiUrl: API, resources: registry, session: getSession, fetch: fetchImpl }), sent };
}

const json = (u: URL, key: string) => JSON.parse(u.searchParams.get(key) ?? 'null');

beforeEach(() => {
  clearSession();
  setSession('tok.en', 7);
});

describe('REST dialect: reads', () => {
  it('lists with sort, range and filter, the total from Content-Range, the pager as meta', async () => {
    const { dp, sent } = fake({ json: [{ id: 3 }, { id: 2 }], headers: { 'Content-Range': 'shops 25-26/27' } });
    const result = await dp.getList('shops', { pagination: { page: 2, perPage: 25 }, sort: { field: 'name', order: 'ASC' }, filter: { q: '  store ', is_active: 1 } });
    expect(result).toMatchObject({ data: [{ id: 3 }, { id: 2 }], total: 27, meta: { from: 26, to: 27, current_page: 2, last_page: 2 } });
    const [{ url, method, headers }] = sent;
    expect(method).toBe('GET');
    expect(url.pathname).toBe('/api/rest/shops');
    expect(json(url, 'sort')).toEqual(['name', 'ASC']);
    expect(json(url, 'range')).toEqual([25, 49]);
    expect(json(url, 'filter')).toEqual({ q: 'store', is_active: 1 });
    expect(url.searchParams.has('scope')).toBe(false);
    expect(headers.get('Authorization')).toBe('Bearer tok.en');
  });

  it('drops an empty search, and maps a console route to its entity', async () => {
    const { dp, sent } = fake({ json: [], headers: { 'Content-Range': 'exchanges */0' } });
    const result = await dp.getList('Currencies-exchange', { pagination: { page: 1, perPage: 10 }, sort: { field: 'id', order: 'DESC' }, filter: { q: '   ' } });
    expect(result.total).toBe(0);
    expect(sent[0].url.pathname).toBe(`/api/rest/${registry.screen('Currencies-exchange')!.entity.name}`);
    expect(json(sent[0].url, 'filter')).toEqual({});
  });

  it("a seller screen asks for the caller's own records (scope=own), for lists and records", async () => {
    const { dp, sent } = fake({ json: [], headers: { 'Content-Range': 'shops */0' } }, { json: { id: 4 } });
    await dp.getList('my-shops', { pagination: { page: 1, perPage: 10 }, sort: { field: 'id', order: 'DESC' }, filter: {} });
    await dp.getOne('my-shops', { id: 4 });
    expect(sent.map((s) => `${s.url.pathname}?scope=${s.url.searchParams.get('scope')}`)).toEqual(['/api/rest/shops?scope=own', '/api/rest/shops/4?scope=own']);
  });

  it('reads one record and several by id (getMany as filter={"id":[..]})', async () => {
    const { dp, sent } = fake({ json: { id: 5, name: 'A' } }, { json: [{ id: 1 }, { id: 2 }] });
    expect((await dp.getOne('shops', { id: 5 })).data).toEqual({ id: 5, name: 'A' });
    expect((await dp.getMany('shops', { ids: [1, 2] })).data).toEqual([{ id: 1 }, { id: 2 }]);
    expect(sent[0].url.pathname).toBe('/api/rest/shops/5');
    expect(json(sent[1].url, 'filter')).toEqual({ id: [1, 2] });
  });

  it('a list without Content-Range is an error (the server must send it)', async () => {
    const { dp } = fake({ json: [] });
    await expect(dp.getList('shops', { pagination: { page: 1, perPage: 10 }, sort: { field: 'id', order: 'ASC' }, filter: {} })).rejects.toThrow(/Content-Range/);
  });
});

describe('REST dialect: writes', () => {
  it('creates with POST (no id), the server message riding on the record', async () => {
    const { dp, sent } = fake({ status: 201, json: { id: 9, name: 'New' }, headers: { 'X-Message': 'Brand created successfully' } });
    const { data } = await dp.create('brands', { data: { id: '', name: 'New', type: 'popular' } });
    expect(sent[0]).toMatchObject({ method: 'POST', body: { name: 'New', type: 'popular' } });
    expect(sent[0].url.pathname).toBe('/api/rest/brands');
    expect(sent[0].headers.get('Content-Type')).toBe('application/json');
    expect(data).toEqual({ id: 9, name: 'New' });
    expect(answerOf(data)).toBe('Brand created successfully');
  });

  it('updates with PUT on the record address', async () => {
    const { dp, sent } = fake({ json: { id: 9, name: 'Renamed' }, headers: { 'X-Message': 'Brand updated successfully' } });
    const { data } = await dp.update('brands', { id: 9, data: { id: 9, name: 'Renamed' }, previousData: { id: 9, name: 'Old' } });
    expect(sent[0]).toMatchObject({ method: 'PUT', body: { id: 9, name: 'Renamed' } });
    expect(sent[0].url.pathname).toBe('/api/rest/brands/9');
    expect(answerOf(data)).toBe('Brand updated successfully');
  });

  it('deletes with DELETE, keeping the previous record and the message; never for entities without deletes', async () => {
    const { dp, sent } = fake({ json: { id: 9 }, headers: { 'X-Message': 'Brand deleted successfully' } });
    const { data } = await dp.delete('brands', { id: 9, previousData: { id: 9, name: 'Old' } });
    expect(sent[0].method).toBe('DELETE');
    expect(sent[0].url.pathname).toBe('/api/rest/brands/9');
    expect(data).toEqual({ id: 9, name: 'Old' });
    expect(answerOf(data)).toBe('Brand deleted successfully');
    await expect(dp.delete('orders', { id: 1, previousData: { id: 1 } })).rejects.toMatchObject({ status: 405 });
    expect(sent).toHaveLength(1);
  });

  it("turns a refusal into an HttpError with the server's text and status", async () => {
    const refusal = { ...envelope({ query: 'name is required' }), message: 'name is required' };
    const { dp } = fake({ status: 400, json: refusal });
    const error = await dp.create('brands', { data: { type: 'popular' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ message: 'name is required', status: 400, body: refusal });
  });
});

describe('REST dialect: what stays on the contract', () => {
  it('status calls, role assignment, blacklisting and custom calls use the contract paths', async () => {
    const ok = (query: string) => ({ json: envelope({ status: true, query, detail: { id: 3 } }) });
    const { dp, sent } = fake(ok('Shop status updated successfully'), ok('Roles assigned successfully'), ok('User blacklisted'), ok('Done'));
    const status = await dp.setStatus('shops', { id: 3, data: { is_active: 'Inactive' } });
    expect(status.query).toBe('Shop status updated successfully');
    await dp.assignRole(4, ['shops']);
    await dp.blacklist(4, 0);
    await dp.call('/shopz', {});
    expect(sent.map((s) => `${s.method} ${s.url.pathname}`)).toEqual([
      `POST /api${registry.entity('shops').status}`, 'POST /api/user/assign-role', 'POST /api/user/status', 'POST /api/shopz',
    ]);
    expect(sent[0].body).toMatchObject({ id: 3, is_active: 0 });
  });

  it('uploads go to the contract upload call as a form', async () => {
    const { dp, sent } = fake({ json: envelope({ status: true, query: '1 images uploaded', detail: { tag: 't', files: ['http://x/a.png'] } }) });
    const result = await dp.upload('image', 't', [new Blob(['x'], { type: 'image/png' })]);
    expect(result).toEqual({ query: '1 images uploaded', files: ['http://x/a.png'] });
    expect(sent[0].url.pathname).toBe('/api/upload-image');
    expect(Object.keys(sent[0].body as object)).toEqual(['file', 'tag']);
  });
});

describe('config.json', () => {
  it('chooses the dialect: simple-rest when it says so, the contract otherwise', async () => {
    const { loadConfig } = await import('../../src/config');
    const serve = (body: unknown) => (async () => new Response(JSON.stringify(body))) as unknown as typeof fetch;
    expect((await loadConfig('/config.json', serve({ dataDialect: 'simple-rest' }))).dataDialect).toBe('simple-rest');
    expect((await loadConfig('/config.json', serve({ dataDialect: 'graphql' }))).dataDialect).toBe('contract');
    expect((await loadConfig('/config.json', serve({}))).dataDialect).toBe('contract');
  });
});
