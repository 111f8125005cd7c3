/**
 * Packages (the named route /packages): the active subscription plans as cards; a seller picks one
 * of their shops and subscribes it. The subscription waits for an administrator's activation (there
 * is no payment gateway); the seller's subscriptions and their state are listed below.
 */
import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert, Box, Button, Card, CardActions, CardContent, Chip, CircularProgress, MenuItem, Stack, TableCell, TableRow, TextField, Typography,
} from '@mui/material';
import { Confirm, Title, useDataProvider, useGetIdentity, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { localDate } from '../../i18n/format';
import { PATHS, isOn } from '../../contract';
import type { MarketplaceDataProvider } from '../../dataProvider';
import { Money, useMoney } from '../../src/currency';
import { SmallTable } from '../../src/widgets/SmallTable';
import { inLanguage, messageOf } from '../../src/pages/messages';

interface Plan {
  id: number;
  type: string;
  nature: string;
  period: string;
  unit: string;
  total_clicks: number | null;
  amount: number;
  currency: string;
}
interface Subscription extends Plan {
  shop_id: number;
  shop_name: string;
  start_date: string;
  end_date: string;
  is_active: unknown;
  payment_gateway?: string | null;
}
interface Shop {
  id: number;
  name: string;
  /** A deactivated shop cannot subscribe (the server refuses it). */
  active: boolean;
}

const K = 'resources.subscriptionPlans.packages';

/** A subscription's state as its seller reads it. */
export function stateOf(subscription: Pick<Subscription, 'is_active' | 'end_date' | 'payment_gateway'>, today: string) {
  if (isOn(subscription.is_active)) return subscription.end_date && subscription.end_date < today ? 'ended' : 'active';
  return subscription.payment_gateway === 'none' ? 'waiting' : 'inactive';
}

function PlanCard({ plan, shops }: { plan: Plan; shops: Shop[] }) {
  const translate = useTranslate();
  const notify = useNotify();
  const client = useQueryClient();
  const dataProvider = useDataProvider<MarketplaceDataProvider>();
  const money = useMoney();
  const [picked, setShop] = useState<number | ''>('');
  const [confirming, setConfirming] = useState(false);
  // A seller with one active shop has it chosen already (even when the shops arrive after the plans).
  const open = shops.filter((s) => s.active);
  const shop = picked !== '' ? picked : open.length === 1 ? open[0].id : '';
  const subscribe = useMutation({
    mutationFn: () => dataProvider.call('/package/subscribe', { plan_id: plan.id, shop_id: shop }),
    onSuccess: ({ query }) => {
      notify(query, { type: 'success' });
      void client.invalidateQueries({ queryKey: ['packages'] });
    },
    onError: (error) => notify(messageOf(error, translate('management.failed')), { type: 'error' }),
  });
  const title = `${plan.type} · ${plan.nature}`;
  const every = translate(`${K}.every`, { unit: plan.unit, period: translate(`${K}.periods.${plan.period}`, { _: plan.period, smart_count: Number(plan.unit) || 1 }) });
  return (
    <Card variant="outlined" component="article" aria-label={title} sx={{ display: 'flex', flexDirection: 'column' }}>
      <CardContent sx={{ flexGrow: 1 }}>
        <Typography variant="overline" color="text.secondary">
          {plan.nature}
        </Typography>
        <Typography variant="h6" component="h2" sx={{ textTransform: 'capitalize' }}>
          {plan.type}
        </Typography>
        <Typography variant="h4" component="p" sx={{ my: 1 }}>
          <Money amount={plan.amount} currency={plan.currency} />
        </Typography>
        <Typography variant="body2">{every}</Typography>
        {plan.total_clicks ? <Typography variant="body2">{translate(`${K}.clicks`, { count: plan.total_clicks })}</Typography> : null}
      </CardContent>
      <CardActions sx={{ flexDirection: 'column', alignItems: 'stretch', gap: 1, p: 2 }}>
        <TextField
          select
          size="small"
          label={translate(`${K}.shop`)}
          value={shop}
          onChange={(e) => setShop(Number(e.target.value))}
          disabled={shops.length === 0}
          helperText={shops.length === 0 ? translate(`${K}.no_shop`) : undefined}
        >
          {shops.map((s) => (
            <MenuItem key={s.id} value={s.id} disabled={!s.active}>
              {s.active ? s.name : translate(`${K}.deactivated`, { name: s.name })}
            </MenuItem>
          ))}
        </TextField>
        <Button variant="contained" disabled={shop === '' || subscribe.isPending} onClick={() => setConfirming(true)}>
          {translate(`${K}.subscribe`)}
        </Button>
      </CardActions>
      <Confirm
        isOpen={confirming}
        title={translate(`${K}.confirm_title`)}
        content={translate(`${K}.confirm`, {
          shop: shops.find((s) => s.id === shop)?.name ?? '', plan: title, price: money.format(Number(plan.amount), plan.currency), every: every.toLowerCase(),
        })}
        confirm={translate(`${K}.subscribe`)}
        onConfirm={() => {
          setConfirming(false);
          subscribe.mutate();
        }}
        onClose={() => setConfirming(false)}
      />
    </Card>
  );
}

const STATE_COLOR = { active: 'success', waiting: 'warning', inactive: 'default', ended: 'default' } as const;

export default function PackagesPage() {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const dataProvider = useDataProvider<MarketplaceDataProvider>();
  const { identity } = useGetIdentity();
  const packages = useQuery({
    queryKey: ['packages'],
    queryFn: async () => (await dataProvider.call<unknown, { plans: Plan[]; subscriptions: Subscription[] }>('/packages', {})).HLL,
    retry: false,
  });
  const shops = useQuery({
    queryKey: ['shopz', identity?.id],
    enabled: identity?.id !== undefined,
    queryFn: async () => {
      const { HLL } = await dataProvider.call<unknown, Shop[]>(PATHS.ownerShops, { owner_id: identity!.id });
      return Array.isArray(HLL) ? HLL.map(({ id, name, is_active }: Shop & { is_active?: unknown }) => ({ id, name, active: isOn(is_active) })) : [];
    },
  });
  const today = new Date().toISOString().slice(0, 10);
  return (
    <Stack spacing={3} sx={{ p: { xs: 1, sm: 2 } }}>
      <Title title={translate('menu.packages')} />
      <Box>
        <Typography variant="h5" component="h1">
          {translate(`${K}.title`)}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {translate(`${K}.intro`)}
        </Typography>
      </Box>
      {packages.isPending ? (
        <CircularProgress aria-label={translate('management.loading')} />
      ) : packages.error ? (
        <Alert severity="error">{inLanguage(translate, messageOf(packages.error, translate('management.failed')))}</Alert>
      ) : (
        <>
          {packages.data?.plans.length ? (
            <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))' }}>
              {packages.data.plans.map((plan) => (
                <PlanCard key={plan.id} plan={plan} shops={shops.data ?? []} />
              ))}
            </Box>
          ) : (
            <Typography>{translate(`${K}.no_plans`)}</Typography>
          )}
          <Box component="section" aria-labelledby="my-subscriptions">
            <Typography id="my-subscriptions" variant="h6" component="h2" sx={{ mb: 1 }}>
              {translate(`${K}.mine`)}
            </Typography>
            {packages.data?.subscriptions.length ? (
              <SmallTable label={translate(`${K}.mine`)} headers={['shop', 'package', 'amount', 'from', 'to', 'state'].map((c) => translate(`${K}.columns.${c}`))}>
                {packages.data.subscriptions.map((s) => {
                  const state = stateOf(s, today);
                  return (
                    <TableRow key={s.id}>
                      <TableCell>{s.shop_name}</TableCell>
                      <TableCell>{`${s.type} · ${s.nature}`}</TableCell>
                      <TableCell>
                        <Money amount={s.amount} currency={s.currency} />
                      </TableCell>
                      <TableCell>{localDate(s.start_date ?? '', locale)}</TableCell>
                      <TableCell>{localDate(s.end_date ?? '', locale)}</TableCell>
                      <TableCell>
                        <Chip size="small" color={STATE_COLOR[state]} label={translate(`${K}.states.${state}`)} />
                      </TableCell>
                    </TableRow>
                  );
                })}
              </SmallTable>
            ) : (
              <Typography>{translate(`${K}.none_yet`)}</Typography>
            )}
          </Box>
        </>
      )}
    </Stack>
  );
}
