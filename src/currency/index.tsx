/**
 * The currency display (SPEC §2.31, §3.22, §9.1, DESIGN D10, D14): the exchange rates, the visitor's
 * location and currency, the viewer's display currency, and the three presentations of an amount:
 * a styled element (<Money>, with the original amount and the rate used one hover away), a plain
 * formatted string and a raw number (useMoney). Every amount on every screen goes through here.
 */
import { cloneElement, createContext, useCallback, useContext, useMemo, useState, type ReactElement, type ReactNode } from 'react';
import { Tooltip } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useLocaleState, useStore, useTranslate } from 'react-admin';
import { convert, formatMoney, hasRate, unitRate, type Rate } from '../../contract';
import { currencyOf, DEFAULT_LOCATION, usableLocation, type VisitorLocation } from '../../contract/location';
import type { MarketplaceDataProvider } from '../../dataProvider';
import { registry } from '../../resources';
import { useConfig } from '../config';

/** The exchange rates, read as the currency display reads them: the list call with no payload (SPEC §7.7). */
export function useRates(): Rate[] {
  const dataProvider = useDataProvider<MarketplaceDataProvider>();
  const { data = [] } = useQuery({
    queryKey: ['exchange-rates'],
    staleTime: 5 * 60_000,
    queryFn: async () => {
      const { HLL } = await dataProvider.call<unknown, Rate[]>(registry.entity('exchanges').list);
      return Array.isArray(HLL) ? HLL : [];
    },
  });
  return data;
}

/**
 * SPEC §7.10: the visitor location from the geolocation service, GET {geoUrl}/{key}/detect. When it
 * fails or names no currency, the default location of SPEC §3.22 (Liberia, USD) is used.
 */
export async function detectLocation(geoUrl: string, geoKey: string, fetchImpl: typeof fetch = fetch): Promise<VisitorLocation> {
  try {
    const response = await fetchImpl(`${geoUrl.replace(/\/$/, '')}/${encodeURIComponent(geoKey)}/detect`, { credentials: 'include' });
    if (!response.ok) throw new Error(`geolocation: HTTP ${response.status}`);
    return usableLocation(await response.json());
  } catch (error) {
    console.warn('Visitor location not found, using the default location.', error);
    return DEFAULT_LOCATION;
  }
}

/** The visitor's location (the default one until the service has answered). */
export function useVisitorLocation(): VisitorLocation {
  const { geoUrl, geoKey } = useConfig();
  const { data } = useQuery({
    queryKey: ['visitor-location', geoUrl, geoKey],
    staleTime: Infinity,
    retry: false,
    queryFn: () => detectLocation(geoUrl, geoKey),
  });
  return data ?? DEFAULT_LOCATION;
}

/** The viewer's choice in the top bar, remembered; '' until they choose. */
export const useChosenCurrency = () => useStore<string>('display.currency', '');

/**
 * The display currency: the viewer's choice when they made one, else the visitor location's currency
 * (SPEC §3.22) when the rates know it, else USD, the source currency.
 */
export function pickDisplayCurrency(chosen: string, detected: string | undefined, rates: readonly Rate[]): string {
  if (chosen && (rates.length === 0 || hasRate(rates, chosen))) return chosen.toUpperCase();
  if (detected && hasRate(rates, detected)) return detected;
  return 'USD';
}

/** The viewer's display currency and the setter that remembers a choice. */
export function useDisplayCurrency(): [string, (code: string) => void] {
  const [chosen, setChosen] = useChosenCurrency();
  const location = useVisitorLocation();
  const rates = useRates();
  return [pickDisplayCurrency(chosen, currencyOf(location), rates), setChosen];
}

const symbolOf = (rates: readonly Rate[], code: string) =>
  rates.find((r) => String(r.code).toLowerCase() === code.toLowerCase())?.currency_symbol ?? null;

/** What the hover over a converted amount says: the original amount and the rate used (DESIGN D14). */
export function rateNote(
  amount: unknown, source: string, target: string, rates: readonly Rate[], translate: (key: string, options?: object) => string, locale?: string,
): string {
  const original = `${formatMoney(Number(amount ?? 0), symbolOf(rates, source), locale)} ${source}`;
  if (!hasRate(rates, source)) return translate('currency.no_rate', { original });
  const rate = unitRate(source, target, rates);
  const english = !locale || locale.startsWith('en');
  const shown = rate === null ? '' : english ? String(Number(rate.toPrecision(4))) : new Intl.NumberFormat(locale, { maximumSignificantDigits: 4 }).format(rate);
  return translate('currency.converted', { original, rate: rate === null ? '' : `1 ${source} = ${shown} ${target}` });
}

/**
 * SPEC §2.31: an amount in its own currency as the viewer sees it: `value` the raw converted number,
 * `text` the formatted string with the display currency's symbol, `note` the original and the rate.
 * Worked out once for every amount below a MoneyProvider (a list draws dozens).
 */
function useMoneyTools() {
  const rates = useRates();
  const [display] = useDisplayCurrency();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const target = hasRate(rates, display) ? display : 'USD';
  const value = useCallback((amount: unknown, currency?: string | null) => convert(amount, currency || 'USD', target, rates), [rates, target]);
  const text = useCallback(
    (amount: unknown, currency?: string | null) => formatMoney(value(amount, currency), symbolOf(rates, target), locale),
    [rates, target, value, locale],
  );
  const note = useCallback(
    (amount: unknown, currency?: string | null) => rateNote(amount, currency || 'USD', target, rates, translate, locale),
    [rates, target, translate, locale],
  );
  /** Any amount already in `code` (no conversion), formatted in the viewer's language. */
  const format = useCallback((amount: number, code?: string | null) => formatMoney(amount, symbolOf(rates, code ?? target), locale), [rates, target, locale]);
  return useMemo(() => ({ currency: target, rates, locale, value, text, note, format }), [target, rates, locale, value, text, note, format]);
}

export type MoneyTools = ReturnType<typeof useMoneyTools>;

const MoneyContext = createContext<MoneyTools | null>(null);

/**
 * The viewer's rates, display currency and language, read once for the screens below it (the
 * signed-in layout, the public pages): each amount then reads them from here instead of subscribing
 * to the rates, the location and the stored choice itself.
 */
export function MoneyProvider({ children }: { children: ReactNode }) {
  return <MoneyContext.Provider value={useMoneyTools()}>{children}</MoneyContext.Provider>;
}

/** The money tools of the nearest MoneyProvider. */
export function useMoney(): MoneyTools {
  const tools = useContext(MoneyContext);
  if (!tools) throw new Error('useMoney needs a MoneyProvider above it (the signed-in layout and the public pages have one)');
  return tools;
}

/**
 * A tooltip put in place at the first pointer or focus on its element: a table of amounts draws plain
 * elements, not one MUI Tooltip each (nor works out each note), and the note shows as a Tooltip would from then on.
 */
function NoteOnHover({ note, children }: { note: () => string; children: ReactElement<{ onMouseEnter?: () => void; onFocus?: () => void }> }) {
  const [open, setOpen] = useState<boolean | null>(null);
  if (open === null) return cloneElement(children, { onMouseEnter: () => setOpen(true), onFocus: () => setOpen(true) });
  return (
    <Tooltip title={note()} describeChild open={open} onOpen={() => setOpen(true)} onClose={() => setOpen(false)}>
      {children}
    </Tooltip>
  );
}

/**
 * An amount in its own currency, shown converted into the viewer's, with the original and the rate on
 * hover; `withCode` names the viewer's currency after it (where no column header names it).
 */
export function Money({ amount, currency, withCode = false }: { amount: unknown; currency?: string | null; withCode?: boolean }) {
  const money = useMoney();
  return (
    <NoteOnHover note={() => money.note(amount, currency)}>
      <span data-money={money.currency} style={withCode ? { whiteSpace: 'nowrap' } : undefined}>
        {money.text(amount, currency)}
        {withCode && ` ${money.currency}`}
      </span>
    </NoteOnHover>
  );
}
