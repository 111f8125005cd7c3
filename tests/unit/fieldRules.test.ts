/**
 * The form's validators come from the contract's field rules: a declared format is checked in the
 * form too, with the format's words in the current language and its example.
 */
import { describe, expect, it } from 'vitest';
import { i, s, type EntityContract } from '../../contract';
import { validatorsOf } from '../../src/screens/FieldInput';

const entity = {
  fields: {
    code: s({ pattern: { regex: '[A-Z0-9]+', example: 'WELCOME10', hint: { en: 'capital letters and digits', fr: 'des majuscules et des chiffres' } } }),
    percent_off: i({ min: 1, max: 90 }),
  },
} as unknown as EntityContract;

const problems = (source: string, kind: 'text' | 'number', value: unknown) =>
  validatorsOf(entity, { kind, source }, false, () => 'the hint in this language')
    .map((validate) => validate(value, {}, {} as never))
    .filter(Boolean);

describe('form validators from the field rules', () => {
  it('refuses a text without its declared format, naming the format and its example', () => {
    expect(problems('code', 'text', 'spring-1')).toEqual([
      { message: 'validation.pattern', args: { hint: 'the hint in this language', example: 'WELCOME10' } },
    ]);
  });

  it('takes a text with the format, and an empty one (required is its own rule)', () => {
    expect(problems('code', 'text', 'SPRING1')).toEqual([]);
    expect(problems('code', 'text', '')).toEqual([]);
  });

  it('keeps a number within its range, both sides of each limit', () => {
    expect(problems('percent_off', 'number', 1)).toEqual([]);
    expect(problems('percent_off', 'number', 90)).toEqual([]);
    expect(problems('percent_off', 'number', 0)).toHaveLength(1);
    expect(problems('percent_off', 'number', 91)).toHaveLength(1);
  });
});
