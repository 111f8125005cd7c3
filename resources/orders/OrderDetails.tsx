/**
 * The order dialog (the global dialog's 'VIEW_ORDER' view, SPEC §2.12, §2.29): the whole order — its
 * items with quantities and prices, buyer, shop, shipping address, logistics, delivery fee, tracking
 * number, totals in the order's currency and in the viewer's, and the status history. Every money
 * column names its currency: the order's, and the viewer's for converted amounts. Admins and sellers
 * also see each line's commission (its category's rate, frozen when the order was placed) and the
 * seller's net.
 */
import { Box, Chip, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { format } from 'date-fns';
import { useLocaleState, usePermissions, useTranslate } from 'react-admin';
import { dateTimePattern } from '../../i18n/format';
import { formatMoney, fromMinor, percentOf, toMinor, type Rate } from '../../contract';
import { Money, useMoney, useRates } from '../../src/currency';
import { SmallTable } from '../../src/widgets/SmallTable';

type OrderLike = Record<string, unknown>;

export interface OrderDialogProps {
  order: OrderLike;
}

export interface OrderItem {
  product_id?: number;
  name?: string;
  sku?: string | null;
  quantity?: number;
  price?: number;
  currency?: string;
  /** The category's commission rate (%) when the order was placed. */
  commission_rate?: number;
}

/** A line's commission and the seller's net, in the line's currency (the ledger's rounding). */
export function lineShares(item: OrderItem): { commission: number; net: number } {
  const amount = toMinor(item.price) * Number(item.quantity ?? 0);
  const commission = Math.min(amount, percentOf(amount, Number(item.commission_rate ?? 0)));
  return { commission: fromMinor(commission), net: fromMinor(amount - commission) };
}

export interface OrderEvent {
  id?: number;
  from_status?: number | null;
  to_status?: number;
  user_name?: string | null;
  /** Why the server moved it itself ('hold_expired'); none when a person did. */
  reason?: string | null;
  created_at?: string | null;
}

const text = (value: unknown): string =>
  value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);

/** The shipping address as one line, its parts joined with commas (SPEC §2.12). */
export function joinAddress(address: unknown): string {
  if (!address || typeof address !== 'object') return text(address);
  const a = address as Record<string, unknown>;
  return ['street_name', 'city', 'state', 'country', 'zip']
    .map((key) => text(a[key]).trim())
    .filter((part) => part !== '')
    .join(', ');
}

/**
 * A stored timestamp as 'yyyy-MM-dd HH:mm' ('dd/MM/yyyy HH:mm' in French) in the viewer's time zone;
 * other text as it is.
 */
export function when(value: unknown, locale = 'en'): string {
  const date = typeof value === 'string' ? new Date(value) : null;
  return date && !Number.isNaN(date.getTime()) ? format(date, dateTimePattern(locale)) : text(value);
}

const nameOf = (value: unknown) => (value && typeof value === 'object' ? text((value as { name?: unknown }).name) : text(value));

/** An amount in the order's own currency, formatted by SPEC §9.1 with that currency's symbol and code. */
export function ownAmount(amount: unknown, currency: string, rates: readonly Rate[], locale?: string): string {
  const symbol = rates.find((r) => String(r.code).toLowerCase() === currency.toLowerCase())?.currency_symbol;
  return `${formatMoney(Number(amount ?? 0), symbol, locale)} ${currency}`;
}

export const itemsOf = (order: OrderLike): OrderItem[] => (Array.isArray(order.items) ? (order.items as OrderItem[]) : []);
export const timelineOf = (order: OrderLike): OrderEvent[] =>
  Array.isArray(order.timeline) ? [...(order.timeline as OrderEvent[])].sort((a, b) => Number(a.id ?? 0) - Number(b.id ?? 0)) : [];

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <TableRow>
      <TableCell component="th" scope="row" sx={{ fontWeight: 600, whiteSpace: 'nowrap', width: '35%' }}>
        {label}
      </TableCell>
      <TableCell>{children}</TableCell>
    </TableRow>
  );
}

export default function OrderDetails({ order }: OrderDialogProps) {
  const translate = useTranslate();
  const rates = useRates();
  const [locale] = useLocaleState();
  const viewer = useMoney().currency;
  const t = (key: string, options?: object) => translate(`resources.orders.dialog.${key}`, options);
  const currency = text(order.currency) || 'USD';
  const none = t('none');
  const statusName = (code: unknown) => (code === null || code === undefined ? '' : translate(`resources.orders.choices.${String(code)}`));
  /** The order's status {id, name} in the viewer's language (the name as sent for a status the console does not know). */
  const statusLabel = (status: unknown) => {
    const id = status && typeof status === 'object' ? (status as { id?: unknown }).id : status;
    return id === null || id === undefined ? nameOf(status) : translate(`resources.orders.choices.${String(id)}`, { _: nameOf(status) || String(id) });
  };
  // The viewer's currency gets columns of its own only when it is not the order's.
  const converted = viewer.toLowerCase() !== currency.toLowerCase();
  const both = (label: string, amount: unknown) => (
    <TableRow>
      <TableCell component="th" scope="row" sx={{ fontWeight: 600, whiteSpace: 'nowrap', width: '35%' }}>
        {label}
      </TableCell>
      <TableCell align="right">{ownAmount(amount, currency, rates, locale)}</TableCell>
      {converted && (
        <TableCell align="right">
          <Money amount={amount} currency={currency} />
        </TableCell>
      )}
    </TableRow>
  );
  const items = itemsOf(order);
  const timeline = timelineOf(order);
  // The marketplace's share is for admins and the order's seller, never the buyer.
  const { permissions } = usePermissions<{ role?: string }>();
  const shares = permissions?.role !== undefined && permissions.role !== 'buyer' && items.some((it) => it.commission_rate !== undefined && it.commission_rate !== null);
  const itemHeaders = [
    t('product'), t('quantity'), t('price', { currency }), t('line_total', { currency }),
    ...(shares ? [t('commission', { currency }), t('net', { currency })] : []),
    ...(converted ? [t('line_total', { currency: viewer })] : []),
  ];
  return (
    <Stack spacing={2} aria-label={t('title')}>
      <Table size="small" aria-label={t('summary')}>
        <TableBody>
          <Row label={t('id')}>{text(order.id)}</Row>
          <Row label={t('status')}>
            <Chip size="small" color="primary" variant="outlined" label={statusLabel(order.status)} />
          </Row>
          <Row label={t('tracking_number')}>{text(order.tracking_number) || none}</Row>
          <Row label={t('buyer')}>{nameOf(order.customer) || text(order.customer_id) || none}</Row>
          <Row label={t('shop')}>{nameOf(order.shop) || none}</Row>
          <Row label={t('shipping_address')}>{joinAddress(order.shipping_address) || none}</Row>
          <Row label={t('logistics')}>{text(order.logistics) || none}</Row>
          <Row label={t('payment_gateway')}>{text(order.payment_gateway) || none}</Row>
          <Row label={t('created_at')}>{when(order.created_at, locale) || none}</Row>
          {order.hold_until ? <Row label={t('hold_until')}>{when(order.hold_until, locale)}</Row> : null}
        </TableBody>
      </Table>

      <Box>
        <Typography variant="subtitle1" component="h3" gutterBottom>
          {t('items')}
        </Typography>
        {items.length ? (
          <SmallTable label={t('items')} headers={itemHeaders} right={itemHeaders.map((_, i) => i).slice(1)}>
            {items.map((it, k) => (
              <TableRow key={`${it.product_id ?? k}`}>
                <TableCell>{text(it.name) || `#${text(it.product_id)}`}</TableCell>
                <TableCell align="right">{text(it.quantity)}</TableCell>
                <TableCell align="right">{ownAmount(it.price, it.currency || currency, rates, locale)}</TableCell>
                <TableCell align="right">{ownAmount(Number(it.price ?? 0) * Number(it.quantity ?? 0), it.currency || currency, rates, locale)}</TableCell>
                {shares && (
                  <TableCell align="right">
                    {`${ownAmount(lineShares(it).commission, it.currency || currency, rates, locale)} (${t('rate', { rate: Number(it.commission_rate ?? 0).toLocaleString(locale) })})`}
                  </TableCell>
                )}
                {shares && <TableCell align="right">{ownAmount(lineShares(it).net, it.currency || currency, rates, locale)}</TableCell>}
                {converted && (
                  <TableCell align="right">
                    <Money amount={Number(it.price ?? 0) * Number(it.quantity ?? 0)} currency={it.currency || currency} />
                  </TableCell>
                )}
              </TableRow>
            ))}
          </SmallTable>
        ) : (
          <Typography color="text.secondary">{t('no_items', { count: text(order.number_of_items) || '0' })}</Typography>
        )}
      </Box>

      <Table size="small" aria-label={t('totals')}>
        <TableHead>
          <TableRow>
            <TableCell>{t('totals')}</TableCell>
            <TableCell align="right">{t('amount_in', { currency })}</TableCell>
            {converted && <TableCell align="right">{t('amount_in', { currency: viewer })}</TableCell>}
          </TableRow>
        </TableHead>
        <TableBody>
          {both(t('delivery_fee'), order.delivery_fee)}
          {both(t('total'), order.total)}
          {both(t('paid_total'), order.paid_total)}
        </TableBody>
      </Table>

      <Box>
        <Typography variant="subtitle1" component="h3" gutterBottom>
          {t('timeline')}
        </Typography>
        {timeline.length ? (
          <Box component="ol" aria-label={t('timeline')} sx={{ m: 0, pl: 3 }}>
            {timeline.map((e, k) => (
              <li key={e.id ?? k}>
                <Typography variant="body2">
                  {e.from_status == null
                    ? t('event_placed', { to: statusName(e.to_status), who: e.user_name || none, when: when(e.created_at, locale) })
                    : e.reason
                      ? t('event_reason', { from: statusName(e.from_status), to: statusName(e.to_status), why: t(`reasons.${e.reason}`, { _: e.reason }), when: when(e.created_at, locale) })
                      : t('event_moved', { from: statusName(e.from_status), to: statusName(e.to_status), who: e.user_name || none, when: when(e.created_at, locale) })}
                </Typography>
              </li>
            ))}
          </Box>
        ) : (
          <Typography color="text.secondary">{t('no_history')}</Typography>
        )}
      </Box>
    </Stack>
  );
}
