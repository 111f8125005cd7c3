/**
 * The catalogue (beyond the spec): the active products of active shops, for any signed-in user to
 * add to the cart, with prices in the viewer's currency. Reads POST /catalogue.
 */
import { useState } from 'react';
import { Box, Button, Card, CardContent, Stack, Table, TableBody, TableCell, TableHead, TableRow, TextField, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { Link, Loading, Title, useDataProvider, useTranslate } from 'react-admin';
import type { Paginated } from '../../contract';
import type { MarketplaceDataProvider } from '../../dataProvider';
import { Money } from '../../src/currency';
import { AddToCartButton } from './AddToCartButton';
import { productCurrency, unitPrice } from './cartItem';
import { inLanguage, messageOf } from '../../src/pages/messages';

type Product = Record<string, unknown> & { id: number; name: string; shop?: { name?: string } | null };

/** Columns a phone leaves out (the shop moves under the product's name), so that 'Add to cart' stays on screen. */
const WIDE_ONLY = { display: { xs: 'none', sm: 'table-cell' } } as const;

export default function CataloguePage() {
  const translate = useTranslate();
  const dataProvider = useDataProvider<MarketplaceDataProvider>();
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const { data, isPending, error } = useQuery({
    queryKey: ['catalogue', q, page],
    queryFn: async () => (await dataProvider.call<unknown, Paginated<Product>>('/catalogue', { page, per_page: 15, ...(q ? { q } : {}) })).HLL,
  });
  const rows = data?.data ?? [];
  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }}>
      <Title title={translate('cart.catalogue')} />
      <Card>
        <CardContent>
          <Stack direction="row" spacing={2} alignItems="center" flexWrap="wrap" useFlexGap sx={{ mb: 2 }}>
            <Typography variant="h5" component="h1" sx={{ flex: 1 }}>
              {translate('cart.catalogue')}
            </Typography>
            <TextField
              size="small"
              fullWidth={false}
              sx={{ width: { xs: '100%', sm: 280 } }}
              value={text}
              placeholder={translate('management.search')}
              onChange={(e) => setText(e.target.value.slice(0, 100))}
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  setQ(text.trim());
                  setPage(1);
                }
              }}
              slotProps={{ htmlInput: { 'aria-label': translate('management.search') } }}
            />
            <Button component={Link} to="/checkout" variant="contained">
              {translate('cart.go_to_checkout')}
            </Button>
          </Stack>
          {isPending ? (
            <Loading />
          ) : error ? (
            <Typography color="error">{inLanguage(translate, messageOf(error, translate('management.failed')))}</Typography>
          ) : rows.length === 0 ? (
            <Typography>{translate('management.no_data')}</Typography>
          ) : (
            <Box sx={{ overflowX: 'auto' }}>
              <Table size="small" aria-label={translate('cart.catalogue')}>
                <TableHead>
                  <TableRow>
                    <TableCell>{translate('cart.product')}</TableCell>
                    <TableCell sx={WIDE_ONLY}>{translate('cart.shop')}</TableCell>
                    <TableCell align="right">{translate('cart.price')}</TableCell>
                    <TableCell align="right" sx={WIDE_ONLY}>{translate('cart.in_stock')}</TableCell>
                    <TableCell />
                  </TableRow>
                </TableHead>
                <TableBody>
                  {rows.map((p) => (
                    <TableRow key={p.id}>
                      <TableCell>
                        <Typography variant="body2" fontWeight={600}>{p.name}</Typography>
                        <Typography variant="caption" color="text.secondary">{String(p.description ?? '')}</Typography>
                        <Typography variant="caption" color="text.secondary" sx={{ display: { xs: 'block', sm: 'none' } }}>{p.shop?.name ?? ''}</Typography>
                      </TableCell>
                      <TableCell sx={WIDE_ONLY}>{p.shop?.name ?? ''}</TableCell>
                      <TableCell align="right">
                        <Money amount={unitPrice(p)} currency={productCurrency(p)} />
                      </TableCell>
                      <TableCell align="right" sx={WIDE_ONLY}>{String(p.in_stock ?? '')}</TableCell>
                      <TableCell align="right">
                        <AddToCartButton product={{ ...p, state: 'active' }} compact />
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
              <Stack direction="row" spacing={2} alignItems="center" sx={{ mt: 2 }}>
                <Typography variant="body2">
                  {translate('management.showing', { from: data?.from ?? 0, to: data?.to ?? 0, total: data?.total ?? 0 })}
                </Typography>
                <Button disabled={page <= 1} onClick={() => setPage(page - 1)}>{translate('management.previous')}</Button>
                <Button disabled={page >= (data?.last_page ?? 1)} onClick={() => setPage(page + 1)}>{translate('management.next')}</Button>
              </Stack>
            </Box>
          )}
        </CardContent>
      </Card>
    </Box>
  );
}
