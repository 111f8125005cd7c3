/**
 * Job posts (SPEC §3.11): 'Before' (expiry) is a real date written dd/mm/yyyy.
 */
import { badRequest } from '../errors';
import type { EntityHooks } from './types';

/** Whether a text is a real calendar date written dd/mm/yyyy. */
export function isDayMonthYear(text: unknown): boolean {
  const match = typeof text === 'string' ? /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text.trim()) : null;
  if (!match) return false;
  const [day, month, year] = match.slice(1).map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

export const hooks: EntityHooks = {
  beforeWrite(_ctx, values) {
    if (values.expiry !== undefined && values.expiry !== null) {
      if (!isDayMonthYear(values.expiry)) throw badRequest('Before must be a date written dd/mm/yyyy, such as 31/12/2026');
      values.expiry = String(values.expiry).trim();
    }
    return values;
  },
};
