/** A cleared optional field is stored as null, whatever its kind (DESIGN D13). */
import { describe, expect, it } from 'vitest';
import { coerce } from '../../server/records';
import type { FieldSpec } from '../../contract';

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
