/**
 * The commissions report (admins holding 'payouts'): what the marketplace earned, net of refunds,
 * per month, category and shop, with a chart per month of one currency at a time (currencies are
 * never added together, D14).
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Box, CircularProgress, MenuItem, Stack, TableCell, TableRow, TextField, Typography, useTheme } from '@mui/material';
import { BarController, BarElement, CategoryScale, Chart, LinearScale, Tooltip } from 'chart.js';
import { Bar } from 'react-chartjs-2';
import { Title, useDataProvider, useLocaleState, useTranslate } from 'react-admin';
import { LEDGER_PATHS, fromMinor, type CommissionRow } from '../../contract';
import type { MarketplaceDataProvider } from '../../dataProvider';
import { messageOf } from '../../src/pages/messages';
import { K, LedgerTable, useLedgerAmount } from './parts';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip);

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export default function CommissionsPage() {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { palette } = useTheme();
  const dataProvider = useDataProvider<MarketplaceDataProvider>();
  const amount = useLedgerAmount();
  const [from, setFrom] = useState(() => `${day(Date.now() - 365 * 24 * 3600_000).slice(0, 7)}-01`);
  const [to, setTo] = useState(() => day(Date.now()));
  const report = useQuery({
    queryKey: ['ledger', 'commissions', from, to],
    queryFn: async () => (await dataProvider.call<unknown, CommissionRow[]>(LEDGER_PATHS.commissions, { from, to })).HLL ?? [],
  });
  const rows = report.data ?? [];
  const currencies = [...new Set(rows.map((r) => r.currency))].sort();
  const [picked, setCurrency] = useState('');
  const currency = currencies.includes(picked) ? picked : (currencies[0] ?? '');
  const months = [...new Set(rows.map((r) => r.month))].sort();
  const perMonth = months.map((m) => fromMinor(rows.filter((r) => r.month === m && r.currency === currency).reduce((sum, r) => sum + r.amount, 0)));
  const r = (key: string, options?: object) => translate(`${K}.report.${key}`, options);
  return (
    <Stack spacing={3} sx={{ p: { xs: 1, sm: 2 } }}>
      <Title title={r('title')} />
      <Box>
        <Typography variant="h5" component="h1">{r('title')}</Typography>
        <Typography variant="body2" color="text.secondary">{r('intro')}</Typography>
      </Box>
      <Stack direction="row" sx={{ gap: 2, flexWrap: 'wrap' }}>
        <TextField size="small" type="date" label={r('from')} value={from} onChange={(e) => setFrom(e.target.value)} slotProps={{ inputLabel: { shrink: true } }} />
        <TextField size="small" type="date" label={r('to')} value={to} onChange={(e) => setTo(e.target.value)} slotProps={{ inputLabel: { shrink: true } }} />
        {currencies.length > 1 && (
          <TextField select size="small" label={translate(`${K}.fields.currency`)} value={currency} onChange={(e) => setCurrency(e.target.value)} sx={{ minWidth: 120 }}>
            {currencies.map((c) => <MenuItem key={c} value={c}>{c}</MenuItem>)}
          </TextField>
        )}
      </Stack>
      {report.isPending ? (
        <CircularProgress aria-label={translate('management.loading')} />
      ) : report.error ? (
        <Alert severity="error">{messageOf(report.error, translate('management.failed'))}</Alert>
      ) : rows.length ? (
        <>
          <Box>
            <Typography variant="subtitle2" component="h2">{r('chart', { currency })}</Typography>
            <Box sx={{ position: 'relative', height: 260 }}>
              <Bar
                aria-label={r('chart', { currency })}
                options={{
                  locale, maintainAspectRatio: false, plugins: { legend: { display: false } },
                  scales: {
                    x: { ticks: { color: palette.text.secondary }, grid: { color: palette.divider } },
                    y: { beginAtZero: true, ticks: { color: palette.text.secondary }, grid: { color: palette.divider } },
                  },
                }}
                data={{ labels: months, datasets: [{ label: currency, data: perMonth, backgroundColor: palette.mode === 'dark' ? '#81c784' : '#2e7d32' }] }}
              />
            </Box>
          </Box>
          <LedgerTable label={r('title')} columns={['month', 'category', 'shop', 'currency', 'amount']} right={['amount']}>
            {rows.map((row) => (
              <TableRow key={`${row.month}-${row.shop_id}-${row.currency}`}>
                <TableCell>{row.month}</TableCell>
                <TableCell>{row.category_name ?? r('no_category')}</TableCell>
                <TableCell>{row.shop_name ?? `#${row.shop_id}`}</TableCell>
                <TableCell>{row.currency}</TableCell>
                <TableCell align="right">{amount(row.amount, row.currency)}</TableCell>
              </TableRow>
            ))}
          </LedgerTable>
        </>
      ) : (
        <Typography>{r('none')}</Typography>
      )}
    </Stack>
  );
}
