/**
 * The Users screen's 'Second factor' tab (issue 26): whether the user has one, and a reset that
 * removes it (`POST /user/second-factor/reset`; the server applies the rule of managing that user,
 * asks for the admin's own fresh factor and audits it). The user sets one up again afterwards.
 */
import { useState } from 'react';
import { Alert, Button, Stack, Typography } from '@mui/material';
import { Confirm, useDataProvider, useGetIdentity, useNotify, useRefresh, useTranslate } from 'react-admin';
import { PATHS } from '../../contract';
import type { MarketplaceDataProvider } from '../../dataProvider';
import { messageOf } from '../../src/pages/messages';
import type { PanelProps } from '../../src/screens/types';
import SecondFactorCell from './SecondFactorCell';

const T = 'resources.users.second_factor';

export default function SecondFactorReset({ record }: PanelProps) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const dataProvider = useDataProvider<MarketplaceDataProvider>();
  const { identity } = useGetIdentity();
  const [confirming, setConfirming] = useState(false);
  if (!record) return <Typography>{translate('management.select_record')}</Typography>;
  const self = identity !== undefined && String(identity.id) === String(record.id);
  const has = typeof record.second_factor === 'string' && record.second_factor !== '';
  const reset = async () => {
    setConfirming(false);
    try {
      const { query } = await dataProvider.call(PATHS.secondFactorReset, { id: record.id });
      notify(query || 'management.done', { type: 'success' });
      refresh();
    } catch (error) {
      notify(messageOf(error, translate('management.failed')), { type: 'error' });
    }
  };
  return (
    <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
      <Stack direction="row" spacing={1}>
        <Typography variant="subtitle2">{translate(`${T}.column`)}:</Typography>
        <Typography variant="body2"><SecondFactorCell record={record} source="second_factor" name="users" /></Typography>
      </Stack>
      {self ? (
        <Alert severity="info">{translate(`${T}.self_reset`)}</Alert>
      ) : has ? (
        <>
          <Typography variant="body2" color="text.secondary">{translate(`${T}.reset_help`)}</Typography>
          <Button variant="contained" color="warning" onClick={() => setConfirming(true)}>{translate(`${T}.reset`)}</Button>
        </>
      ) : null}
      <Confirm
        isOpen={confirming}
        title={`${T}.confirm_reset`}
        content={`${T}.reset_help`}
        translateOptions={{ name: `${String(record.name ?? '')} (#${record.id})` }}
        confirm={`${T}.reset`}
        confirmColor="warning"
        onConfirm={reset}
        onClose={() => setConfirming(false)}
      />
    </Stack>
  );
}
