/**
 * The users screen's Control tab (SPEC §2.14, §6.1): the ability choice, submitted through the save
 * (/user/edit, with exactly the contract's fields), and the red 'Deactivate / Activate' that
 * blacklists the user (/user/status; the server ends their sessions). No reloads (DESIGN D4): the
 * server's message is shown and the list refreshes in place.
 */
import { useState } from 'react';
import { Alert, Box, Button, Stack, Typography } from '@mui/material';
import {
  CanAccess, Confirm, Form, RadioButtonGroupInput, SaveButton, useDataProvider, useGetIdentity, useNotify, useRefresh, useTranslate,
} from 'react-admin';
import { isOn } from '../../contract';
import { answerOf, type MarketplaceDataProvider } from '../../dataProvider';
import { messageOf } from '../../src/pages/messages';
import { StatusDot } from '../../src/widgets/StatusDot';
import type { PanelProps } from '../../src/screens/types';
import { ABILITY_CHOICES, abilitiesFor, abilityChoiceOf } from './rules';

export default function UserControl({ record, resource }: PanelProps) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const dataProvider = useDataProvider<MarketplaceDataProvider>();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const { identity } = useGetIdentity();
  if (!record) return <Typography>{translate('management.select_record')}</Typography>;
  const active = isOn(record.is_active);
  // The server refuses changing one's own abilities or status; say so instead of offering it.
  const self = identity !== undefined && String(identity.id) === String(record.id);
  const done = (query: string | undefined) => {
    notify(query || 'management.done', { type: 'success' });
    refresh();
  };
  const failed = (error: unknown) => notify(messageOf(error, translate('management.failed')), { type: 'error' });

  const submit = async (values: Record<string, unknown>) => {
    try {
      const abilities = abilitiesFor(String(values.ability), record.abilities);
      const { data } = await dataProvider.update(resource, { id: record.id, data: { abilities }, previousData: record });
      done(answerOf(data));
    } catch (error) {
      failed(error);
    }
  };
  const toggle = async () => {
    setConfirming(false);
    setBusy(true);
    try {
      done(await dataProvider.blacklist(record.id, active ? 0 : 1));
    } catch (error) {
      failed(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form key={`${record.id}-${String(record.abilities)}`} record={{ ability: abilityChoiceOf(record.abilities) }} onSubmit={submit}>
      <Stack direction="row" spacing={1} alignItems="center">
        <Typography variant="subtitle2">{translate('resources.users.inputs.abilities')}</Typography>
        <Typography variant="body2">({translate(`resources.users.role.${abilityChoiceOf(record.abilities) === 'Admin' ? 'admin' : 'non_admin'}`)})</Typography>
      </Stack>
      <RadioButtonGroupInput
        source="ability"
        label={false}
        choices={ABILITY_CHOICES.map((c) => ({ id: c, name: `resources.users.choices.${c}` }))}
      />
      <Stack direction="row" spacing={1} alignItems="center" sx={{ mb: 2 }}>
        <Typography variant="subtitle2">{translate('resources.users.inputs.is_active')}</Typography>
        <StatusDot on={active} />
        <Typography variant="body2">{translate(active ? 'management.status_on' : 'management.status_off')}</Typography>
      </Stack>
      {self && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {translate('resources.users.self_control')}
        </Alert>
      )}
      <CanAccess resource={resource} action="status">
        <Stack direction="row" spacing={2}>
          <SaveButton label="management.submit" alwaysEnable={!self} disabled={self} icon={<span />} />
          <Button variant="contained" color="error" disabled={busy || self} onClick={() => setConfirming(true)}>
            {translate('resources.users.blacklist')}
          </Button>
        </Stack>
      </CanAccess>
      <Box>
        <Confirm
          isOpen={confirming}
          title={active ? 'resources.users.confirm_deactivate' : 'resources.users.confirm_activate'}
          content={active ? 'resources.users.confirm_deactivate_content' : 'resources.users.confirm_activate_content'}
          translateOptions={{ name: `${String(record.name ?? '')} (#${record.id})` }}
          confirm={active ? 'resources.users.deactivate' : 'resources.users.activate'}
          confirmColor="warning"
          onConfirm={toggle}
          onClose={() => setConfirming(false)}
        />
      </Box>
    </Form>
  );
}
