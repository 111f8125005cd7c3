/**
 * The plain rules of the management screens, kept apart from React so they are tested alone:
 * the search text (SPEC §5) and the pager's buttons (SPEC §2.9).
 */
import { MIN_SEARCH_LENGTH } from '../../contract';

/** Removes every character other than letters, digits, '-', '_' and spaces. */
export const cleanSearch = (text: string): string => text.replace(/[^A-Za-z0-9\-_ ]/g, '');

/** The text to search for, or null when it is too short to send. */
export function searchText(text: string): string | null {
  const cleaned = cleanSearch(text).trim();
  return cleaned.length >= MIN_SEARCH_LENGTH ? cleaned : null;
}

export type PagerItem = { kind: 'page'; page: number; current: boolean } | { kind: 'gap' };

/**
 * The page buttons: the page before the current one (when current > 1), the current page, then
 * '...' and the last page (when current > 1 and current is not the last).
 */
export function pagerItems(current: number, last: number): PagerItem[] {
  const items: PagerItem[] = [];
  if (current > 1) items.push({ kind: 'page', page: current - 1, current: false });
  items.push({ kind: 'page', page: current, current: true });
  if (current > 1 && current !== last && last > current) {
    if (last > current + 1) items.push({ kind: 'gap' });
    items.push({ kind: 'page', page: last, current: false });
  }
  return items;
}

/** 'Showing {from} to {to} of {total} results' numbers for a page. */
export function pageSpan(page: number, perPage: number, total: number) {
  const last = Math.max(1, Math.ceil(total / perPage));
  const from = total === 0 ? 0 : (page - 1) * perPage + 1;
  const to = Math.min(total, page * perPage);
  return { from, to, total, last };
}

/** The longest search the server takes. */
export const MAX_SEARCH_LENGTH = 100;

/** Why a search text is not sent (an i18n key), or null when it can be. */
export function searchProblem(text: string): string | null {
  const cleaned = cleanSearch(text).trim();
  if (cleaned.length > MAX_SEARCH_LENGTH) return 'management.search_too_long';
  if (cleaned.length < MIN_SEARCH_LENGTH) return 'management.search_too_short';
  return null;
}

/**
 * Rows as CSV (RFC 4180): fields with commas, quotes or line breaks are quoted; a field a
 * spreadsheet would read as a formula (=, +, -, @) is prefixed with an apostrophe.
 */
export function toCsv(rows: readonly (readonly string[])[]): string {
  const field = (value: string) => {
    const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
    return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
  };
  return rows.map((row) => row.map(field).join(',')).join('\r\n');
}
