/** DESIGN D1: one rule for roles, and the parsing of abilities and granted accesses. */
import { describe, expect, it } from 'vitest';
import { hasAccess, isAlwaysAllowed, parseAbilities, parseAccesses, roleOf } from '../../contract';

describe('roleOf', () => {
  it.each([
    [[1], 'buyer'],
    [[1, 2], 'seller'],
    [[1, 2, 3], 'admin'],
    ['[1]', 'buyer'],
    ['[1,2]', 'seller'],
    ['[1,2,3]', 'admin'],
    [' [1, 2, 3] ', 'admin'],
    [[3], 'admin'],
    ['[3]', 'admin'],
    [[2], 'seller'],
    [['1', '2'], 'seller'],
    [[], 'buyer'],
    ['', 'buyer'],
    ['not json', 'buyer'],
    ['{"a":3}', 'buyer'],
    ['3', 'buyer'],
    [null, 'buyer'],
    [undefined, 'buyer'],
    [42, 'buyer'],
  ])('%j is %s', (abilities, role) => {
    expect(roleOf(abilities)).toBe(role);
  });
});

describe('parseAbilities', () => {
  it('reads JSON strings and arrays, keeping integers only', () => {
    expect(parseAbilities('[1,2,3]')).toEqual([1, 2, 3]);
    expect(parseAbilities([1, '2', 'x', 2.5])).toEqual([1, 2]);
    expect(parseAbilities('[1,')).toEqual([]);
    expect(parseAbilities(undefined)).toEqual([]);
  });
});

describe('parseAccesses', () => {
  it('reads JSON strings and arrays, keeping strings only', () => {
    expect(parseAccesses('["shops","USERS"]')).toEqual(['shops', 'USERS']);
    expect(parseAccesses(['shops', 3, null])).toEqual(['shops']);
    expect(parseAccesses('[]')).toEqual([]);
    expect(parseAccesses('shops')).toEqual([]);
    expect(parseAccesses(null)).toEqual([]);
  });
});

describe('hasAccess and isAlwaysAllowed', () => {
  it('compares tokens case-insensitively', () => {
    expect(hasAccess('["SHOPS"]', 'shops')).toBe(true);
    expect(hasAccess(['currencies-exchange'], 'Currencies-exchange')).toBe(true);
    expect(hasAccess('["shops"]', 'my-shops')).toBe(false);
  });

  it('always allows the my and dashboard entries', () => {
    expect(['dashboard', 'my-shops', 'my-products', 'my-orders'].every(isAlwaysAllowed)).toBe(true);
    expect(isAlwaysAllowed('shops')).toBe(false);
  });
});

describe('abilities and accesses that are not lists', () => {
  it('reads nothing from a JSON object, a JSON string, a number or an object whose text looks like a list', () => {
    for (const value of ['{"a":1}', '"dashboard"', 3, { toString: () => '[3]' }, null, '   ']) {
      expect(parseAccesses(value)).toEqual([]);
      expect(parseAbilities(value)).toEqual([]);
    }
  });
});
