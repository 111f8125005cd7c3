import { Table, TableBody, TableCell, TableRow, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { Order } from '../../contract';

type OrderLike = Partial<Order> & Record<string, unknown>;

const money = new Intl.NumberFormat(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 });

function formatAmount(value: unknown, currency: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  const n = Number(value);
  const amount = Number.isFinite(n) ? money.format(n) : String(value);
  return typeof currency === 'string' && currency ? `${amount} ${currency}` : amount;
}

function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The shipping address as one line, its parts joined with commas. */
export function joinAddress(address: unknown): string {
  if (!address || typeof address !== 'object') return text(address);
  const a = address as Record<string, unknown>;
  return ['street_name', 'city', 'state', 'country', 'zip']
    .map((key) => text(a[key]).trim())
    .filter((part) => part !== '')
    .join(', ');
}

/** [i18n key, displayed value] for each line of the order details table. */
export function orderDetailRows(order: OrderLike): [string, string][] {
  const status = order.status && typeof order.status === 'object' ? order.status.name : order.status;
  return [
    ['dialog.order.id', text(order.id)],
    ['dialog.order.tracking_number', text(order.tracking_number)],
    ['dialog.order.status', text(status)],
    ['dialog.order.dispatch_status', text(order.dispatch_status)],
    ['dialog.order.payment_gateway', text(order.payment_gateway)],
    ['dialog.order.number_of_items', text(order.number_of_items)],
    ['dialog.order.total', formatAmount(order.total, order.currency)],
    ['dialog.order.paid_total', formatAmount(order.paid_total, order.currency)],
    ['dialog.order.delivery_fee', formatAmount(order.delivery_fee, order.currency)],
    ['dialog.order.logistics', text(order.logistics)],
    ['dialog.order.shipping_address', joinAddress(order.shipping_address)],
    ['dialog.order.shop', text(order.shop?.name)],
    ['dialog.order.created_at', text(order.created_at)],
  ];
}

/** The 'VIEW_ORDER' view of the global dialog: the order's fields as a readable table. */
export function OrderDetails({ order }: { order: unknown }) {
  const translate = useTranslate();
  if (!order || typeof order !== 'object') {
    return <Typography color="text.secondary">{translate('dialog.order.empty')}</Typography>;
  }
  return (
    <Table size="small" aria-label={translate('dialog.order.title')}>
      <TableBody>
        {orderDetailRows(order as OrderLike).map(([key, value]) => (
          <TableRow key={key}>
            <TableCell component="th" scope="row" sx={{ fontWeight: 600, whiteSpace: 'nowrap', width: '40%' }}>
              {translate(key)}
            </TableCell>
            <TableCell>{value || translate('dialog.order.none')}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
