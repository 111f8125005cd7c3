/** A record's field rules (the declarations' required, lengths, ranges, choices), and a cleared optional field stored as null (DESIGN D13). */
import { describe, expect, it } from 'vitest';
import { coerce, present, readId, readPayload, type ReadOptions } from '../../server/records';
import type { ApiError } from '../../server/errors';
import type { EntityContract, FieldSpec } from '../../contract';

describe('clearing an optional field', () => {
  it.each(['string', 'email', 'text', 'date', 'int', 'number'] as const)('%s: empty or blank text is null', (type) => {
    const field = { type } as FieldSpec;
    expect(coerce('x', field, '')).toEqual({ ok: null });
    if (type !== 'int' && type !== 'number') expect(coerce('x', field, '   ')).toEqual({ ok: null });
    expect(coerce('x', field, null)).toEqual({ ok: null });
  });

  it('keeps a value as it was given, trimmed', () => {
    expect(coerce('x', { type: 'date' } as FieldSpec, ' 2026-12-31 ')).toEqual({ ok: '2026-12-31' });
    expect(coerce('x', { type: 'string' } as FieldSpec, ' Acme ')).toEqual({ ok: 'Acme' });
  });
});

/** Checks one value; returns the column value or the error words. */
const run = (field: Partial<FieldSpec> & Pick<FieldSpec, 'type'>, value: unknown) => {
  const result = coerce('unit_price', field as FieldSpec, value);
  return 'error' in result ? result.error : result.ok;
};

describe("a field's rules, both sides of each limit", () => {
  it('text: at most max (255 by default, 5000 for long text, 32 for dates), at least min unless cleared', () => {
    expect(run({ type: 'string', max: 5 }, 'abcde')).toBe('abcde');
    expect(run({ type: 'string', max: 5 }, 'abcdef')).toBe('unit price must be at most 5 characters');
    expect(run({ type: 'string' }, 'a'.repeat(255))).toBe('a'.repeat(255));
    expect(run({ type: 'string' }, 'a'.repeat(256))).toBe('unit price must be at most 255 characters');
    expect(run({ type: 'email' }, `${'a'.repeat(244)}@example.com`)).toBe('unit price must be at most 255 characters');
    expect(run({ type: 'text' }, 'a'.repeat(5000))).toBe('a'.repeat(5000));
    expect(run({ type: 'text' }, 'a'.repeat(5001))).toBe('unit price must be at most 5000 characters');
    expect(run({ type: 'date' }, `2026-12-31T${'0'.repeat(21)}`)).toBe(`2026-12-31T${'0'.repeat(21)}`);
    expect(run({ type: 'date' }, `2026-12-31T${'0'.repeat(22)}`)).toBe('unit price must be at most 32 characters');
    expect(run({ type: 'string', min: 3 }, 'abc')).toBe('abc');
    expect(run({ type: 'string', min: 3 }, 'ab')).toBe('unit price must be at least 3 characters');
    expect(run({ type: 'string', min: 3 }, '  ')).toBeNull();
    expect(run({ type: 'string' }, 12)).toBe('12');
    for (const bad of [true, {}, []]) expect(run({ type: 'string' }, bad)).toBe('unit price must be text');
  });

  it('dates exist on the calendar, a time may follow', () => {
    for (const good of ['2028-02-29', '2026-12-31T10:00:00Z', '2026-01-01 08:30', '2026-12-31T10:00:00.5Z']) expect(run({ type: 'date' }, good)).toBe(good);
    for (const bad of ['2026-02-29', '2026-13-01', '2026-04-31', '2026-00-10', '31/12/2026', '2026-12-31x', 'x2026-12-31']) {
      expect(run({ type: 'date' }, bad)).toBe('unit price must be a date such as 2026-12-31');
    }
  });

  it('emails have a name, an @ and a dotted domain, without spaces', () => {
    expect(run({ type: 'email' }, 'a@b.co')).toBe('a@b.co');
    for (const bad of ['a@b', 'a b@c.d', '@b.co', 'a@.co x', 'a@b.co\nx@y.z']) expect(run({ type: 'email' }, bad)).toBe('unit price must be an email address');
  });

  it('text choices are one of the list', () => {
    expect(run({ type: 'string', oneOf: ['popular', 'upcoming'] }, 'upcoming')).toBe('upcoming');
    expect(run({ type: 'string', oneOf: ['popular', 'upcoming'] }, 'Popular')).toBe('unit price must be one of: popular, upcoming');
    expect(run({ type: 'string', oneOf: ['popular'] }, '')).toBeNull();
  });

  it("numbers: between min and max inclusive (their kind's range when unset), whole where asked", () => {
    expect(run({ type: 'int', min: 1, max: 100 }, 1)).toBe(1);
    expect(run({ type: 'int', min: 1, max: 100 }, 0)).toBe('unit price must be at least 1');
    expect(run({ type: 'int', min: 1, max: 100 }, 100)).toBe(100);
    expect(run({ type: 'int', min: 1, max: 100 }, 101)).toBe('unit price must be at most 100');
    expect(run({ type: 'int' }, '42')).toBe(42);
    expect(run({ type: 'int' }, 4.5)).toBe('unit price must be a whole number');
    expect(run({ type: 'number' }, '4.5')).toBe(4.5);
    expect(run({ type: 'number' }, 1e15)).toBe(1e15);
    expect(run({ type: 'number' }, -1e15)).toBe(-1e15);
    expect(run({ type: 'number' }, 1e15 + 2)).toBe('unit price must be at most 1000000000000000');
    expect(run({ type: 'number' }, -1e15 - 2)).toBe('unit price must be at least -1000000000000000');
    // A whole number: what the integer column holds on both databases.
    expect(run({ type: 'int' }, 2147483647)).toBe(2147483647);
    expect(run({ type: 'int' }, -2147483648)).toBe(-2147483648);
    expect(run({ type: 'int' }, 2147483648)).toBe('unit price must be at most 2147483647');
    expect(run({ type: 'int' }, '-2147483649')).toBe('unit price must be at least -2147483648');
    expect(run({ type: 'int', min: 0 }, 2147483648)).toBe('unit price must be at most 2147483647');
    for (const bad of ['  ', 'abc', Infinity, NaN, true, [], {}]) expect(run({ type: 'number' }, bad)).toBe('unit price must be a number');
    expect(run({ type: 'int', oneOf: [1, 2] }, 2)).toBe(2);
    expect(run({ type: 'int', oneOf: [1, 2] }, 3)).toBe('unit price must be one of: 1, 2');
  });

  it('booleans: true or false in their spellings', () => {
    for (const on of [true, 1, '1', 'true']) expect(run({ type: 'bool' }, on)).toBe(1);
    for (const off of [false, 0, '0', 'false']) expect(run({ type: 'bool' }, off)).toBe(0);
    for (const bad of ['yes', 2, 'TRUE', '']) expect(run({ type: 'bool' }, bad)).toBe('unit price must be true or false');
  });

  it('JSON: stored as text, within its size (20000 by default) and the field limits', () => {
    expect(run({ type: 'json' }, [{ id: 1 }])).toBe('[{"id":1}]');
    expect(run({ type: 'json', max: 9 }, ['a'.repeat(5)])).toBe('["aaaaa"]');
    expect(run({ type: 'json', max: 9 }, ['a'.repeat(6)])).toBe('unit price is too large');
    expect(run({ type: 'json' }, ['a'.repeat(4000), 'b'.repeat(4000), 'c'.repeat(4000), 'd'.repeat(4000), 'e'.repeat(3984)])).toHaveLength(20000);
    expect(run({ type: 'json' }, ['a'.repeat(4000), 'b'.repeat(4000), 'c'.repeat(4000), 'd'.repeat(4000), 'e'.repeat(3985)])).toBe('unit price is too large');
    expect(run({ type: 'json' }, ['a'.repeat(5001)])).toBe('unit price holds text longer than 5000 characters');
  });
});

describe('a payload read against its entity', () => {
  const entity = {
    fields: {
      name: { type: 'string', required: true, max: 10 },
      street: { type: 'string', group: 'address' },
      currency: { type: 'string', wrap: 'code' },
      owner_id: { type: 'int', serverSet: true },
      note: { type: 'text' },
    },
  } as unknown as EntityContract;
  const refusal = (payload: unknown, opts: ReadOptions) => {
    try {
      return readPayload(entity, payload, opts);
    } catch (error) {
      return { status: (error as ApiError).statusCode, query: (error as ApiError).message };
    }
  };

  it('flattens groups and wraps, skips what the server sets, and keeps only the fields asked for', () => {
    expect(refusal({ name: 'Acme', address: { street: 'Main' }, currency: { code: 'USD' }, owner_id: 5, id: 3 }, { create: true })).toEqual({
      name: 'Acme', street: 'Main', currency: 'USD',
    });
    expect(refusal({ name: 'Acme', street: 'Top', address: { street: 'Main' } }, { create: false })).toEqual({ name: 'Acme', street: 'Top' });
    expect(refusal({ name: 'Acme', note: 'hi' }, { create: false, only: ['note'] })).toEqual({ note: 'hi' });
    expect(refusal({ address: 'Main' }, { create: false })).toEqual({});
  });

  it('names every problem at once; a required field is needed on create, and never cleared', () => {
    expect(refusal({ note: 'x'.repeat(5001) }, { create: true })).toEqual({
      status: 400, query: 'name is required; note must be at most 5000 characters',
    });
    expect(refusal({}, { create: false })).toEqual({});
    expect(refusal({ name: '  ' }, { create: false })).toEqual({ status: 400, query: 'name is required' });
    expect(refusal({ name: null }, { create: false })).toEqual({ status: 400, query: 'name is required' });
    expect(refusal({ note: 'x' }, { create: true, only: ['note'] })).toEqual({ note: 'x' });
  });

  it('is a JSON object', () => {
    for (const bad of [null, [], 'name', 3]) expect(refusal(bad, { create: true })).toEqual({ status: 400, query: 'The request body must be a JSON object' });
  });
});

describe('ids and answers', () => {
  it('an id is a positive whole number, as a number or as digits', () => {
    expect(readId(7)).toBe(7);
    expect(readId(1)).toBe(1);
    expect(readId('7')).toBe(7);
    expect(readId('12')).toBe(12);
    for (const bad of [0, -1, 1.5, '7a', '', null, Number.MAX_SAFE_INTEGER + 1, '-3', ' 7', '7 ', 'a7', true, [5], '1.5']) {
      expect(() => readId(bad, 'shop_id')).toThrow('shop_id must be a positive whole number');
    }
    expect(() => readId('x')).toThrow('id must be a positive whole number');
  });

  it('an answer nests groups, wraps, parses JSON and encodes booleans as the entity says', () => {
    const entity = {
      activeAs: 'int',
      fields: {
        street: { type: 'string', group: 'address' },
        city: { type: 'string', group: 'address' },
        currency: { type: 'string', wrap: 'code' },
        images: { type: 'json' },
        broken: { type: 'json' },
        is_active: { type: 'bool' },
        gone: { type: 'bool' },
      },
    } as unknown as EntityContract;
    const row = { id: 4, street: 'Main', currency: 'USD', images: '[1]', broken: '{', is_active: 1, gone: null, created_at: 'c', secret: 's' };
    expect(present(entity, row)).toEqual({
      id: 4, address: { street: 'Main', city: null }, currency: { code: 'USD' }, images: [1], broken: null, is_active: 1, gone: null, created_at: 'c', updated_at: null,
    });
    expect(present({ ...entity, activeAs: 'bool' }, { ...row, is_active: 0 }).is_active).toBe(false);
    expect(present({ ...entity, activeAs: 'bool' }, row).is_active).toBe(true);
    expect(present({ ...entity, activeAs: 'int' }, { ...row, is_active: true }).is_active).toBe(1);
    expect(present(entity, { ...row, images: [2] }).images).toEqual([2]);
  });

  it('an answer keeps the declared order, each group where its first field is, whatever the names', () => {
    const entity = {
      activeAs: 'bool',
      fields: Object.fromEntries([
        ['first', { type: 'string', group: 'pair' }],
        ['say "hi"', { type: 'int' }],
        ['__proto__', { type: 'string' }],
        ['second', { type: 'bool', group: 'pair' }],
        ['created_at', { type: 'string' }],
      ]),
    } as unknown as EntityContract;
    const row = Object.fromEntries([['id', 9], ['first', 'a'], ['say "hi"', 2], ['second', 1], ['created_at', 'c'], ['updated_at', 'u']]);
    expect(JSON.stringify(present(entity, row))).toBe('{"id":9,"pair":{"first":"a","second":true},"say \\"hi\\"":2,"__proto__":null,"created_at":"c","updated_at":"u"}');
    // Two rows, two answers: nothing of one is kept in the other.
    const other = present(entity, { ...row, first: 'b' });
    expect((other.pair as Record<string, unknown>).first).toBe('b');
    expect((present(entity, row).pair as Record<string, unknown>).first).toBe('a');
  });
});
