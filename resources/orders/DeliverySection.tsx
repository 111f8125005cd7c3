/**
 * The cart's delivery, before paying: the shipping class to choose (the cheapest on offer first) and,
 * per shop, its delivery fee and its total (items + delivery), each in the order's own currency and
 * shown in the viewer's (DESIGN D14: the original one hover away). The server works them out
 * (`POST /order/quote`, an extension) exactly as the checkout will charge them; a server without the
 * call shows no fees and the order is placed as before.
 */
import type { OfferedClass } from '../../contract';
import { useEffect, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Box, MenuItem, Table, TableBody, TableCell, TableHead, TableRow, TextField, Typography } from '@mui/material';
import { useDataProvider, useTranslate } from 'react-admin';
import type { MarketplaceDataProvider } from '../../dataProvider';
import type { CartItem } from '../../src/cart/store';
import { Money } from '../../src/currency';
import { inLanguage, messageOf } from '../../src/pages/messages';
import { byShop, type ShippingAddress } from './checkout';

export const QUOTE_PATH = '/order/quote';

export type ShippingClass = OfferedClass;

export interface ShopQuote {
  shop_id: number;
  shop_name: string;
  currency: string;
  amount: number;
  delivery_fee: number;
  total: number;
  logistics: string;
}

interface QuoteAnswer {
  classes: ShippingClass[];
  shipping_id: number | null;
  quotes: ShopQuote[];
}

export interface DeliveryQuote {
  classes: ShippingClass[];
  /** The class the fees are for (the chosen one, else the server's default). */
  shippingId: number | null;
  /** One per shop, in the cart's order; empty until the country is known. */
  quotes: ShopQuote[];
  /** Why the delivery cannot be priced (the server's words). */
  error?: string;
  /** The server has no quote call: fees are not known before placing. */
  unavailable: boolean;
}

/** A value once it has stayed the same for a moment (the first value at once). */
function useSettled<T>(value: T, ms = 400): T {
  const [settled, setSettled] = useState(value);
  const key = JSON.stringify(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(JSON.parse(key) as T), ms);
    return () => clearTimeout(timer);
  }, [key, ms]);
  return settled;
}

/** The cart's quote for an address and a class, asked again whenever either or the cart changes. */
export function useDeliveryQuote(items: readonly CartItem[], address: ShippingAddress, shippingId: number | null): DeliveryQuote {
  const dataProvider = useDataProvider<MarketplaceDataProvider>();
  // Asked once the buyer pauses typing, not at every key ('Gh' is no country to deliver to).
  const place = useSettled({ city: address.city.trim(), state: address.state.trim(), country: address.country.trim() });
  const orders = place.country
    ? byShop(items).map((group) => ({ shop_id: group[0].shop_id, items: group.map((it) => ({ product_id: it.id, quantity: it.quantity })) }))
    : [];
  const query = useQuery({
    queryKey: ['checkout', 'quote', orders, place, shippingId],
    queryFn: async () =>
      (await dataProvider.call<unknown, QuoteAnswer>(QUOTE_PATH, { ...(shippingId ? { shipping_id: shippingId } : {}), shipping_address: place, orders })).HLL as QuoteAnswer,
    placeholderData: keepPreviousData,
    retry: false,
  });
  const status = (query.error as { status?: number } | null)?.status;
  return {
    classes: query.data?.classes ?? [],
    shippingId: shippingId ?? query.data?.shipping_id ?? null,
    quotes: query.error ? [] : (query.data?.quotes ?? []),
    error: query.error && status !== 404 ? messageOf(query.error, '') : undefined,
    unavailable: status === 404,
  };
}

export function DeliverySection({ quote, onChoose, countryGiven }: { quote: DeliveryQuote; onChoose: (id: number) => void; countryGiven: boolean }) {
  const translate = useTranslate();
  if (quote.unavailable) return null;
  return (
    <Box>
      <Typography variant="h6" component="h2" gutterBottom>{translate('cart.delivery')}</Typography>
      {quote.classes.length > 0 && (
        <TextField
          select
          size="small"
          label={translate('cart.shipping_class')}
          value={quote.shippingId ?? ''}
          onChange={(e) => onChoose(Number(e.target.value))}
          sx={{ minWidth: 280, mb: 2 }}
        >
          {quote.classes.map((c) => (
            <MenuItem key={c.id} value={c.id}>
              {c.means}, {c.duration} (<Money amount={c.amount} currency={c.currency} />)
            </MenuItem>
          ))}
        </TextField>
      )}
      {quote.error ? (
        <Alert severity="error">{inLanguage(translate, quote.error)}</Alert>
      ) : !countryGiven ? (
        <Typography color="text.secondary">{translate('cart.delivery_needs_country')}</Typography>
      ) : (
        quote.quotes.length > 0 && (
          <Box sx={{ overflowX: 'auto' }}>
            <Table size="small" aria-label={translate('cart.delivery')}>
              <TableHead>
                <TableRow>
                  <TableCell>{translate('cart.shop')}</TableCell>
                  <TableCell>{translate('cart.logistics')}</TableCell>
                  <TableCell align="right">{translate('cart.items_total')}</TableCell>
                  <TableCell align="right">{translate('cart.delivery_fee')}</TableCell>
                  <TableCell align="right">{translate('cart.shop_total')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {quote.quotes.map((q) => (
                  <TableRow key={q.shop_id} data-testid={`delivery-${q.shop_id}`}>
                    <TableCell>{q.shop_name}</TableCell>
                    <TableCell>{q.logistics}</TableCell>
                    <TableCell align="right"><Money amount={q.amount} currency={q.currency} /></TableCell>
                    <TableCell align="right" data-testid="delivery-fee"><Money amount={q.delivery_fee} currency={q.currency} /></TableCell>
                    <TableCell align="right"><Money amount={q.total} currency={q.currency} /></TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
        )
      )}
    </Box>
  );
}
