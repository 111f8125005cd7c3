/**
 * A small table of a page's own (money, subscriptions), not a list screen's: headers given, cells
 * right-aligned where asked. On a phone its columns would run off-screen (the last ones, often an
 * amount or a button), so each row stands as a block of its cells, one to a line, each after its
 * column's header (the headers' row is hidden); from 600 px up it is a table.
 */
import type { ReactNode } from 'react';
import { Table, TableBody, TableCell, TableContainer, TableHead, TableRow, type SxProps, type Theme } from '@mui/material';
import { usePhone } from '../layout/usePhone';

export interface SmallTableProps {
  /** The table's accessible name. */
  label: string;
  /** Each column's header, in order ('' for a column of buttons). */
  headers: readonly string[];
  /** The columns (by index) whose header and cells are right-aligned. */
  right?: readonly number[];
  /** The rows: a TableRow of TableCells each, in the headers' order. */
  children: ReactNode;
}

export function SmallTable({ label, headers, right = [], children }: SmallTableProps) {
  const phone = usePhone();
  const stacked: SxProps<Theme> = {
    '& thead': { display: 'none' },
    '& tbody tr': { display: 'block', py: 1, borderBottom: 1, borderColor: 'divider' },
    '& tbody td': { display: 'flex', flexDirection: 'row', justifyContent: 'space-between', alignItems: 'center', gap: 2, border: 0, py: 0.25, textAlign: 'right' },
    '& tbody td::before': { color: 'text.secondary', textAlign: 'left' },
    ...Object.fromEntries(headers.map((header, i) => [`& tbody td:nth-of-type(${i + 1})::before`, { content: JSON.stringify(header) }])),
  };
  return (
    <TableContainer sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label={label} sx={phone ? stacked : undefined}>
        <TableHead>
          <TableRow>
            {headers.map((header, i) => (
              <TableCell key={i} align={right.includes(i) ? 'right' : 'left'}>
                {header}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>{children}</TableBody>
      </Table>
    </TableContainer>
  );
}
