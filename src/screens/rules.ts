/**
 * The plain rules of the management screens, kept apart from React so they are tested alone:
 * the search text (SPEC §5).
 */
import { MIN_SEARCH_LENGTH } from '../../contract';

/** Removes every character other than letters, digits, '-', '_' and spaces. */
export const cleanSearch = (text: string): string => text.replace(/[^A-Za-z0-9\-_ ]/g, '');

/** The text to search for, or null when it is too short to send. */
export function searchText(text: string): string | null {
  const cleaned = cleanSearch(text).trim();
  return cleaned.length >= MIN_SEARCH_LENGTH ? cleaned : null;
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

/** Rows as CSV: one writer for the console's exports and the server's documents. */
export { toCsv } from '../../contract/csv';
