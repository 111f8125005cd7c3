/**
 * The dashboard's charts (beyond the spec), in their own chunk: orders and revenue per day, orders by
 * status, the top 5 shops by revenue. Only the chart.js parts used here are registered, so the rest
 * of chart.js is left out of the bundle. Revenue is converted into the viewer's currency (D14).
 */
import { Box, Stack, Typography } from '@mui/material';
import { ArcElement, BarController, BarElement, CategoryScale, Chart, DoughnutController, Legend, LineController, LineElement, LinearScale, PointElement, Tooltip } from 'chart.js';
import { Bar, Doughnut } from 'react-chartjs-2';
import { eachDayOfInterval, format, parseISO } from 'date-fns';
import { useLocaleState, useTranslate } from 'react-admin';
import { dateLocale, dayMonthPattern } from '../../i18n/format';
import { formatMoney, type Rate } from '../../contract';
import { moneyTotal, type DashboardCharts } from '../../contract/dashboard';

Chart.register(BarController, BarElement, LineController, LineElement, PointElement, DoughnutController, ArcElement, CategoryScale, LinearScale, Tooltip, Legend);

const STATUS_COLOURS = ['#1976d2', '#0288d1', '#7b1fa2', '#f57c00', '#2e7d32', '#d32f2f'];

export interface ChartsProps {
  charts: DashboardCharts;
  currency: string;
  symbol?: string | null;
  rates: readonly Rate[];
}

export default function Charts({ charts, currency, symbol, rates }: ChartsProps) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const days = eachDayOfInterval({ start: parseISO(charts.from), end: parseISO(charts.to) }).map((d) => format(d, 'yyyy-MM-dd'));
  const counts = days.map((d) => charts.perDay.filter((p) => p.day === d).reduce((n, p) => n + p.count, 0));
  const revenue = days.map((d) => moneyTotal(charts.perDay.filter((p) => p.day === d), currency, rates).total);
  const shops = charts.topShops.map((s) => ({ name: s.name, total: moneyTotal(s.totals, currency, rates).total }));
  const money = (value: number | string) => formatMoney(Number(value), symbol, locale);

  return (
    <Stack spacing={3}>
      <Box sx={{ height: 280 }} role="img" aria-label={translate('dashboard.charts.per_day')}>
        <Typography variant="subtitle2">{translate('dashboard.charts.per_day')}</Typography>
        <Bar
          options={{
            locale,
            maintainAspectRatio: false,
            scales: {
              y: { beginAtZero: true, position: 'left', ticks: { precision: 0 } },
              revenue: { beginAtZero: true, position: 'right', grid: { drawOnChartArea: false }, ticks: { callback: money } },
            },
          }}
          data={{
            labels: days.map((d) => format(parseISO(d), dayMonthPattern, { locale: dateLocale(locale) })),
            datasets: [
              { type: 'bar' as const, label: translate('dashboard.charts.orders'), data: counts, backgroundColor: '#90caf9', yAxisID: 'y' },
              {
                type: 'line' as const, label: translate('dashboard.charts.revenue', { currency }), data: revenue,
                borderColor: '#2e7d32', backgroundColor: '#2e7d32', yAxisID: 'revenue', tension: 0.2,
              } as never,
            ],
          }}
        />
      </Box>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={3}>
        <Box sx={{ flex: 1, height: 260 }} role="img" aria-label={translate('dashboard.charts.by_status')}>
          <Typography variant="subtitle2">{translate('dashboard.charts.by_status')}</Typography>
          <Doughnut
            options={{ locale, maintainAspectRatio: false, plugins: { legend: { position: 'right' } } }}
            data={{
              labels: charts.byStatus.map((s) => translate(`resources.orders.choices.${s.status}`, { _: String(s.status) })),
              datasets: [{ data: charts.byStatus.map((s) => s.count), backgroundColor: charts.byStatus.map((s) => STATUS_COLOURS[(s.status - 1) % 6] ?? '#9e9e9e') }],
            }}
          />
        </Box>
        <Box sx={{ flex: 1, height: 260 }} role="img" aria-label={translate('dashboard.charts.top_shops')}>
          <Typography variant="subtitle2">{translate('dashboard.charts.top_shops')}</Typography>
          <Bar
            options={{ locale, maintainAspectRatio: false, indexAxis: 'y', plugins: { legend: { display: false } }, scales: { x: { beginAtZero: true, ticks: { callback: money } } } }}
            data={{
              labels: shops.map((s) => s.name),
              datasets: [{ label: translate('dashboard.charts.revenue', { currency }), data: shops.map((s) => s.total), backgroundColor: '#ffb74d' }],
            }}
          />
        </Box>
      </Stack>
    </Stack>
  );
}
