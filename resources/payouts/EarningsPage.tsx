/**
 * My earnings (sellers): a card per shop and currency (pending, available, paid out, debt), the
 * postings of the seller's shops, and a monthly statement of a shop to download as CSV.
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Box, Button, Card, CardContent, CircularProgress, MenuItem, Stack, TableCell, TableRow, TextField, Typography } from '@mui/material';
import { Title, useDataProvider, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { LEDGER_PATHS, MAX_PER_PAGE, type Balance, type Paginated, type Posting } from '../../contract';
import type { MarketplaceDataProvider } from '../../dataProvider';
import { useConfig } from '../../src/config';
import { messageOf } from '../../src/pages/messages';
import { when } from '../orders/OrderDetails';
import { downloadFile } from './download';
import { K, LedgerPager, LedgerTable, PER_PAGE, useLedgerAmount, usePagedCall } from './parts';
import { usePhone } from '../../src/layout/usePhone';

const PARTS = ['pending', 'available', 'paid', 'debt'] as const;

export default function EarningsPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const dataProvider = useDataProvider<MarketplaceDataProvider>();
  const { apiUrl } = useConfig();
  const amount = useLedgerAmount();
  const balances = useQuery({
    queryKey: ['ledger', 'balances', 'mine'],
    queryFn: async () => (await dataProvider.call<unknown, Paginated<Balance>>(LEDGER_PATHS.balances, { page: 1, per_page: MAX_PER_PAGE })).HLL?.data ?? [],
  });
  const postings = usePagedCall<Posting>('postings', LEDGER_PATHS.ledger, PER_PAGE);
  const phone = usePhone();
  const shops = [...new Map((balances.data ?? []).map((b) => [b.shop_id, b.shop_name ?? `#${b.shop_id}`])).entries()];
  const [picked, setShop] = useState<number | ''>('');
  const shop = picked !== '' ? picked : shops.length ? shops[0][0] : '';
  const [month, setMonth] = useState(() => new Date().toISOString().slice(0, 7));
  const statement = async () => {
    try {
      const query = new URLSearchParams({ shop_id: String(shop), month });
      await downloadFile(`${apiUrl}${LEDGER_PATHS.statement}?${query}`, {}, `statement-${shop}-${month}.csv`);
    } catch (error) {
      notify(messageOf(error, translate('management.failed')), { type: 'error' });
    }
  };
  const e = (key: string) => translate(`${K}.earnings.${key}`);
  const shopName = (p: Posting) => shops.find(([id]) => id === p.shop_id)?.[1] ?? String(p.shop_id ?? '');
  const kind = (p: Posting) => translate(`${K}.kinds.${p.kind}`, { _: p.kind });
  const account = (p: Posting) => translate(`${K}.accounts.${p.account}`, { _: p.account });
  // The commission is what the marketplace took: a deduction from the seller's side (a refund's gives it back).
  const signed = (p: Posting) => amount(p.account === 'commission' ? -p.amount : p.amount, p.currency);
  return (
    <Stack spacing={3} sx={{ p: { xs: 1, sm: 2 } }}>
      <Title title={translate('menu.my-earnings')} />
      <Box>
        <Typography variant="h5" component="h1">{e('title')}</Typography>
        <Typography variant="body2" color="text.secondary">{e('intro')}</Typography>
      </Box>
      {balances.isPending ? (
        <CircularProgress aria-label={translate('management.loading')} />
      ) : balances.error ? (
        <Alert severity="error">{messageOf(balances.error, translate('management.failed'))}</Alert>
      ) : balances.data?.length ? (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))' }}>
          {balances.data.map((b) => (
            <Card key={`${b.shop_id}-${b.currency}`} variant="outlined" component="article" aria-label={`${b.shop_name ?? b.shop_id} ${b.currency}`}>
              <CardContent>
                <Typography variant="overline" color="text.secondary">{b.currency}</Typography>
                <Typography variant="h6" component="h2">{b.shop_name ?? `#${b.shop_id}`}</Typography>
                {PARTS.map((part) => (
                  <Stack key={part} direction="row" sx={{ justifyContent: 'space-between' }}>
                    <Typography variant="body2" color="text.secondary">{translate(`${K}.fields.${part}`)}</Typography>
                    <Typography variant="body2" data-part={part}>{amount(b[part], b.currency)}</Typography>
                  </Stack>
                ))}
              </CardContent>
            </Card>
          ))}
        </Box>
      ) : (
        <Typography>{e('none')}</Typography>
      )}

      <Box component="section" aria-labelledby="statement">
        <Typography id="statement" variant="h6" component="h2" sx={{ mb: 1 }}>{e('statement')}</Typography>
        {shops.length ? (
          <Stack direction="row" sx={{ gap: 2, flexWrap: 'wrap', alignItems: 'center' }}>
            <TextField select size="small" label={e('shop')} value={shop} onChange={(ev) => setShop(Number(ev.target.value))} sx={{ minWidth: 200 }}>
              {shops.map(([id, name]) => (
                <MenuItem key={id} value={id}>{name}</MenuItem>
              ))}
            </TextField>
            <TextField size="small" type="month" label={e('month')} value={month} onChange={(ev) => setMonth(ev.target.value)} slotProps={{ inputLabel: { shrink: true } }} />
            <Button variant="contained" disabled={shop === '' || !/^\d{4}-\d{2}$/.test(month)} onClick={() => void statement()}>{e('download')}</Button>
          </Stack>
        ) : (
          <Typography>{e('none')}</Typography>
        )}
      </Box>

      <Box component="section" aria-labelledby="postings">
        <Typography id="postings" variant="h6" component="h2" sx={{ mb: 1 }}>{e('postings')}</Typography>
        {postings.rows.length ? (
          <>
            {phone ? (
              // On a phone, a table's six columns run off-screen (the amount last): each posting on two lines, its amount beside.
              <Box component="ul" aria-label={e('postings')} sx={{ listStyle: 'none', m: 0, p: 0 }}>
                {postings.rows.map((p) => (
                  <Stack component="li" key={p.id} direction="row" sx={{ gap: 2, py: 1, alignItems: 'center', borderBottom: 1, borderColor: 'divider' }}>
                    <Box sx={{ flex: 1, minWidth: 0 }}>
                      <Typography variant="body2">{[kind(p), account(p)].join(' · ')}</Typography>
                      <Typography variant="caption" color="text.secondary">
                        {[shopName(p), p.order_id === null ? '' : `#${p.order_id}`, when(p.created_at, locale)].filter(Boolean).join(' · ')}
                      </Typography>
                    </Box>
                    <Typography variant="body2" sx={{ whiteSpace: 'nowrap' }}>{signed(p)}</Typography>
                  </Stack>
                ))}
              </Box>
            ) : (
              <LedgerTable label={e('postings')} columns={['date', 'shop', 'order', 'kind', 'account', 'amount']} right={['amount']}>
                {postings.rows.map((p) => (
                  <TableRow key={p.id}>
                    <TableCell>{when(p.created_at, locale)}</TableCell>
                    <TableCell>{shopName(p)}</TableCell>
                    <TableCell>{p.order_id ?? ''}</TableCell>
                    <TableCell>{kind(p)}</TableCell>
                    <TableCell>{account(p)}</TableCell>
                    <TableCell align="right">{signed(p)}</TableCell>
                  </TableRow>
                ))}
              </LedgerTable>
            )}
            <LedgerPager paged={postings} />
          </>
        ) : postings.error ? (
          <Alert severity="error">{messageOf(postings.error, translate('management.failed'))}</Alert>
        ) : (
          <Typography>{postings.isPending ? '' : e('none')}</Typography>
        )}
      </Box>
    </Stack>
  );
}
