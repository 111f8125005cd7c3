/**
 * The server's rules of a search call (SPEC §7.3, §9.4): a keyIndex naming a searchable list, a value
 * of at most 100 characters, targets among that list's searched columns. Entities come from the
 * registry; nothing of its lists is copied here.
 */
import { describe, expect, it } from 'vitest';
import { registry } from '../../resources';
import { ApiError } from '../../server/errors';
import { readSearch } from '../../server/search';
import { searchable as searchableTargets } from '../../server/store';

const searchable = registry.entities.filter((e) => e.search);
/** A list searched on two columns or more (so a subset and a duplicate can be asked for). */
const entity = searchable.find((e) => e.search!.targets.length >= 2)!;
const { keyIndex, targets } = entity.search!;

function refusal(body: Record<string, unknown>, strict = false) {
  try {
    readSearch(body, registry, strict);
    return null;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    expect(error.statusCode).toBe(400);
    return error.message;
  }
}

describe('a search call', () => {
  it('reads the entity of its keyIndex, given as a number or as digits', () => {
    expect(readSearch({ keyIndex, value: 'ab', targets: [targets[0]] }, registry, false)).toEqual({ entity, value: 'ab', targets: [targets[0]] });
    expect(readSearch({ keyIndex: String(keyIndex), value: 'ab', targets: [targets[0]] }, registry, false).entity).toBe(entity);
  });

  it('refuses a keyIndex that is not a whole number, or names no searchable list', () => {
    for (const bad of [undefined, null, '4a', ' 4', 4.5, '', [4]]) {
      expect(refusal({ keyIndex: bad, value: 'ab', targets: [targets[0]] })).toBe('keyIndex must be a whole number');
    }
    const unused = Math.max(...searchable.map((e) => e.search!.keyIndex)) + 1;
    expect(refusal({ keyIndex: unused, value: 'ab', targets: ['id'] })).toBe(`keyIndex ${unused} does not name a searchable list`);
  });

  it('leaves lists added beyond the contract unsearchable in strict mode only', () => {
    const extension = searchable.find((e) => e.extension);
    const legacy = searchable.find((e) => !e.extension)!;
    const body = (e: typeof entity) => ({ keyIndex: e.search!.keyIndex, value: 'ab', targets: [e.search!.targets[0]] });
    expect(refusal(body(legacy), true)).toBeNull();
    if (!extension) return;
    expect(refusal(body(extension), false)).toBeNull();
    expect(refusal(body(extension), true)).toBe(`keyIndex ${extension.search!.keyIndex} does not name a searchable list`);
  });

  it('takes a value of 100 characters and refuses 101; a number is read as text; no value searches for everything', () => {
    expect(refusal({ keyIndex, value: 'a'.repeat(100), targets: [targets[0]] })).toBeNull();
    expect(refusal({ keyIndex, value: 'a'.repeat(101), targets: [targets[0]] })).toBe('value must be at most 100 characters');
    expect(readSearch({ keyIndex, value: 42, targets: [targets[0]] }, registry, false).value).toBe('42');
    expect(readSearch({ keyIndex, targets: [targets[0]] }, registry, false).value).toBe('');
    for (const bad of [true, {}, ['ab']]) expect(refusal({ keyIndex, value: bad, targets: [targets[0]] })).toBe('value must be text');
  });

  it("takes every searched column at once, each once, and refuses one more or one that is not the list's", () => {
    expect(readSearch({ keyIndex, value: 'ab', targets: [...targets] }, registry, false).targets).toEqual([...targets]);
    expect(readSearch({ keyIndex, value: 'ab', targets: [targets[1], targets[1]] }, registry, false).targets).toEqual([targets[1]]);
    expect(refusal({ keyIndex, value: 'ab', targets: [...targets, targets[0]] })).toBe(
      `targets may name at most ${targets.length} columns: ${targets.join(', ')}`,
    );
    expect(refusal({ keyIndex, value: 'ab', targets: ['password'] })).toBe(`password cannot be searched here; allowed: ${targets.join(', ')}`);
    expect(refusal({ keyIndex, value: 'ab', targets: [7] })).toBe(`7 cannot be searched here; allowed: ${targets.join(', ')}`);
    expect(refusal({ keyIndex, value: 'ab', targets: ['x'.repeat(100)] })).toBe(`${'x'.repeat(64)} cannot be searched here; allowed: ${targets.join(', ')}`);
    for (const bad of [undefined, [], 'id', { 0: 'id' }]) expect(refusal({ keyIndex, value: 'ab', targets: bad })).toBe('targets must be a list of column names');
  });
});

describe('where a search looks', () => {
  // created_at holds only ISO timestamps the server writes (2026-11-29T22:30:03.123Z).
  const targetsOf = (value: string) => searchableTargets(['id', 'name', 'created_at'], value);

  it('looks in a timestamp for a value made of its characters, in any case', () => {
    for (const value of ['2026', '2026-11-29T22:30:03.123Z', 't22', 'z', 'Z', ':', '.', '-', '11-29t', '  2026  ']) {
      expect(targetsOf(value)).toEqual(['id', 'name', 'created_at']);
    }
  });

  it('looks elsewhere only for a value holding any other character: a letter, a space, a sign', () => {
    for (const value of ['TRK-4242', 'x', '2026 11', '2026/11', '+00', 'é', '１', '2026-11-29T22:30:03.123Za']) {
      expect(targetsOf(value)).toEqual(['id', 'name']);
    }
  });
});
