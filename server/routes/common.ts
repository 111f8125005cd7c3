/** Small readers shared by the routes: pages, sizes, ordering, the success envelope. */
import type { FastifyReply } from 'fastify';
import { DEFAULT_PER_PAGE, FIRST_PAGE, MAX_PER_PAGE, envelope, type Info } from '../../contract';
import { sendingKept, type KeptText } from '../compression';
import { badRequest } from '../errors';
import { isObject, readId } from '../records';
import type { ListQuery } from '../store';

export const ok = <D, H>(part: Partial<Info<D, H>> = {}) => envelope<D, H>({ status: true, ...part });

/**
 * Sends the answer `answer` builds from a value (a success envelope, or the REST face's rows),
 * serialized once per value: a page kept until the next write (store.ts, listPage) is the same
 * object each time it is asked for again, and goes out as the same text, not serialized anew, and
 * compressed once per encoding (compression.ts). One per call site (each builds its own answer); an
 * envelope built here carries no server text (no `query`), so it needs no words added (words.ts).
 */
export function keptAnswers<T extends object>(answer: (value: T) => Info<unknown, unknown> | readonly unknown[]) {
  const texts = new WeakMap<T, KeptText>();
  return (reply: FastifyReply, value: T): FastifyReply => {
    let kept = texts.get(value);
    if (kept === undefined) texts.set(value, (kept = { text: JSON.stringify(answer(value)), encoded: {} }));
    sendingKept(reply, kept);
    return reply.type('application/json; charset=utf-8').send(kept.text);
  };
}

function positive(value: unknown, what: string, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined || value === null || value === '') return fallback;
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > max) {
    throw badRequest(`${what} must be a whole number from 1${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ''}`);
  }
  return n;
}

/**
 * The page of a list call. The contract sends {page}; per_page, sort, order and filter are
 * additive extensions, ignored in strict mode.
 */
export function readListQuery(body: Record<string, unknown>, strict: boolean): ListQuery {
  const page = positive(body.page, 'page', FIRST_PAGE);
  if (strict) return { page, perPage: DEFAULT_PER_PAGE };
  const perPage = positive(body.per_page, 'per_page', DEFAULT_PER_PAGE, MAX_PER_PAGE);
  const q: ListQuery = { page, perPage, own: body.scope === 'own' };
  const order = body.order ?? 'DESC';
  if (typeof order !== 'string' || !['ASC', 'DESC'].includes(order.toUpperCase())) throw badRequest('order must be ASC or DESC');
  if (body.sort !== undefined) {
    if (typeof body.sort !== 'string') throw badRequest('sort must be a column name');
    q.sort = { field: body.sort, desc: order.toUpperCase() === 'DESC' };
  }
  if (isObject(body.filter) && Array.isArray(body.filter.id)) {
    // Several records by id in one call (the console's getMany): a page of them.
    const { id, ...columns } = body.filter;
    q.ids = readIds(id);
    q.filter = readFilter(columns);
  } else if (body.filter !== undefined) q.filter = readFilter(body.filter);
  return q;
}

/** A list filter's `id` list: up to a page of ids (MAX_PER_PAGE), each a positive whole number. */
function readIds(list: readonly unknown[]): number[] {
  if (list.length > MAX_PER_PAGE) throw badRequest(`filter.id may name at most ${MAX_PER_PAGE} ids`);
  return [...new Set(list.map((one) => readId(one, 'Each id of filter.id')))];
}

const MAX_FILTERS = 20;

/** Equality filters: an object of column names to one text, number or null each. */
export function readFilter(filter: unknown): Record<string, unknown> {
  if (!isObject(filter)) throw badRequest('filter must be an object of column values');
  const entries = Object.entries(filter);
  if (entries.length > MAX_FILTERS) throw badRequest(`filter may name at most ${MAX_FILTERS} columns`);
  for (const [field, value] of entries) {
    const plain =
      value === null || (typeof value === 'string' && value.length <= 255) || (typeof value === 'number' && Number.isFinite(value));
    if (!plain) throw badRequest(`The filter on ${field.slice(0, 64)} must be a single text or number`);
  }
  return filter;
}

/** Whether the client asked for a page size (an extension): array answers are then paged. */
export const wantsPages = (body: Record<string, unknown>, strict: boolean) => !strict && body.per_page !== undefined;
