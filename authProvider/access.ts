/**
 * Who may open which screen (SPEC §6.2, DESIGN D1 and D9), as pure functions of the user profile.
 * The sidebar renders menuFor; canAccess asks canAccessToken.
 */
import {
  ACCESS, SELLER_TOKENS, hasAccess, isAlwaysAllowed, roleOf, type AccessEntry, type Role,
} from '../contract';
import type { UserIdentity } from 'react-admin';

/**
 * The parts of a user profile access depends on (JSON-encoded strings or arrays), or react-admin's
 * identity, which getIdentity builds from the profile.
 */
export type AccessProfile = { abilities?: unknown; granted_accesses?: unknown } | UserIdentity;

/** The fixed screens of non-admins, in sidebar order. */
const FIXED_TOKENS: Record<Exclude<Role, 'admin'>, readonly string[]> = {
  seller: SELLER_TOKENS,
  buyer: ['dashboard'],
};

/**
 * Admin: 'my' and dashboard entries always, others when granted (case-insensitive).
 * Seller: the seller list. Buyer: the dashboard only.
 */
export function canAccessToken(profile: AccessProfile, token: string): boolean {
  const wanted = token.toLowerCase();
  const role = roleOf(profile.abilities);
  if (role === 'admin') return isAlwaysAllowed(wanted) || hasAccess(profile.granted_accesses, wanted);
  return FIXED_TOKENS[role].includes(wanted);
}

/** The sidebar's entries: the admin list filtered, or the seller's / buyer's own list, in order. */
export function menuFor(profile: AccessProfile): AccessEntry[] {
  const role = roleOf(profile.abilities);
  const tokens = role === 'admin' ? ACCESS.map((entry) => entry.token) : FIXED_TOKENS[role];
  return tokens
    .filter((token) => canAccessToken(profile, token))
    .map((token) => ACCESS.find((entry) => entry.token === token))
    .filter((entry): entry is AccessEntry => entry !== undefined);
}
