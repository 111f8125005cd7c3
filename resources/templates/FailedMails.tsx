/**
 * The mails that failed after their last attempt (all templates, newest first), each with its
 * error and a 'Retry' button: the mail waits to be sent again, its attempts starting over.
 */
import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import { MAIL_PATHS } from '../../contract';
import type { MarketplaceDataProvider } from '../../dataProvider';
import { messageOf } from '../../src/pages/messages';
import type { PanelProps } from '../../src/screens/types';

interface FailedMail {
  id: number;
  to_email: string;
  subject: string;
  serial: string | null;
  attempts: number;
  last_error: string | null;
  updated_at: string;
}

export default function FailedMails({ name }: PanelProps) {
  const translate = useTranslate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const dataProvider = useDataProvider<MarketplaceDataProvider>();
  const [busy, setBusy] = useState<number>();
  const key = (part: string) => `resources.${name}.failed.${part}`;
  const { data, error, isPending } = useQuery({
    queryKey: ['mails', 'failed'],
    queryFn: async () => (await dataProvider.call<unknown, FailedMail[]>(MAIL_PATHS.failed, {})).HLL ?? [],
  });
  const retry = async (id: number) => {
    setBusy(id);
    try {
      const { query } = await dataProvider.call(MAIL_PATHS.retry, { id });
      notify(query || 'management.done', { type: 'success' });
      await queryClient.invalidateQueries({ queryKey: ['mails', 'failed'] });
    } catch (failure) {
      notify(messageOf(failure, translate('management.failed')), { type: 'error' });
    } finally {
      setBusy(undefined);
    }
  };
  if (error) return <Alert severity="error">{messageOf(error, translate('management.failed'))}</Alert>;
  if (isPending) return <Typography>{translate('management.loading')}</Typography>;
  if (!data.length) return <Typography>{translate(key('none'))}</Typography>;
  return (
    <Stack spacing={1}>
      <Typography variant="body2" color="text.secondary">{translate(key('help'))}</Typography>
      <Table size="small" aria-label={translate(key('tab'))}>
        <TableHead>
          <TableRow>
            {['to', 'subject', 'attempts', 'error', 'when', 'action'].map((column) => (
              <TableCell key={column}>{translate(key(column))}</TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {data.map((mail) => (
            <TableRow key={mail.id}>
              <TableCell>{mail.to_email}</TableCell>
              <TableCell>{mail.subject}</TableCell>
              <TableCell>{mail.attempts}</TableCell>
              <TableCell sx={{ overflowWrap: 'anywhere' }}>{mail.last_error}</TableCell>
              <TableCell>{new Date(mail.updated_at).toLocaleString()}</TableCell>
              <TableCell>
                <Button size="small" variant="outlined" disabled={busy === mail.id} onClick={() => retry(mail.id)} aria-label={`${translate(key('retry'))} ${mail.to_email}`}>
                  {translate(key('retry'))}
                </Button>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Stack>
  );
}
