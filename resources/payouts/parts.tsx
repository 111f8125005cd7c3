/** What the money pages share: amounts of the ledger (minor units) in their own currency, and tables. */
import { useState, type ReactNode } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Table, TableBody, TableCell, TableContainer, TableHead, TableRow, type SxProps, type Theme } from '@mui/material';
import { ListContextProvider, useDataProvider, useLocaleState, useTranslate, type ListControllerResult } from 'react-admin';
import { fromMinor, type Paginated } from '../../contract';
import type { MarketplaceDataProvider } from '../../dataProvider';
import { Pager } from '../../src/screens/ListParts';
import { useRates } from '../../src/currency';
import { usePhone } from '../../src/layout/usePhone';
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

/**
 * A small table with headers from `resources.payouts.fields`; cells right-aligned where asked. On a
 * phone its columns would run off-screen (a balance's Pay out button last), so each row stands as a
 * block of its cells, one to a line, each after its column's header (the headers' row is hidden).
 */
export function LedgerTable({ label, columns, right = [], children }: { label: string; columns: readonly string[]; right?: readonly string[]; children: ReactNode }) {
  const translate = useTranslate();
  const phone = usePhone();
  const header = (c: string) => (c ? translate(`${K}.fields.${c}`) : '');
  const stacked: SxProps<Theme> = {
    '& thead': { display: 'none' },
    '& tbody tr': { display: 'block', py: 1, borderBottom: 1, borderColor: 'divider' },
    '& tbody td': { display: 'flex', flexDirection: 'row', justifyContent: 'space-between', alignItems: 'center', gap: 2, border: 0, py: 0.25, textAlign: 'right' },
    '& tbody td::before': { color: 'text.secondary', textAlign: 'left' },
    ...Object.fromEntries(columns.map((c, i) => [`& tbody td:nth-of-type(${i + 1})::before`, { content: JSON.stringify(header(c)) }])),
  };
  return (
    <TableContainer sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label={label} sx={phone ? stacked : undefined}>
        <TableHead>
          <TableRow>
            {columns.map((c) => (
              <TableCell key={c} align={right.includes(c) ? 'right' : 'left'}>
                {header(c)}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>{children}</TableBody>
      </Table>
    </TableContainer>
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
