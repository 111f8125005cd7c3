/**
 * /checkout: the cart's items with their totals in the viewer's currency, a shipping address (the
 * account's address to start with), the shipping class and each shop's delivery fee, and 'Place order'
 * (one order per shop, placed unpaid: no payment gateway). Success goes to /success, 'Cancel' to
 * /cancel; the cart is kept until the orders are placed.
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  Alert, Box, Button, Card, CardContent, Grid, IconButton, Stack, Table, TableBody, TableCell, TableHead, TableRow, TextField, Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import RemoveIcon from '@mui/icons-material/Remove';
import DeleteIcon from '@mui/icons-material/Delete';
import { Link, Title, useDataProvider, useNotify, useRedirect, useTranslate } from 'react-admin';
import { sumConverted } from '../../contract';
import type { MarketplaceDataProvider } from '../../dataProvider';
import { registry } from '../';
import { useCart } from '../../src/cart';
import { Money, useMoney } from '../../src/currency';
import { messageOf } from '../../src/pages/messages';
import { getSession } from '../../authProvider/session';
import { byShop, orderRequest, type ShippingAddress } from './checkout';
import { DeliverySection, useDeliveryQuote } from './DeliverySection';

const PARTS = ['street_name', 'city', 'state', 'country', 'zip'] as const;
/** The parts of the address an order needs (the server's rule). */
const NEEDED: readonly string[] = ['street_name', 'country'];

export default function CheckoutPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const redirect = useRedirect();
  const dataProvider = useDataProvider<MarketplaceDataProvider>();
  const money = useMoney();
  const [cart, dispatch] = useCart();
  /** The address the buyer typed; until then, the account's own. */
  const [typed, setAddress] = useState<ShippingAddress | null>(null);
  const [contact, setContact] = useState('');
  const [placing, setPlacing] = useState(false);
  const [tried, setTried] = useState(false);
  const [shippingId, setShippingId] = useState<number | null>(null);
  // The account's address is the default delivery address, until the buyer types another.
  const id = getSession()?.id;
  const profile = useQuery({
    queryKey: ['account', 'profile', id],
    enabled: id !== undefined,
    queryFn: async () => (await dataProvider.getOne('users', { id: id! })).data,
  });
  const saved = profile.data;
  const address: ShippingAddress = typed ?? (Object.fromEntries(PARTS.map((part) => [part, String(saved?.[part] ?? '')])) as unknown as ShippingAddress);
  const quote = useDeliveryQuote(cart.items, address, shippingId);
  // With the fees known, the total is each shop's items and delivery; each converted before adding (DESIGN D14).
  const total = quote.quotes.length
    ? sumConverted(quote.quotes.map((q) => ({ amount: q.total, currency: q.currency })), money.currency, money.rates)
    : sumConverted(cart.items.map((it) => ({ amount: it.sale_price * it.quantity, currency: it.currency })), money.currency, money.rates);
  /** A needed part left empty, once 'Place order' was tried: flagged red, with 'Required' under it. */
  const unfilled = (part: (typeof PARTS)[number]) => tried && NEEDED.includes(part) && !address[part].trim();
  const missing = PARTS.some((part) => NEEDED.includes(part) && !address[part].trim());

  const place = async () => {
    setTried(true);
    if (missing || cart.isEmpty) return;
    setPlacing(true);
    const placed: number[] = [];
    try {
      for (const group of byShop(cart.items)) {
        const { detail } = await dataProvider.call<{ id: number }>(registry.entity('orders').save, orderRequest(group, address, contact, placed[0], quote.shippingId));
        if (detail?.id) placed.push(detail.id);
        for (const item of group) dispatch({ type: 'remove', id: item.id });
      }
      dispatch({ type: 'clear' });
      redirect(`/success?orders=${placed.join(',')}`);
    } catch (error) {
      notify(messageOf(error, translate('management.failed')), { type: 'error' });
      if (placed.length) notify(translate('cart.partly_placed', { orders: placed.join(', ') }), { type: 'warning' });
    } finally {
      setPlacing(false);
    }
  };

  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }}>
      <Title title={translate('cart.checkout')} />
      <Card>
        <CardContent>
          <Typography variant="h5" component="h1" gutterBottom>
            {translate('cart.checkout')}
          </Typography>
          {cart.isEmpty ? (
            <Stack spacing={2} alignItems="flex-start">
              <Typography>{translate('cart.empty')}</Typography>
              <Button component={Link} to="/catalogue" variant="contained">{translate('cart.continue')}</Button>
            </Stack>
          ) : (
            <Stack spacing={3}>
              <Box sx={{ overflowX: 'auto' }}>
                <Table size="small" aria-label={translate('cart.items')}>
                  <TableHead>
                    <TableRow>
                      <TableCell>{translate('cart.product')}</TableCell>
                      <TableCell>{translate('cart.shop')}</TableCell>
                      <TableCell align="right">{translate('cart.price')}</TableCell>
                      <TableCell align="center">{translate('cart.quantity')}</TableCell>
                      <TableCell align="right">{translate('cart.line_total')}</TableCell>
                      <TableCell />
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {cart.items.map((it) => (
                      <TableRow key={it.id}>
                        <TableCell>{it.name}</TableCell>
                        <TableCell>{it.shop_name ?? ''}</TableCell>
                        <TableCell align="right"><Money amount={it.sale_price} currency={it.currency} /></TableCell>
                        <TableCell align="center">
                          <Stack direction="row" alignItems="center" justifyContent="center">
                            <IconButton size="small" aria-label={translate('cart.decrease', { name: it.name })} disabled={it.quantity <= 1} onClick={() => dispatch({ type: 'decrease', id: it.id })}>
                              <RemoveIcon fontSize="small" />
                            </IconButton>
                            <Typography component="span" sx={{ minWidth: 24, textAlign: 'center' }} aria-label={translate('cart.quantity')}>{it.quantity}</Typography>
                            <IconButton size="small" aria-label={translate('cart.increase', { name: it.name })} onClick={() => dispatch({ type: 'increase', id: it.id, amount: 1 })}>
                              <AddIcon fontSize="small" />
                            </IconButton>
                          </Stack>
                        </TableCell>
                        <TableCell align="right"><Money amount={it.sale_price * it.quantity} currency={it.currency} /></TableCell>
                        <TableCell align="right">
                          <IconButton size="small" aria-label={translate('cart.remove', { name: it.name })} onClick={() => dispatch({ type: 'remove', id: it.id })}>
                            <DeleteIcon fontSize="small" />
                          </IconButton>
                        </TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </Box>
              <Box>
                <Typography variant="h6" component="h2" gutterBottom>{translate('cart.shipping')}</Typography>
                <Grid container spacing={2}>
                  {PARTS.map((part) => (
                    <Grid key={part} size={{ xs: 12, md: part === 'street_name' ? 12 : 6 }}>
                      <TextField
                        fullWidth
                        size="small"
                        label={translate(`cart.address.${part}`)}
                        required={NEEDED.includes(part)}
                        error={unfilled(part)}
                        helperText={unfilled(part) ? translate('ra.validation.required') : undefined}
                        value={address[part]}
                        onChange={(e) => setAddress({ ...address, [part]: e.target.value.slice(0, 255) })}
                      />
                    </Grid>
                  ))}
                  <Grid size={{ xs: 12, md: 6 }}>
                    <TextField fullWidth size="small" type="tel" label={translate('cart.contact')} value={contact} onChange={(e) => setContact(e.target.value.slice(0, 255))} />
                  </Grid>
                </Grid>
              </Box>
              <DeliverySection quote={quote} onChoose={setShippingId} countryGiven={!!address.country.trim()} />
              <Stack direction="row" spacing={4} justifyContent="flex-end" flexWrap="wrap" useFlexGap>
                <Typography>{translate('cart.total_items', { count: cart.total_items })}</Typography>
                <Typography>{translate('cart.total_weight', { weight: Math.round(cart.total_wieght * 100) / 100 })}</Typography>
                <Typography fontWeight={700} data-testid="cart-total">
                  {translate(quote.quotes.length ? 'cart.total_with_delivery' : 'cart.total', { total: money.format(total.total) })}
                </Typography>
              </Stack>
              {total.unconverted > 0 && <Alert severity="warning">{translate('cart.unconverted', { count: total.unconverted })}</Alert>}
              <Alert severity="info">{translate('cart.unpaid_note')}</Alert>
              <Stack direction="row" spacing={2}>
                <Button variant="contained" onClick={place} disabled={placing}>{translate('cart.place_order')}</Button>
                <Button onClick={() => redirect('/cancel')} disabled={placing}>{translate('cart.cancel')}</Button>
                <Button component={Link} to="/catalogue">{translate('cart.continue')}</Button>
              </Stack>
            </Stack>
          )}
        </CardContent>
      </Card>
    </Box>
  );
}
