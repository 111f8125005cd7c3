/** What the money pages share: amounts of the ledger (minor units) in their own currency, and tables. */
import { useState, type ReactNode } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ListContextProvider, useDataProvider, useLocaleState, useTranslate, type ListControllerResult } from 'react-admin';
import { fromMinor, type Paginated } from '../../contract';
import type { MarketplaceDataProvider } from '../../dataProvider';
import { Pager } from '../../src/screens/ListParts';
import { useRates } from '../../src/currency';
import { SmallTable } from '../../src/widgets/SmallTable';
import { ownAmount } from '../orders/OrderDetails';

export const K = 'resources.payouts';

/** Rows a page of the money pages' paged tables shows (balances, payouts, postings). */
export const PER_PAGE = 25;

/** Minor units as '$1,234.56 USD' in the viewer's language (never converted: a balance keeps its currency). */
export function useLedgerAmount() {
  const rates = useRates();
  const [locale] = useLocaleState();
  return (minor: number, currency: string) => ownAmount(fromMinor(minor), currency, rates, locale);
}

/** A small table (SmallTable: stacked on a phone) with headers from `resources.payouts.fields`; cells right-aligned where asked. */
export function LedgerTable({ label, columns, right = [], children }: { label: string; columns: readonly string[]; right?: readonly string[]; children: ReactNode }) {
  const translate = useTranslate();
  return (
    <SmallTable label={label} headers={columns.map((c) => (c ? translate(`${K}.fields.${c}`) : ''))} right={columns.flatMap((c, i) => (right.includes(c) ? [i] : []))}>
      {children}
    </SmallTable>
  );
}

/** One page of a paginated ledger call ({page, per_page} and `body`), the page kept while the next one loads. */
export function usePagedCall<T>(key: string, path: string, perPage: number, body: Record<string, unknown> = {}) {
  const dataProvider = useDataProvider<MarketplaceDataProvider>();
  const [page, setPage] = useState(1);
  const query = useQuery({
    queryKey: ['ledger', key, page, perPage, body],
    queryFn: async () => (await dataProvider.call<unknown, Paginated<T>>(path, { ...body, page, per_page: perPage })).HLL,
    placeholderData: keepPreviousData,
  });
  return { ...query, rows: query.data?.data ?? [], page, setPage, perPage };
}

/** The list screens' pages ('Showing 1 to 10 of 12 results' and the page numbers) under a paged table. */
export function LedgerPager({ paged }: { paged: ReturnType<typeof usePagedCall> }) {
  const value = { page: paged.page, perPage: paged.perPage, total: paged.data?.total ?? 0, setPage: paged.setPage, isPending: paged.isPending };
  return (
    <ListContextProvider value={value as unknown as ListControllerResult}>
      <Pager />
    </ListContextProvider>
  );
}
