/**
 * The rules of a search call, POST /search-dive {keyIndex, value, targets} (SPEC §7.3, §9.4), kept
 * apart from the route so they are tested alone: the keyIndex names a searchable list, the value is
 * text of at most 100 characters, the targets are some of that list's searched columns.
 */
import type { EntityContract, Registry } from '../contract';
import { badRequest } from './errors';

/** The longest search value taken (the console sends at most as much). */
export const MAX_SEARCH_VALUE = 100;

export interface SearchRequest {
  entity: EntityContract & { search: NonNullable<EntityContract['search']> };
  value: string;
  /** The columns asked for, each once. */
  targets: string[];
}

/** Reads a search body; throws 400 with the reason when it is not one. */
export function readSearch(body: Record<string, unknown>, registry: Pick<Registry, 'byKeyIndex'>, strict: boolean): SearchRequest {
  const keyIndex = typeof body.keyIndex === 'string' && /^\d+$/.test(body.keyIndex) ? Number(body.keyIndex) : body.keyIndex;
  if (typeof keyIndex !== 'number' || !Number.isInteger(keyIndex)) throw badRequest('keyIndex must be a whole number');
  const entity = registry.byKeyIndex(keyIndex);
  // Extensions of the contract (the audit log, subcategories) are not searchable in strict mode either.
  if (!entity?.search || (strict && entity.extension)) throw badRequest(`keyIndex ${keyIndex} does not name a searchable list`);
  const value = body.value ?? '';
  if (typeof value !== 'string' && typeof value !== 'number') throw badRequest('value must be text');
  if (String(value).length > MAX_SEARCH_VALUE) throw badRequest(`value must be at most ${MAX_SEARCH_VALUE} characters`);
  if (!Array.isArray(body.targets) || body.targets.length === 0) throw badRequest('targets must be a list of column names');
  const allowed: readonly string[] = entity.search.targets;
  if (body.targets.length > allowed.length) throw badRequest(`targets may name at most ${allowed.length} columns: ${allowed.join(', ')}`);
  for (const target of body.targets) {
    if (typeof target !== 'string' || !allowed.includes(target)) {
      throw badRequest(`${String(target).slice(0, 64)} cannot be searched here; allowed: ${allowed.join(', ')}`);
    }
  }
  return { entity: entity as SearchRequest['entity'], value: String(value), targets: [...new Set(body.targets as string[])] };
}
