/**
 * The REST face (an extension, absent in strict mode): react-admin's `ra-data-simple-rest` dialect
 * over the very operations the contract's POST calls use (server/routes/entities.ts, and users'
 * own rules), so the guard, validation, seller scoping, hooks and audit are one rule set:
 *
 *   GET    /rest/{entity}?sort=["name","ASC"]&range=[0,24]&filter={"is_active":1}  records, Content-Range
 *   GET    /rest/{entity}?filter={"id":[1,2,3]}                                      getMany
 *   GET    /rest/{entity}/{id}        POST /rest/{entity}
 *   PUT    /rest/{entity}/{id}        DELETE /rest/{entity}/{id}
 *
 * `filter.q` searches the entity's search columns as /search-dive does; `scope=own` narrows an
 * admin to their own records (the seller screens). Success answers are the records themselves with
 * the server's message in `X-Message`; failures are the contract's envelope with that text also
 * as `message` (what react-admin's HTTP client shows).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { DEFAULT_PER_PAGE, MAX_SEARCH_ROWS, envelope, type EntityContract, type Info, type Paginated } from '../../contract';
import { bodyOf, failure, type AppContext } from '../context';
import { badRequest } from '../errors';
import { isObject, readId } from '../records';
import type { Row } from '../db';
import type { ListQuery } from '../store';
import { keptAnswers, readFilter } from './common';
import { gateOf, type EntityService } from './entities';

export const REST_PREFIX = '/rest';
/** Headers a browser on another origin may read (a CORS layer in front passes them through). */
export const EXPOSED_HEADERS = 'Content-Range, X-Total-Count, X-Message';
/** The most ids one getMany names, and the most rows one range asks for (the search cap). */
export const MAX_REST_ROWS = MAX_SEARCH_ROWS;
const MAX_SEARCH_TEXT = 100;

function parameter(raw: unknown, what: string): unknown {
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string') throw badRequest(`${what} must be given once`);
  if (raw.length > 20_000) throw badRequest(`${what} is too long`);
  try {
    return JSON.parse(raw);
  } catch {
    throw badRequest(`${what} must be JSON, such as ${what === 'sort' ? '["id","DESC"]' : what === 'range' ? '[0,24]' : '{"is_active":1}'}`);
  }
}

const wholeNumber = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

/** The list query of a GET /rest/{entity}: sort, range, filter (with `q` and `id`) and scope. */
export function readRestQuery(entity: EntityContract, query: Record<string, unknown>): ListQuery & { start: number } {
  const filter = parameter(query.filter, 'filter') ?? {};
  if (!isObject(filter)) throw badRequest('filter must be a JSON object of column values');
  const { q, id, ...columns } = filter;
  const q1: ListQuery = { page: 1, perPage: DEFAULT_PER_PAGE };

  if (id !== undefined) {
    const list = Array.isArray(id) ? id : [id];
    if (list.length > MAX_REST_ROWS) throw badRequest(`filter.id may name at most ${MAX_REST_ROWS} ids`);
    q1.ids = [...new Set(list.map((one) => readId(one, 'filter.id')))];
  }
  if (q !== undefined && q !== null && q !== '') {
    if (typeof q !== 'string' && typeof q !== 'number') throw badRequest('filter.q must be text');
    if (String(q).length > MAX_SEARCH_TEXT) throw badRequest(`filter.q must be at most ${MAX_SEARCH_TEXT} characters`);
    if (!entity.search) throw badRequest(`${entity.name} cannot be searched; filter on its columns instead`);
    q1.search = { value: String(q), targets: entity.search.targets };
  }
  if (Object.keys(columns).length) q1.filter = readFilter(columns);

  const sort = parameter(query.sort, 'sort');
  if (sort !== undefined) {
    const [field, order = 'ASC'] = Array.isArray(sort) ? sort : [];
    if (!Array.isArray(sort) || sort.length > 2 || typeof field !== 'string' || typeof order !== 'string') {
      throw badRequest('sort must be ["column","ASC"] or ["column","DESC"]');
    }
    if (!['ASC', 'DESC'].includes(order.toUpperCase())) throw badRequest('sort order must be ASC or DESC');
    q1.sort = { field, desc: order.toUpperCase() === 'DESC' };
  }

  const range = parameter(query.range, 'range');
  let start = 0;
  if (range !== undefined) {
    if (!Array.isArray(range) || range.length !== 2 || !wholeNumber(range[0]) || !wholeNumber(range[1]) || range[1] < range[0]) {
      throw badRequest('range must be [first, last], two whole numbers from 0 with last ≥ first, such as [0,24]');
    }
    const count = range[1] - range[0] + 1;
    if (count > MAX_REST_ROWS) throw badRequest(`range may cover at most ${MAX_REST_ROWS} records`);
    if (range[0] % count !== 0) throw badRequest('range must start at a multiple of its length, as pages do: [0,24], [25,49]…');
    start = range[0];
    q1.perPage = count;
    q1.page = range[0] / count + 1;
  } else if (q1.ids) {
    q1.perPage = Math.max(1, q1.ids.length);
  }

  if (query.scope !== undefined && query.scope !== 'own') throw badRequest("scope must be 'own' when given");
  q1.own = query.scope === 'own';
  return { ...q1, start };
}

/** A header value in plain ASCII (the server's messages are; anything else is dropped). */
const asciiHeader = (text: string) => text.replace(/[^\x20-\x7e]/g, '');

function record(reply: FastifyReply, info: Info<Row>, code = 200) {
  return reply.code(code).header('X-Message', asciiHeader(info.query)).send(info.detail);
}

const idOf = (params: unknown) => readId((params as { id?: unknown }).id);

export async function restRoutes(app: FastifyInstance, { config, services }: AppContext) {
  if (config.strict) return;
  await app.register(async (rest) => {
    rest.addHook('onSend', async (_request, reply) => {
      reply.header('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    });
    rest.setErrorHandler((error: Error & { statusCode?: number; code?: string }, request, reply) => {
      const { code, headers, query } = failure(error, request);
      return reply.code(code).headers(headers).send({ ...envelope({ query }), message: query });
    });

    for (const service of services.values()) routesOf(rest, service);
  });
}

/** A list's rows, as the REST face answers them: serialized and compressed once per kept page. */
const restPage = keptAnswers((page: Paginated<Row>) => page.data);

function routesOf(rest: FastifyInstance, service: EntityService) {
  const { entity } = service;
  const base = `${REST_PREFIX}/${entity.name}`;

  const read = { config: { gate: gateOf(service, 'read') } };

  rest.get(base, read, async (request, reply) => {
    const q = readRestQuery(entity, request.query as Record<string, unknown>);
    const page = await service.list(request.caller, q);
    const range = page.data.length ? `${q.start}-${q.start + page.data.length - 1}` : '*';
    return restPage(reply.header('Content-Range', `${entity.name} ${range}/${page.total}`).header('X-Total-Count', String(page.total)), page);
  });

  rest.get(`${base}/:id`, { config: { gate: gateOf(service, 'one') } }, async (request) => {
    const { scope } = request.query as { scope?: unknown };
    if (scope !== undefined && scope !== 'own') throw badRequest("scope must be 'own' when given");
    return service.one(request.caller, idOf(request.params), scope === 'own');
  });

  if (service.creates) {
    rest.post(base, { config: { gate: gateOf(service, 'create') } }, async (request, reply) => {
      const body = bodyOf(request);
      if (body.id !== undefined && body.id !== null && body.id !== '') {
        throw badRequest(`A new record takes no id; PUT ${base}/{id} changes one`);
      }
      const { id: _none, ...fields } = body;
      return record(reply, await service.save(request.caller, fields, { request, reply }), 201);
    });
  }

  rest.put(`${base}/:id`, { config: { gate: gateOf(service, 'edit') } }, async (request, reply) => {
    const id = idOf(request.params);
    const body = bodyOf(request);
    if (body.id !== undefined && body.id !== null) {
      // Anything but a number or a text (an object, a list) is no id, and no text of it is made.
      const given = typeof body.id === 'number' || typeof body.id === 'string' ? String(body.id) : undefined;
      if (given !== String(id)) throw badRequest(`The body's id (${given === undefined ? typeof body.id : given.slice(0, 20)}) is not the address's (${id})`);
    }
    return record(reply, await service.save(request.caller, { ...body, id }, { request, reply }));
  });

  const remove = service.remove;
  if (service.deletes && remove) {
    rest.delete(`${base}/:id`, { config: { gate: gateOf(service, 'status') } }, async (request, reply) => record(reply, await remove(request.caller, idOf(request.params))));
  }
}
