/**
 * The product API's answer envelope (SPEC §3.1) and the paginator shape of its lists (DESIGN D12).
 */
export interface Paginated<T> {
  data: T[];
  total: number;
  from: number | null;
  to: number | null;
  current_page: number;
  last_page: number;
  per_page: number;
}

export interface Info<D = unknown, H = unknown> {
  status: boolean;
  query: string;
  detail: D | null;
  reset_token: string | null;
  HLL: H | null;
  /** Extension: the number of matches of a search, when the server pages it. */
  total?: number;
}

/** One page of a list: `data` is the page's rows of `total`, the page `page` of `perPage` rows. */
export function pageOf<T>(data: T[], total: number, page: number, perPage: number): Paginated<T> {
  const from = data.length ? (page - 1) * perPage + 1 : null;
  return {
    data, total, from, to: from === null ? null : from + data.length - 1, current_page: page,
    last_page: Math.max(1, Math.ceil(total / perPage)), per_page: perPage,
  };
}

export function envelope<D = unknown, H = unknown>(part: Partial<Info<D, H>> = {}): Info<D, H> {
  return { status: false, query: '', detail: null, reset_token: null, HLL: null, ...part };
}

/** The first page of every list (SPEC §9.3). */
export const FIRST_PAGE = 1;
/** The server's default page size (DESIGN D12) and the largest page a client may ask for. */
export const DEFAULT_PER_PAGE = 15;
export const MAX_PER_PAGE = 100;
/** A search answer never holds more rows than this in one go. */
export const MAX_SEARCH_ROWS = 1000;
/** Search text: at least this long, or nothing is sent (SPEC §5). */
export const MIN_SEARCH_LENGTH = 2;
export const MIN_PASSWORD_LENGTH = 8;
