/**
 * Roles, abilities and granted accesses: the one rule of DESIGN D1, shared by console and server.
 */
export type Role = 'admin' | 'seller' | 'buyer';

export const ADMIN_ABILITIES = [1, 2, 3];
export const REGISTER_ABILITIES = [1, 2];
export const DEFAULT_ABILITIES = [1];

function parseList(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value !== 'string') return [];
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
}

/** Abilities arrive as a JSON-encoded string ('[1,2]') or as an array. */
export function parseAbilities(value: unknown): number[] {
  return parseList(value)
    .map((n) => Number(n))
    .filter((n) => Number.isInteger(n));
}

/** Granted accesses arrive as a JSON-encoded string of menu tokens or as an array. */
export function parseAccesses(value: unknown): string[] {
  return parseList(value).filter((t): t is string => typeof t === 'string');
}

/** DESIGN D1: admin iff abilities contains 3; seller iff it contains 2 and not 3; otherwise buyer. */
export function roleOf(abilities: unknown): Role {
  const list = parseAbilities(abilities);
  if (list.includes(3)) return 'admin';
  if (list.includes(2)) return 'seller';
  return 'buyer';
}

/** Tokens containing 'my' or 'dashboard' are always open to an admin and can't be assigned (SPEC §6.2). */
export function isAlwaysAllowed(token: string): boolean {
  const t = token.toLowerCase();
  return t.includes('my') || t.includes('dashboard');
}

/** Whether granted accesses hold a token, compared case-insensitively (SPEC §6.2). */
export function hasAccess(granted: unknown, token: string): boolean {
  const wanted = token.toLowerCase();
  return parseAccesses(granted).some((t) => t.toLowerCase() === wanted);
}
