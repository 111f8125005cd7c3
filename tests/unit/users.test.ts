import { describe, expect, it } from 'vitest';
import { registry } from '../../resources';
import { abilitiesFor, abilityChoiceOf, grantedOf, switchProblem, tokensToSend } from '../../resources/users/rules';
import { searchTargets } from '../../src/pages/searchTargets';

describe('users: the ability choice (SPEC §6.1)', () => {
  it("sends [1,2,3] for 'Admin' and [1] for any other choice, as the record holds abilities", () => {
    expect(abilitiesFor('Admin', '[1,2]')).toBe('[1,2,3]');
    expect(abilitiesFor('Non-Admin', '[1,2,3]')).toBe('[1]');
    expect(abilitiesFor('anything', '[1,2,3]')).toBe('[1]');
  });

  it('keeps the abilities when the role does not change, so a seller stays a seller', () => {
    expect(abilitiesFor('Non-Admin', '[1,2]')).toBe('[1,2]');
    expect(abilitiesFor('Admin', '[1,2,3]')).toBe('[1,2,3]');
    expect(abilitiesFor('Non-Admin', [1, 2])).toBe('[1,2]');
  });

  it('starts from the role of DESIGN D1', () => {
    expect(abilityChoiceOf('[1,2,3]')).toBe('Admin');
    expect(abilityChoiceOf('[3]')).toBe('Admin');
    expect(abilityChoiceOf('[1,2]')).toBe('Non-Admin');
    expect(abilityChoiceOf(null)).toBe('Non-Admin');
  });
});

describe('users: Assign Roles switches', () => {
  const admin = { id: 1, granted_accesses: '["users","brands"]' };
  it('lets an admin turn only the accesses they hold, on another admin', () => {
    expect(switchProblem('brands', admin, { id: 2, abilities: '[1,2,3]' })).toBeNull();
    expect(switchProblem('BRANDS', admin, { id: 2, abilities: '[1,2,3]' })).toBeNull();
    expect(switchProblem('shops', admin, { id: 2, abilities: '[1,2,3]' })).toBe('resources.users.roles.not_held');
  });
  it('refuses themselves and users who are not admins', () => {
    expect(switchProblem('brands', admin, { id: 1, abilities: '[1,2,3]' })).toBe('resources.users.roles.self');
    expect(switchProblem('brands', admin, { id: 2, abilities: '[1,2]' })).toBe('resources.users.roles.not_admin');
  });
  it('offers every navigation token but the my and dashboard ones, and sends them in that order', () => {
    expect(registry.assignable).toContain('users');
    expect(registry.assignable.some((t) => t.includes('my') || t.includes('dashboard'))).toBe(false);
    expect(grantedOf('["Brands","nonsense","my-shops"]', registry.assignable)).toEqual(['brands']);
    expect(tokensToSend(['users', 'shops', 'nonsense'], registry.assignable)).toEqual(['shops', 'users']);
  });
});

describe('global search: what a user searches', () => {
  it('an admin searches the screens they hold, in sidebar order', () => {
    const targets = searchTargets({ abilities: '[1,2,3]', granted_accesses: '["users","products","shops"]' }, registry).map((t) => t.resource);
    // The screens held, as the admin's; of the others, only seller variants (their own records).
    expect(targets.filter((r) => !r.startsWith('my-'))).toEqual(['shops', 'products', 'users']);
    // Orders are not held: their seller variant (the admin's own shops' orders) is searched instead, in its place.
    expect(targets).toContain('my-orders');
    expect(targets.indexOf('my-orders')).toBeLessThan(targets.indexOf('shops'));
    expect(targets).not.toContain('my-shops');
    expect(targets).not.toContain('my-products');
  });
  it('an admin without a screen searches its seller variant (their own records)', () => {
    const targets = searchTargets({ abilities: '[1,2,3]', granted_accesses: '[]' }, registry).map((t) => t.resource);
    expect(targets.slice(0, 2)).toEqual(['my-shops', 'my-products']);
    expect(targets.every((r) => r.startsWith('my-'))).toBe(true);
  });
  it('a seller searches their own screens only; a buyer their purchases (the buyer variants)', () => {
    const seller = searchTargets({ abilities: '[1,2]', granted_accesses: '["users"]' }, registry).map((t) => t.resource);
    expect(seller.slice(0, 2)).toEqual(['my-shops', 'my-products']);
    expect(seller.every((r) => r.startsWith('my-'))).toBe(true);
    const buyerVariants = registry.resources.flatMap((r) => (r.buyer && registry.entity(r.name).search ? [r.buyer.path.slice(1)] : []));
    expect(buyerVariants.length).toBeGreaterThan(0);
    expect(searchTargets({ abilities: '[1]' }, registry).map((t) => t.resource)).toEqual(buyerVariants);
    expect(seller.some((r) => buyerVariants.includes(r))).toBe(false);
  });
});
