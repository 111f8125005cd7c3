/**
 * The dashboard at / (SPEC §2.8, DESIGN D2, D9): rows of cards with the viewer's numbers, money
 * converted into the viewer's currency (D14), each card linking to its screen; charts of the orders
 * in a date range below, loaded in their own chunk. Numbers come from the server's aggregate
 * endpoint, or the spec's search-dive way from a contract-only server (src/dashboard/stats.ts).
 */
import { memo, useDeferredValue, useState, type ReactNode } from 'react';
import { Alert, Box, Card, CardContent, CircularProgress, Stack, TextField, Typography, type SxProps, type Theme } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { useAuthProvider, useDataProvider, useGetIdentity, useLocaleState, useTranslate } from 'react-admin';
import { formatMoney, hasRate, roleOf, type Rate } from '../../contract';
import { moneyTotal, type DashboardStats, type DashboardViewer, type MoneyCard } from '../../contract/dashboard';
import type { MarketplaceDataProvider } from '../../dataProvider';
import { canAccessToken } from '../../authProvider/access';
import { useDisplayCurrency, useRates } from '../currency';
import { lastDays, statsQuery, type Post, type Range } from '../dashboard/stats';
import { inLanguage, messageOf } from './messages';
import { loadCharts } from '../dashboard/parts';
import { Loaded } from '../screens/loaded';


/**
 * The cards' look, given once to their container: an outlined card (Material UI's Card and
 * CardActionArea, whose hover and keyboard focus shades it), a label and a number. Each card is a few
 * plain elements with these classes: drawn as Material UI components, the nine cards of an admin were
 * some 300 components to draw as the dashboard opened, a phone's longest task after the layout's.
 */
const CARDS_SX: SxProps<Theme> = {
  '& .mc-stat-row': { display: 'flex', flexWrap: 'wrap', gap: 2 },
  '& .mc-stat': {
    flex: '1 1 220px', minWidth: 200, overflow: 'hidden',
    border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: 'background.paper', color: 'text.primary',
  },
  '& .mc-stat-body': { display: 'block', height: '100%', boxSizing: 'border-box', p: 2, color: 'inherit', textDecoration: 'none' },
  '& a.mc-stat-body': { outline: 0, '&:hover': { bgcolor: 'action.hover' }, '&:focus-visible': { bgcolor: 'action.focus' } },
  '& .mc-stat-label': { typography: 'subtitle2', color: 'text.secondary', m: 0 },
  '& .mc-stat-value': { typography: 'h5', fontWeight: 600, mt: 0.5, mb: 0 },
  '& .mc-stat-note': { typography: 'caption', display: 'block', color: 'warning.main' },
};

function StatCard({ label, to, children }: { label: string; to?: string; children: ReactNode }) {
  const content = (
    <>
      <h2 className="mc-stat-label">{label}</h2>
      <p className="mc-stat-value">{children}</p>
    </>
  );
  return (
    <section className="mc-stat" aria-label={label}>
      {to ? (
        <Link className="mc-stat-body" to={to}>
          {content}
        </Link>
      ) : (
        <div className="mc-stat-body">{content}</div>
      )}
    </section>
  );
}

function Row({ children }: { children: ReactNode }) {
  return <div className="mc-stat-row">{children}</div>;
}

/**
 * The cards, drawn again only when their numbers, the viewer or the rates change: not when the
 * charts arrive in their own render below them.
 */
const Cards = memo(function Cards({ stats, viewer, target, symbol, rates }: {
  stats: DashboardStats;
  viewer: DashboardViewer | undefined;
  target: string;
  symbol: string | null | undefined;
  rates: Rate[];
}) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const money = (card: MoneyCard) => {
    const { total, unconverted } = moneyTotal(card.totals, target, rates);
    return (
      <>
        ({card.count}) {formatMoney(total, symbol, locale)}
        {unconverted > 0 && (
          <span className="mc-stat-note">{translate('dashboard.unconverted', { smart_count: unconverted })}</span>
        )}
      </>
    );
  };
  const role = roleOf(viewer?.abilities);
  const admin = role === 'admin';
  const link = (token: string, path: string) => (viewer && canAccessToken(viewer, token) ? path : undefined);
  return (
    <Stack spacing={2} sx={CARDS_SX}>
      <Row>
        <StatCard label={translate('dashboard.shops')} to={admin ? link('shops', '/shops') : link('my-shops', '/my-shops')}>
          {stats.shops}
        </StatCard>
        <StatCard label={translate('dashboard.products')} to={admin ? link('products', '/products') : link('my-products', '/my-products')}>
          {stats.products}
        </StatCard>
        {stats.orders && (
          <StatCard label={translate('dashboard.orders')} to={admin ? link('orders', '/orders') : role === 'buyer' ? link('my-purchases', '/my-purchases') : link('my-orders', '/my-orders')}>
            {money(stats.orders)}
          </StatCard>
        )}
      </Row>
      {stats.money && (
        <Row>
          <StatCard label={translate('dashboard.commissions')} to={link('subscriptions', '/subscriptions')}>
            {money(stats.money.commission)}
          </StatCard>
          <StatCard label={translate('dashboard.premier')} to={link('subscriptions', '/subscriptions')}>
            {money(stats.money.premier)}
          </StatCard>
          <StatCard label={translate('dashboard.adverts')} to={link('subscriptions', '/subscriptions')}>
            {money(stats.money.advert)}
          </StatCard>
        </Row>
      )}
      {stats.people && (
        <Row>
          <StatCard label={translate('dashboard.admins')} to={link('users', '/users')}>
            {stats.people.admins}
          </StatCard>
          <StatCard label={translate('dashboard.sellers')} to={link('users', '/users')}>
            {stats.people.sellers}
          </StatCard>
          <StatCard label={translate('dashboard.buyers')} to={link('users', '/users')}>
            {stats.people.buyers}
          </StatCard>
        </Row>
      )}
    </Stack>
  );
});

export default function DashboardPage() {
  const translate = useTranslate();
  const dataProvider = useDataProvider<MarketplaceDataProvider>();
  const { identity } = useGetIdentity();
  const rates = useRates();
  const [display] = useDisplayCurrency();
  const authProvider = useAuthProvider();
  const [range, setRange] = useState<Range>(lastDays);
  const viewer = identity as (DashboardViewer & { fullName?: string }) | undefined;

  const { data, error, isPending } = useQuery({
    ...statsQuery(dataProvider.call as Post, () => authProvider!.getIdentity!() as Promise<DashboardViewer>, range),
    placeholderData: (previous) => previous,
  });

  const target = hasRate(rates, display) ? display : 'USD';
  const symbol = rates.find((r) => r.code.toLowerCase() === target.toLowerCase())?.currency_symbol;
  const stats = data?.stats;
  // The cards show first; the charts (the heavier drawing) follow in a render of their own.
  const charts = useDeferredValue(stats?.charts);

  return (
    <Box sx={{ py: 3, px: { xs: 1, sm: 2 } }}>
      <Typography variant="h4" component="h1" sx={{ fontWeight: 600, mb: 1 }}>
        {translate('dashboard.title')}
      </Typography>
      {viewer?.fullName && (
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {translate('dashboard.welcome', { name: viewer.fullName })}
        </Typography>
      )}
      {error ? (
        <Alert severity="error">{inLanguage(translate, messageOf(error, translate('management.failed')))}</Alert>
      ) : isPending || !stats ? (
        <CircularProgress aria-label={translate('dashboard.loading')} />
      ) : (
        <Stack spacing={2}>
          <Cards stats={stats} viewer={viewer} target={target} symbol={symbol} rates={rates} />
          {stats.charts && (
            <Card variant="outlined">
              <CardContent>
                <Stack direction="row" spacing={2} useFlexGap flexWrap="wrap" alignItems="center" sx={{ mb: 2 }}>
                  <Typography variant="h6" component="h2" sx={{ flexGrow: 1 }}>
                    {translate('dashboard.charts.title')}
                  </Typography>
                  <TextField
                    type="date"
                    size="small"
                    fullWidth={false}
                    sx={{ width: 170 }}
                    label={translate('dashboard.charts.from')}
                    value={range.from}
                    slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: range.to } }}
                    onChange={(e) => e.target.value && e.target.value <= range.to && setRange({ ...range, from: e.target.value })}
                  />
                  <TextField
                    type="date"
                    size="small"
                    fullWidth={false}
                    sx={{ width: 170 }}
                    label={translate('dashboard.charts.to')}
                    value={range.to}
                    slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: range.from } }}
                    onChange={(e) => e.target.value && e.target.value >= range.from && setRange({ ...range, to: e.target.value })}
                  />
                </Stack>
                {charts ? (
                  <Loaded loader={loadCharts} props={{ charts, currency: target, symbol, rates }} fallback={<CircularProgress size={24} />} />
                ) : (
                  <CircularProgress size={24} />
                )}
              </CardContent>
            </Card>
          )}
        </Stack>
      )}
    </Box>
  );
}
