/**
 * Money (SPEC §9.1, DESIGN D14), one rule for the console and the server: amounts are converted
 * through the exchange rates' value_per_dollar before they are shown or added, never mixed.
 */

/** What conversion reads of an exchange rate (SPEC §3.14). */
export interface Rate {
  code: string;
  value_per_dollar: number | string;
  currency_symbol?: string | null;
}

/**
 * A currency code in one form, as the ledger books it: trimmed and in capitals ('usd ' is 'USD'), the
 * source currency (USD) when there is none. Codes are compared case-insensitively (SPEC §3.14), so a
 * product priced in 'usd' and one in 'USD' sell, earn and pay out in one currency.
 */
export const currencyCode = (code: unknown): string => (typeof code === 'string' ? code.trim().toUpperCase() : '') || 'USD';

const rateOf = (rates: readonly Rate[], code: string | null | undefined): Rate | undefined => {
  const wanted = (code || 'USD').trim().toLowerCase();
  return rates.find((r) => String(r.code).trim().toLowerCase() === wanted);
};

/** Whether the rates know a currency (codes compared case-insensitively). */
export const hasRate = (rates: readonly Rate[], code: string | null | undefined) => rateOf(rates, code) !== undefined;

/**
 * SPEC §9.1: amount ÷ value_per_dollar(source) × value_per_dollar(target), rounded to 2 decimals.
 * The source defaults to USD and the amount to 0; a source (or target) not among the rates gives 0,
 * as the specification says; `sumConverted` counts such amounts apart so a total never hides them.
 */
export function convert(amount: unknown, from: string | null | undefined, to: string | null | undefined, rates: readonly Rate[]): number {
  const value = Number(amount ?? 0);
  const source = rateOf(rates, from);
  const target = rateOf(rates, to);
  if (!Number.isFinite(value) || !source || !target) return 0;
  const perDollarFrom = Number(source.value_per_dollar);
  const perDollarTo = Number(target.value_per_dollar);
  if (!(perDollarFrom > 0) || !(perDollarTo > 0)) return 0;
  return Math.round((value / perDollarFrom) * perDollarTo * 100) / 100;
}

/** The rate one unit of `from` is worth in `to` (for "1 NGN = 0.00065 USD" hovers), or null. */
export function unitRate(from: string, to: string, rates: readonly Rate[]): number | null {
  const source = rateOf(rates, from);
  const target = rateOf(rates, to);
  if (!source || !target || !(Number(source.value_per_dollar) > 0)) return null;
  return Number(target.value_per_dollar) / Number(source.value_per_dollar);
}

/**
 * SPEC §9.1: thousands separated by commas, always 2 decimals, prefixed by the symbol ('$' when
 * missing). In another language than English (`locale`), the amount follows that language's
 * conventions, the symbol after it: '1 234,56 $' in French.
 */
export function formatMoney(amount: number, symbol?: string | null, locale?: string): string {
  if (locale && !english(locale)) {
    const number = numberFormat(locale, 2).format(Math.abs(amount));
    return `${amount < 0 ? '-' : ''}${number}\u00a0${symbol || '$'}`;
  }
  const [whole, cents] = Math.abs(amount).toFixed(2).split('.');
  return `${amount < 0 ? '-' : ''}${symbol || '$'}${grouped(whole)}.${cents}`;
}

/** A whole number (a count) with the same separators as money: '1,234' in English, '1 234' in French. */
export function formatCount(count: number, locale?: string): string {
  const whole = Math.round(count) || 0; // never -0
  if (locale && !english(locale)) return numberFormat(locale, 0).format(whole);
  return `${whole < 0 ? '-' : ''}${grouped(String(Math.abs(whole)))}`;
}

const english = (locale: string) => locale.toLowerCase().startsWith('en');
const grouped = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
/** One formatter per language and number of decimals: building one costs far more than using it. */
const formats = new Map<string, Intl.NumberFormat>();
function numberFormat(locale: string, decimals: number): Intl.NumberFormat {
  const key = `${locale}/${decimals}`;
  let format = formats.get(key);
  if (!format) formats.set(key, (format = new Intl.NumberFormat(locale, { minimumFractionDigits: decimals, maximumFractionDigits: decimals })));
  return format;
}

/** Sums amounts of mixed currencies in one currency; amounts whose currency has no rate are counted apart. */
export function sumConverted(
  items: readonly { amount: unknown; currency: string | null | undefined }[],
  to: string,
  rates: readonly Rate[],
): { total: number; unconverted: number } {
  let total = 0;
  let unconverted = 0;
  for (const item of items) {
    if (hasRate(rates, item.currency)) total += convert(item.amount, item.currency, to, rates);
    else unconverted += 1;
  }
  return { total: Math.round(total * 100) / 100, unconverted };
}

/**
 * Money in the ledger (issue 28): integer minor units, hundredths of the currency's unit, as every
 * amount of the marketplace is shown with 2 decimals (SPEC §9.1). Orders keep decimal amounts; they
 * are converted here, at the ledger's boundary, and never added as floats.
 */
export const MINOR_PER_UNIT = 100;

/** A decimal amount (12.34, '12.34') in minor units (1234); not a number gives 0. */
export function toMinor(amount: unknown): number {
  const value = Number(amount ?? 0);
  if (!Number.isFinite(value)) return 0;
  // toFixed first: 0.29 * 100 is 28.999999999999996.
  return Math.round(Number((value * MINOR_PER_UNIT).toFixed(4)));
}

/** Minor units back to a decimal amount, for display and documents (1234 → 12.34). */
export const fromMinor = (minor: number): number => minor / MINOR_PER_UNIT;

/** Minor units as a plain decimal text with 2 places ('-12.34'), for CSV documents. */
export function minorText(minor: number): string {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(minor));
  return `${sign}${Math.floor(abs / MINOR_PER_UNIT)}.${String(abs % MINOR_PER_UNIT).padStart(2, '0')}`;
}
