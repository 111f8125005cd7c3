import { describe, expect, it } from 'vitest';
import { convert, currencyCode, formatMoney, minorText, percentOf, sumConverted, toCsv, toMinor, unitRate } from '../../contract';

const rates = [
  { code: 'USD', value_per_dollar: 1, currency_symbol: '$' },
  { code: 'NGN', value_per_dollar: 1550, currency_symbol: '₦' },
  { code: 'gbp', value_per_dollar: '0.79', currency_symbol: '£' },
];

describe('money (SPEC §9.1)', () => {
  it('converts through value_per_dollar, rounded to 2 decimals, codes compared case-insensitively', () => {
    expect(convert(3100, 'NGN', 'USD', rates)).toBe(2);
    expect(convert(10, 'USD', 'GBP', rates)).toBe(7.9);
    expect(convert(100, 'GBP', 'NGN', rates)).toBe(196202.53);
    expect(convert(undefined, undefined, 'USD', rates)).toBe(0);
  });
  it('gives 0 for a source currency not among the rates (SPEC §9.1)', () => {
    expect(convert(5, 'XYZ', 'USD', rates)).toBe(0);
    expect(convert(5, 'USD', 'XYZ', rates)).toBe(0);
  });
  it('formats with the symbol, comma groups and 2 decimals', () => {
    expect(formatMoney(1234567.5, '₦')).toBe('₦1,234,567.50');
    expect(formatMoney(0, null)).toBe('$0.00');
    expect(formatMoney(123456789012345.67, '$')).toBe('$123,456,789,012,345.67');
    expect(formatMoney(-42, '£')).toBe('-£42.00');
  });
  it('adds mixed currencies only after converting them', () => {
    expect(sumConverted([{ amount: 3100, currency: 'NGN' }, { amount: 3, currency: 'USD' }, { amount: 1, currency: 'XYZ' }], 'USD', rates)).toEqual({ total: 5, unconverted: 1 });
    expect(unitRate('NGN', 'USD', rates)).toBeCloseTo(1 / 1550);
  });
  it('takes a missing currency as USD and compares codes without spaces or case, on both sides', () => {
    expect(convert(10, null, 'GBP', rates)).toBe(7.9);
    expect(convert(10, '', 'GBP', rates)).toBe(7.9);
    expect(convert(10, ' usd ', ' Gbp ', rates)).toBe(7.9);
    expect(convert(10, 'USD', 'EUR', [...rates, { code: ' eur ', value_per_dollar: 0.5 }])).toBe(5);
  });
  it('gives 0 (never Infinity or -0) when a rate is zero, negative or not a number', () => {
    const odd = [...rates, { code: 'ZRO', value_per_dollar: 0 }, { code: 'NEG', value_per_dollar: -2 }, { code: 'NAN', value_per_dollar: 'x' }];
    for (const code of ['ZRO', 'NEG', 'NAN']) {
      expect(convert(5, code, 'USD', odd)).toBe(0);
      expect(convert(-5, 'USD', code, odd)).toBe(0);
      expect(unitRate(code, 'USD', odd)).toBeNull();
    }
    expect(convert(5, 'USD', 'NEG', odd)).toBe(0);
  });
  it('has no unit rate for a currency the rates do not know, on either side', () => {
    expect(unitRate('XYZ', 'USD', rates)).toBeNull();
    expect(unitRate('USD', 'XYZ', rates)).toBeNull();
    expect(unitRate('USD', 'GBP', rates)).toBe(0.79);
  });
  it("formats any English locale the English way, another language's its own way, zero without a sign", () => {
    expect(formatMoney(1234.5, '£', 'en-GB')).toBe('£1,234.50');
    expect(formatMoney(1234.5, '£', 'EN')).toBe('£1,234.50');
    const group = new Intl.NumberFormat('fr').format(1000).charAt(1);
    expect(formatMoney(-1234.5, '€', 'fr')).toBe(`-1${group}234,50\u00a0€`);
    expect(formatMoney(0, '€', 'fr-FR')).toBe('0,00\u00a0€');
    expect(formatMoney(2, null, 'fr')).toBe('2,00\u00a0$');
  });
});

describe('minor units (the ledger, issue 28)', () => {
  it('converts decimal amounts to whole hundredths without float drift, and back to text', () => {
    expect([toMinor(0.29), toMinor('12.34'), toMinor(1e6 + 0.07), toMinor(-40), toMinor(null), toMinor('x')]).toEqual([29, 1234, 100000007, -4000, 0, 0]);
    expect([minorText(0), minorText(5), minorText(-1234), minorText(100000007)]).toEqual(['0.00', '0.05', '-12.34', '1000000.07']);
  });

  it('books a currency code in one form: trimmed, in capitals, USD when there is none', () => {
    expect([currencyCode('usd'), currencyCode(' Ngn '), currencyCode('EUR'), currencyCode(''), currencyCode('  '), currencyCode(null), currencyCode(12)])
      .toEqual(['USD', 'NGN', 'EUR', 'USD', 'USD', 'USD', 'USD']);
  });

  it('takes a rate of an amount to the nearest unit', () => {
    expect([percentOf(1999, 7.5), percentOf(14000, 10), percentOf(1, 10), percentOf(5, 10), percentOf(0, 50)]).toEqual([150, 1400, 0, 1, 0]);
  });

  it('keeps a negative number a number in CSV, and a formula-like text harmless', () => {
    expect(toCsv([['-12.34', '-cmd', '=SUM(A1)', 'a,b']])).toBe(`-12.34,'-cmd,'=SUM(A1),"a,b"`);
  });
});
