/**
 * Payouts (admins holding 'payouts'): every shop's balances per currency with a Pay out button, the
 * payouts with Mark paid / Mark failed (a reference asked for), and a bank-transfer batch of the
 * chosen pending payouts as CSV. Amounts are the ledger's minor units, shown in their own currency.
 */
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  Alert, Box, Button, Checkbox, Chip, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TableCell, TableRow,
  TextField, Typography,
} from '@mui/material';
import { Confirm, Title, useDataProvider, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { LEDGER_PATHS, type Balance } from '../../contract';
import type { MarketplaceDataProvider } from '../../dataProvider';
import { useConfig } from '../../src/config';
import { messageOf } from '../../src/pages/messages';
import { when } from '../orders/OrderDetails';
import { downloadFile } from './download';
import { K, LedgerPager, LedgerTable, PER_PAGE, useLedgerAmount, usePagedCall } from './parts';

interface Payout {
  id: number;
  shop_id: number;
  shop_name: string | null;
  currency: string;
  amount: number;
  method: string;
  state: 'pending' | 'paid' | 'failed';
  reference: string | null;
  created_at: string;
}

const STATE_COLOR = { pending: 'warning', paid: 'success', failed: 'error' } as const;

export default function PayoutsPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const client = useQueryClient();
  const dataProvider = useDataProvider<MarketplaceDataProvider>();
  const { apiUrl } = useConfig();
  const amount = useLedgerAmount();
  const [paying, setPaying] = useState<Balance | null>(null);
  const [settling, setSettling] = useState<{ payout: Payout; state: 'paid' | 'failed' } | null>(null);
  const [reference, setReference] = useState('');
  const [chosen, setChosen] = useState<number[]>([]);

  const balances = usePagedCall<Balance>('balances', LEDGER_PATHS.balances, PER_PAGE);
  const payouts = usePagedCall<Payout>('payouts', LEDGER_PATHS.payouts, PER_PAGE);
  const done = ({ query }: { query: string }) => {
    notify(query, { type: 'success' });
    void client.invalidateQueries({ queryKey: ['ledger'] });
  };
  const failed = (error: unknown) => notify(messageOf(error, translate('management.failed')), { type: 'error' });
  const payOut = useMutation({
    mutationFn: (b: Balance) => dataProvider.call(LEDGER_PATHS.payout, { shop_id: b.shop_id, currency: b.currency }),
    onSuccess: done,
    onError: failed,
  });
  const settle = useMutation({
    mutationFn: (s: { id: number; state: string; reference: string }) => dataProvider.call(LEDGER_PATHS.payoutStatus, s),
    onSuccess: done,
    onError: failed,
  });
  const batch = async () => {
    try {
      await downloadFile(`${apiUrl}${LEDGER_PATHS.batch}`, {
        method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ ids: chosen }),
      }, 'payouts.csv');
    } catch (error) {
      failed(error);
    }
  };

  const pending = payouts.rows.filter((p) => p.state === 'pending').map((p) => p.id);
  return (
    <Stack spacing={3} sx={{ p: { xs: 1, sm: 2 } }}>
      <Title title={translate('menu.payouts')} />
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'flex-start', flexWrap: 'wrap', gap: 1 }}>
        <Box>
          <Typography variant="h5" component="h1">{translate(`${K}.title`)}</Typography>
          <Typography variant="body2" color="text.secondary">{translate(`${K}.intro`)}</Typography>
        </Box>
        <Button component={RouterLink} to="/commission-report" variant="outlined">{translate(`${K}.commissions`)}</Button>
      </Stack>

      <Box component="section" aria-labelledby="balances">
        <Typography id="balances" variant="h6" component="h2" sx={{ mb: 1 }}>{translate(`${K}.balances`)}</Typography>
        {balances.isPending ? (
          <CircularProgress aria-label={translate('management.loading')} />
        ) : balances.error ? (
          <Alert severity="error">{messageOf(balances.error, translate('management.failed'))}</Alert>
        ) : balances.rows.length ? (
          <>
            <LedgerTable label={translate(`${K}.balances`)} columns={['shop', 'currency', 'pending', 'available', 'paid', 'debt', '']} right={['pending', 'available', 'paid', 'debt']}>
              {balances.rows.map((b) => (
                <TableRow key={`${b.shop_id}-${b.currency}`}>
                  <TableCell>{b.shop_name ?? `#${b.shop_id}`}</TableCell>
                  <TableCell>{b.currency}</TableCell>
                  <TableCell align="right">{amount(b.pending, b.currency)}</TableCell>
                  <TableCell align="right">{amount(b.available, b.currency)}</TableCell>
                  <TableCell align="right">{amount(b.paid, b.currency)}</TableCell>
                  <TableCell align="right">{b.debt ? amount(b.debt, b.currency) : ''}</TableCell>
                  <TableCell align="right">
                    <Button
                      size="small"
                      variant="contained"
                      disabled={b.available <= 0 || payOut.isPending}
                      aria-label={`${translate(`${K}.pay_out`)} ${b.shop_name ?? b.shop_id} ${b.currency}`}
                      onClick={() => setPaying(b)}
                    >
                      {translate(`${K}.pay_out`)}
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </LedgerTable>
            <LedgerPager paged={balances} />
          </>
        ) : (
          <Typography>{translate(`${K}.no_balances`)}</Typography>
        )}
      </Box>

      <Box component="section" aria-labelledby="payouts">
        <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 1 }}>
          <Typography id="payouts" variant="h6" component="h2">{translate(`${K}.list`)}</Typography>
          <Button variant="outlined" disabled={!chosen.length} onClick={() => void batch()}>{translate(`${K}.download_batch`)}</Button>
        </Stack>
        {payouts.rows.length ? (
          <>
            <LedgerTable label={translate(`${K}.list`)} columns={['', 'id', 'shop', 'amount', 'method', 'state', 'reference', 'created_at', '']} right={['amount']}>
              {payouts.rows.map((p) => (
                <TableRow key={p.id}>
                  <TableCell padding="checkbox">
                    {p.state === 'pending' && (
                      <Checkbox
                        checked={chosen.includes(p.id)}
                        onChange={(e) => setChosen((was) => (e.target.checked ? [...was, p.id] : was.filter((id) => id !== p.id)).filter((id) => pending.includes(id)))}
                        slotProps={{ input: { 'aria-label': translate(`${K}.select`, { id: p.id }) } }}
                      />
                    )}
                  </TableCell>
                  <TableCell>{p.id}</TableCell>
                  <TableCell>{p.shop_name ?? `#${p.shop_id}`}</TableCell>
                  <TableCell align="right">{amount(p.amount, p.currency)}</TableCell>
                  <TableCell>{translate(`${K}.methods.${p.method}`, { _: p.method })}</TableCell>
                  <TableCell>
                    <Chip size="small" color={STATE_COLOR[p.state]} label={translate(`${K}.states.${p.state}`)} />
                  </TableCell>
                  <TableCell>{p.reference ?? ''}</TableCell>
                  <TableCell>{when(p.created_at, locale)}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    {p.state === 'pending' && (
                    <>
                        <Button size="small" onClick={() => setSettling({ payout: p, state: 'paid' })}>{translate(`${K}.mark_paid`)}</Button>
                        <Button size="small" color="error" onClick={() => setSettling({ payout: p, state: 'failed' })}>{translate(`${K}.mark_failed`)}</Button>
                    </>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </LedgerTable>
          <LedgerPager paged={payouts} />
          </>
        ) : (
          <Typography>{payouts.isPending ? '' : translate(`${K}.none`)}</Typography>
        )}
      </Box>

      <Confirm
        isOpen={paying !== null}
        title={translate(`${K}.confirm_title`, { shop: paying?.shop_name ?? '' })}
        content={paying ? translate(`${K}.confirm`, { shop: paying.shop_name ?? paying.shop_id, amount: amount(paying.available, paying.currency) }) : ''}
        confirm={translate(`${K}.pay_out`)}
        onConfirm={() => {
          if (paying) payOut.mutate(paying);
          setPaying(null);
        }}
        onClose={() => setPaying(null)}
      />
      <Dialog open={settling !== null} onClose={() => setSettling(null)} aria-labelledby="settle-title">
        <DialogTitle id="settle-title">
          {settling ? translate(`${K}.settle_title`, { id: settling.payout.id, state: translate(`${K}.states.${settling.state}`) }) : ''}
        </DialogTitle>
        <DialogContent>
          <TextField autoFocus fullWidth margin="dense" label={translate(`${K}.reference`)} value={reference} onChange={(e) => setReference(e.target.value)} slotProps={{ htmlInput: { maxLength: 255 } }} />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setSettling(null)}>{translate('ra.action.cancel')}</Button>
          <Button
            variant="contained"
            onClick={() => {
              if (settling) settle.mutate({ id: settling.payout.id, state: settling.state, reference });
              setSettling(null);
              setReference('');
            }}
          >
            {translate(`${K}.confirm_settle`)}
          </Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
}
