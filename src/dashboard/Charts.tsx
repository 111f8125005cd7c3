/**
 * The dashboard's charts (beyond the spec), in their own chunk: orders and revenue per day, orders by
 * status, the top 5 shops by revenue. Only the chart.js parts used here are registered, so the rest
 * of chart.js is left out of the bundle. Revenue is converted into the viewer's currency (D14).
 */
import { Box, Stack, Typography, useTheme } from '@mui/material';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { ArcElement, BarController, BarElement, CategoryScale, Chart, DoughnutController, Legend, LineController, LineElement, LinearScale, PointElement, Tooltip } from 'chart.js';
import { Bar, Doughnut } from 'react-chartjs-2';
import { eachDayOfInterval, format, parseISO } from 'date-fns';
import { useLocaleState, useTranslate } from 'react-admin';
import { dateLocale, dayMonthPattern } from '../../i18n/format';
import { formatCount, formatMoney, type Rate } from '../../contract';
import { moneyTotal, type DashboardCharts } from '../../contract/dashboard';

Chart.register(BarController, BarElement, LineController, LineElement, PointElement, DoughnutController, ArcElement, CategoryScale, LinearScale, Tooltip, Legend);

const STATUS_COLOURS = ['#1976d2', '#0288d1', '#7b1fa2', '#f57c00', '#2e7d32', '#d32f2f'];
/** The same hues, lighter, for the dark theme. */
const STATUS_COLOURS_DARK = ['#64b5f6', '#4fc3f7', '#ba68c8', '#ffb74d', '#81c784', '#e57373'];

export interface ChartsProps {
  charts: DashboardCharts;
  currency: string;
  symbol?: string | null;
  rates: readonly Rate[];
}

/**
 * A chart under its subtitle. chart.js sizes its canvas to its parent (maintainAspectRatio: false), so
 * the canvas gets a relatively positioned box of a fixed height to itself, as chart.js asks: sharing a
 * box with the subtitle, in a column that grows with its content, made the chart grow without end.
 *
 * The chart is drawn once its box comes within half a screen of the viewport, and then `hops` tasks
 * later. Creating a chart lays it out and draws it at once, 70-260 ms of a phone's slowed CPU each:
 * on a phone the charts sit below the cards, a screen and a half down, and were drawn as the dashboard
 * opened, where nobody saw them; three created in one commit were one task of over 400 ms. The box
 * keeps its height meanwhile, so nothing moves, and the charts drawn before are not drawn again (this
 * state is the box's own).
 */
function ChartBox({ title, height, hops, children }: { title: string; height: number; hops: number; children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  // Without an IntersectionObserver (not a browser), drawn at once.
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  const [left, setLeft] = useState(hops);
  useEffect(() => {
    const element = box.current;
    if (near || !element) return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setNear(true), { rootMargin: '50% 0px' });
    observer.observe(element);
    return () => observer.disconnect();
  }, [near]);
  useEffect(() => {
    if (!near || left === 0) return;
    const next = setTimeout(() => setLeft(left - 1), 0);
    return () => clearTimeout(next);
  }, [near, left]);
  return (
    <Box sx={{ flex: 1, minWidth: 0 }}>
      <Typography variant="subtitle2" component="h3">{title}</Typography>
      <Box ref={box} sx={{ position: 'relative', height }}>{near && left === 0 ? children : null}</Box>
    </Box>
  );
}

export default function Charts({ charts, currency, symbol, rates }: ChartsProps) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const days = eachDayOfInterval({ start: parseISO(charts.from), end: parseISO(charts.to) }).map((d) => format(d, 'yyyy-MM-dd'));
  const counts = days.map((d) => charts.perDay.filter((p) => p.day === d).reduce((n, p) => n + p.count, 0));
  const revenue = days.map((d) => moneyTotal(charts.perDay.filter((p) => p.day === d), currency, rates).total);
  const shops = charts.topShops.map((s) => ({ name: s.name, total: moneyTotal(s.totals, currency, rates).total }));
  const money = (value: number | string) => formatMoney(Number(value), symbol, locale);
  // Counts are written by the console too: chart.js's own tick labels build an Intl.NumberFormat,
  // whose first construction cost a phone's slowed CPU over 100 ms.
  const count = (value: number | string) => formatCount(Number(value), locale);
  // Drawn at once, not animated: every frame of the entrance animation laid the three charts out
  // again, a second of a phone's main thread while the dashboard opened.
  const base = { locale, maintainAspectRatio: false, animation: false } as const;
  // Text, grid lines and series follow the light or dark theme (chart.js draws on a canvas, outside MUI).
  const { palette } = useTheme();
  const dark = palette.mode === 'dark';
  const text = palette.text.secondary;
  const grid = palette.divider;
  const axis = { ticks: { color: text }, grid: { color: grid } };
  const legend = { labels: { color: text } };
  const statusColours = dark ? STATUS_COLOURS_DARK : STATUS_COLOURS;
  const revenueColour = dark ? '#81c784' : '#2e7d32';

  return (
    <Stack spacing={3}>
      <ChartBox title={translate('dashboard.charts.per_day')} height={260} hops={0}>
        <Bar
          aria-label={translate('dashboard.charts.per_day')}
          options={{
            ...base,
            plugins: { legend },
            scales: {
              x: axis,
              y: { beginAtZero: true, position: 'left', ticks: { precision: 0, callback: count, color: text }, grid: { color: grid } },
              revenue: { beginAtZero: true, position: 'right', grid: { drawOnChartArea: false, color: grid }, ticks: { callback: money, color: text } },
            },
          }}
          data={{
            labels: days.map((d) => format(parseISO(d), dayMonthPattern, { locale: dateLocale(locale) })),
            datasets: [
              { type: 'bar' as const, label: translate('dashboard.charts.orders'), data: counts, backgroundColor: dark ? '#5c6bc0' : '#90caf9', yAxisID: 'y' },
              {
                type: 'line' as const, label: translate('dashboard.charts.revenue', { currency }), data: revenue,
                borderColor: revenueColour, backgroundColor: revenueColour, yAxisID: 'revenue', tension: 0.2,
              } as never,
            ],
          }}
        />
      </ChartBox>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={3}>
        <ChartBox title={translate('dashboard.charts.by_status')} height={240} hops={1}>
          <Doughnut
            aria-label={translate('dashboard.charts.by_status')}
            options={{ ...base, plugins: { legend: { position: 'right', ...legend } } }}
            data={{
              labels: charts.byStatus.map((s) => translate(`resources.orders.choices.${s.status}`, { _: String(s.status) })),
              datasets: [{ data: charts.byStatus.map((s) => s.count), backgroundColor: charts.byStatus.map((s) => statusColours[(s.status - 1) % 6] ?? '#9e9e9e'), borderColor: palette.background.paper }],
            }}
          />
        </ChartBox>
        <ChartBox title={translate('dashboard.charts.top_shops')} height={240} hops={2}>
          <Bar
            aria-label={translate('dashboard.charts.top_shops')}
            options={{
              ...base, indexAxis: 'y', plugins: { legend: { display: false } },
              scales: { x: { beginAtZero: true, ticks: { callback: money, color: text }, grid: { color: grid } }, y: axis },
            }}
            data={{
              labels: shops.map((s) => s.name),
              datasets: [{ label: translate('dashboard.charts.revenue', { currency }), data: shops.map((s) => s.total), backgroundColor: '#ffb74d' }],
            }}
          />
        </ChartBox>
      </Stack>
    </Stack>
  );
}
