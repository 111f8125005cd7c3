/** The currency display's rules (SPEC §2.31, §3.22, §9.1) with worked examples. */
import { describe, expect, it, vi } from 'vitest';
import { convert, formatMoney } from '../../contract';
import { currencyOf, DEFAULT_LOCATION, usableLocation } from '../../contract/location';
import { detectLocation, pickDisplayCurrency, rateNote } from '../../src/currency';

const rates = [
  { code: 'USD', value_per_dollar: 1, currency_symbol: '$' },
  { code: 'NGN', value_per_dollar: 1550, currency_symbol: '₦' },
  { code: 'GBP', value_per_dollar: 0.79, currency_symbol: '£' },
  { code: 'EUR', value_per_dollar: 0.92, currency_symbol: null },
];
const shown = (amount: number, from: string, to: string) =>
  formatMoney(convert(amount, from, to, rates), rates.find((r) => r.code === to)?.currency_symbol);

describe('SPEC §9.1 worked examples: amount ÷ rate(source) × rate(viewer), 2 decimals, commas, symbol or $', () => {
  it('₦15,500 is $10.00 to a US viewer, and $10 is ₦15,500.00 to a Nigerian one', () => {
    expect(shown(15500, 'NGN', 'USD')).toBe('$10.00');
    expect(shown(10, 'USD', 'NGN')).toBe('₦15,500.00');
  });
  it('£79 is ₦155,000.00 (through the dollar)', () => {
    expect(shown(79, 'GBP', 'NGN')).toBe('₦155,000.00');
  });
  it("rounds to 2 decimals and writes '.00' when whole", () => {
    expect(shown(1, 'NGN', 'USD')).toBe('$0.00');
    expect(shown(1000, 'NGN', 'USD')).toBe('$0.65');
    expect(shown(25, 'USD', 'GBP')).toBe('£19.75');
    expect(shown(100, 'USD', 'USD')).toBe('$100.00');
  });
  it('groups 15-digit amounts and more by commas', () => {
    expect(shown(123456789012345, 'USD', 'USD')).toBe('$123,456,789,012,345.00');
    expect(shown(100000000000000, 'USD', 'NGN')).toBe('₦155,000,000,000,000,000.00');
  });
  it("gives 0 for an unknown source currency, and '$' when the viewer's currency has no symbol", () => {
    expect(shown(500, 'XOF', 'NGN')).toBe('₦0.00');
    expect(shown(100, 'USD', 'EUR')).toBe('$92.00');
  });
  it('tells the original amount and the rate used on hover', () => {
    const t = (key: string, o?: object) => `${key} ${JSON.stringify(o)}`;
    expect(rateNote(15500, 'NGN', 'USD', rates, t)).toContain('"original":"₦15,500.00 NGN","rate":"1 NGN = 0.0006452 USD"');
    expect(rateNote(5, 'XOF', 'USD', rates, t)).toBe('currency.no_rate {"original":"$5.00 XOF"}');
  });
});

describe('the visitor location (SPEC §3.22, §7.10)', () => {
  it('uses the first currency code, and the default location (Liberia, USD) when none is given', () => {
    expect(currencyOf({ currency: { code: ['NGN', 'USD'] } })).toBe('NGN');
    expect(currencyOf({ currency: { code: 'gbp' } })).toBe('GBP');
    expect(usableLocation({ success: true, currency: { code: [] } })).toBe(DEFAULT_LOCATION);
    expect(usableLocation('nonsense')).toBe(DEFAULT_LOCATION);
    expect(DEFAULT_LOCATION.location?.country?.name).toBe('Liberia');
    expect(currencyOf(DEFAULT_LOCATION)).toBe('USD');
  });
  it('asks GET {url}/{key}/detect and keeps the default when the service fails', async () => {
    const quiet = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const seen: string[] = [];
    const answer = { currency: { code: ['NGN'] }, location: { country: { name: 'Nigeria' } } };
    const good = (async (url: string) => {
      seen.push(url);
      return new Response(JSON.stringify(answer));
    }) as typeof fetch;
    expect(await detectLocation('https://geo.example/', 'k 1', good)).toEqual(answer);
    expect(seen).toEqual(['https://geo.example/k%201/detect']);
    const down = (async () => { throw new Error('offline'); }) as typeof fetch;
    expect(await detectLocation('/geo', 'offline', down)).toBe(DEFAULT_LOCATION);
    const refused = (async () => new Response('no', { status: 403 })) as typeof fetch;
    expect(await detectLocation('/geo', 'offline', refused)).toBe(DEFAULT_LOCATION);
    quiet.mockRestore();
  });
  it("shows the viewer's choice, else the detected currency the rates know, else USD", () => {
    expect(pickDisplayCurrency('gbp', 'NGN', rates)).toBe('GBP');
    expect(pickDisplayCurrency('', 'NGN', rates)).toBe('NGN');
    expect(pickDisplayCurrency('', 'XOF', rates)).toBe('USD');
    expect(pickDisplayCurrency('XOF', undefined, rates)).toBe('USD');
  });
});
