/** What the money pages share: amounts of the ledger (minor units) in their own currency, and tables. */
import type { ReactNode } from 'react';
import { Table, TableBody, TableCell, TableContainer, TableHead, TableRow } from '@mui/material';
import { useLocaleState, useTranslate } from 'react-admin';
import { fromMinor } from '../../contract';
import { useRates } from '../../src/currency';
import { ownAmount } from '../orders/OrderDetails';

export const K = 'resources.payouts';

/** Minor units as '$1,234.56 USD' in the viewer's language (never converted: a balance keeps its currency). */
export function useLedgerAmount() {
  const rates = useRates();
  const [locale] = useLocaleState();
  return (minor: number, currency: string) => ownAmount(fromMinor(minor), currency, rates, locale);
}

/** A small table with headers from `resources.payouts.fields`; cells right-aligned where asked. */
export function LedgerTable({ label, columns, right = [], children }: { label: string; columns: readonly string[]; right?: readonly string[]; children: ReactNode }) {
  const translate = useTranslate();
  return (
    <TableContainer sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label={label}>
        <TableHead>
          <TableRow>
            {columns.map((c) => (
              <TableCell key={c} align={right.includes(c) ? 'right' : 'left'}>
                {c ? translate(`${K}.fields.${c}`) : ''}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>{children}</TableBody>
      </Table>
    </TableContainer>
  );
}
