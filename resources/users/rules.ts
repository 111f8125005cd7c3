/**
 * The users screen's rules, apart from React so they are tested alone: the ability choice of the
 * Control tab (SPEC §6.1, §9.3) and which Assign Roles switches the signed-in admin may turn.
 */
import { ADMIN_ABILITIES, DEFAULT_ABILITIES, hasAccess, parseAccesses, roleOf } from '../../contract';

export const ABILITY_CHOICES = ['Admin', 'Non-Admin'] as const;
export type AbilityChoice = (typeof ABILITY_CHOICES)[number];

/** The choice a user's abilities stand for (DESIGN D1: admin iff abilities hold 3). */
export const abilityChoiceOf = (abilities: unknown): AbilityChoice => (roleOf(abilities) === 'admin' ? 'Admin' : 'Non-Admin');

/**
 * The abilities a Control submit sends, JSON-encoded as the record holds them (SPEC §3.2): 'Admin'
 * sends [1,2,3], any other choice [1] (SPEC §6.1). A choice that leaves the role as it was keeps the
 * user's abilities, so submitting 'Non-Admin' for a seller does not make them a buyer.
 */
export function abilitiesFor(choice: string, current: unknown): string {
  if (choice === abilityChoiceOf(current)) {
    return typeof current === 'string' ? current : JSON.stringify(Array.isArray(current) ? current : DEFAULT_ABILITIES);
  }
  return JSON.stringify(choice === 'Admin' ? ADMIN_ABILITIES : DEFAULT_ABILITIES);
}

/** Why a switch of Assign Roles cannot be turned (an i18n key), or null when it can. */
export function switchProblem(token: string, admin: { id?: unknown; granted_accesses?: unknown }, target: { id?: unknown; abilities?: unknown }): string | null {
  if (String(admin.id) === String(target.id)) return 'resources.users.roles.self';
  if (roleOf(target.abilities) !== 'admin') return 'resources.users.roles.not_admin';
  if (!hasAccess(admin.granted_accesses, token)) return 'resources.users.roles.not_held';
  return null;
}

/** The target's granted tokens among the assignable ones, lower-cased (SPEC §6.2 compares so). */
export const grantedOf = (value: unknown, assignable: readonly string[]): string[] => {
  const granted = parseAccesses(value).map((t) => t.toLowerCase());
  return assignable.filter((t) => granted.includes(t));
};

/**
 * What saving sends: the switches turned on, plus any token the target holds that the admin could
 * not turn (kept as it was; the server refuses a partial admin on a fuller user anyway).
 */
export function tokensToSend(chosen: readonly string[], assignable: readonly string[]): string[] {
  return assignable.filter((t) => chosen.includes(t));
}
