/**
 * The currency display (SPEC §2.31, §9.1, DESIGN D14): the exchange rates, the viewer's display
 * currency, and <Money>, which shows an amount converted into it with the original amount and the
 * rate used one hover away. Every amount on every screen goes through here.
 */
import { Tooltip } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useStore, useTranslate } from 'react-admin';
import { convert, formatMoney, hasRate, unitRate, type Rate } from '../../contract';
import type { MarketplaceDataProvider } from '../../dataProvider';
import { registry } from '../../resources';

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

/** The viewer's display currency (remembered; USD, the source currency, until chosen). */
export function useDisplayCurrency(): [string, (code: string) => void] {
  const [code, setCode] = useStore<string>('display.currency', 'USD');
  return [code, setCode];
}

/** An amount in its own currency, shown converted into the viewer's, with the original and the rate on hover. */
export function Money({ amount, currency }: { amount: unknown; currency?: string | null }) {
  const translate = useTranslate();
  const rates = useRates();
  const [display] = useDisplayCurrency();
  const source = currency || 'USD';
  const target = hasRate(rates, display) ? display : 'USD';
  const symbol = rates.find((r) => r.code.toLowerCase() === target.toLowerCase())?.currency_symbol;
  const shown = formatMoney(convert(amount, source, target, rates), symbol);
  const rate = unitRate(source, target, rates);
  const original = `${formatMoney(Number(amount ?? 0), rates.find((r) => r.code.toLowerCase() === source.toLowerCase())?.currency_symbol)} ${source}`;
  const title = hasRate(rates, source)
    ? translate('currency.converted', { original, rate: rate === null ? '' : `1 ${source} = ${rate.toPrecision(4)} ${target}` })
    : translate('currency.no_rate', { original });
  return (
    <Tooltip title={title}>
      <span>{shown}</span>
    </Tooltip>
  );
}
