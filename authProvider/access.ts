/**
 * Who may open which screen and use which action (SPEC §6.2, DESIGN D1, D6 and D9), as pure
 * functions of the user profile and the registry of resource files. The sidebar renders menuFor;
 * canAccess asks canUse.
 */
import { hasAccess, isAlwaysAllowed, roleOf, type AccessEntry, type Registry, type Rule } from '../contract';
import { registry as defaultRegistry } from '../resources';
import type { UserIdentity } from 'react-admin';

/**
 * The parts of a user profile access depends on (JSON-encoded strings or arrays), or react-admin's
 * identity, which getIdentity builds from the profile.
 */
export type AccessProfile = { abilities?: unknown; granted_accesses?: unknown } | UserIdentity;

/**
 * Admin: 'my' and dashboard entries always, others when granted (case-insensitive).
 * Seller: the seller list. Buyer: the buyer list (the dashboard, the catalogue, their purchases).
 */
export function canAccessToken(profile: AccessProfile, token: string, registry: Registry = defaultRegistry): boolean {
  const wanted = token.toLowerCase();
  const role = roleOf(profile.abilities);
  if (role === 'admin') return isAlwaysAllowed(wanted) || hasAccess(profile.granted_accesses, wanted);
  if (role === 'seller') return registry.sellerTokens.includes(wanted);
  return registry.buyerTokens.includes(wanted);
}

/** The sidebar's entries: the admin list filtered, or the seller's / buyer's own list, in order. */
export function menuFor(profile: AccessProfile, registry: Registry = defaultRegistry): AccessEntry[] {
  const role = roleOf(profile.abilities);
  const tokens = role === 'admin' ? registry.access.map((entry) => entry.token) : role === 'seller' ? registry.sellerTokens : registry.buyerTokens;
  return tokens
    .filter((token) => canAccessToken(profile, token, registry))
    .map((token) => [...registry.access, ...registry.sellerPages, ...registry.buyerEntries].find((entry) => entry.token === token))
    .filter((entry): entry is AccessEntry => entry !== undefined);
}

/** The contract rule behind a react-admin action. */
const RULE_OF: Record<string, 'read' | 'create' | 'update'> = {
  list: 'read', show: 'read', export: 'read', create: 'create', edit: 'update', delete: 'update', status: 'update',
};

/**
 * Whether the user may take an action on a screen (ra-core's canAccess): the screen must be theirs
 * (canAccessToken), and the contract's rule for the action must let them through, so a button the
 * server would refuse is never shown. A seller variant acts on the seller's own records; a buyer
 * variant is the buyer's own records, read only (DESIGN D6: the server refuses the rest).
 */
export function canUse(profile: AccessProfile, resource: string, action = 'list', registry: Registry = defaultRegistry): boolean {
  const found = registry.screen(resource);
  // A page (the catalogue, packages): any signed-in user, or those holding its token.
  const page = found ? undefined : registry.page(resource);
  if (page) return page.token === undefined || canAccessToken(profile, page.token, registry);
  const token = found ? (found.seller ? found.entity.owner!.access : found.buyer ? found.resource.buyer!.token : found.entity.access) : resource;
  if (!canAccessToken(profile, token, registry)) return false;
  if (!found) return true;
  const { entity } = found;
  if (action === 'delete' && entity.remove === 'none') return false;
  const kind = RULE_OF[action];
  if (!kind) return true;
  const rule: Rule = entity.rules[kind];
  if (rule === 'none') return false;
  const role = roleOf(profile.abilities);
  if (found.buyer) return kind === 'read' && role === 'buyer';
  if (rule === 'public' || rule === 'user') return true;
  if (found.seller) return rule === 'owner' && role !== 'buyer';
  return role === 'admin';
}
