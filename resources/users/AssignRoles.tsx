/**
 * 'Assign Roles' (SPEC §2.14, §6.2): one switch per access of the navigation list, leaving out the
 * 'my' and dashboard entries (registry.assignable). A switch the signed-in admin cannot turn is
 * disabled with the reason (a token they do not hold, a user who is not an admin, themselves).
 * Saving sends /user/assign-role {id, granted_accesses}; the list refreshes in place (DESIGN D4).
 */
import { useState } from 'react';
import { Alert, Box, Button, FormControlLabel, FormHelperText, Stack, Switch, Typography } from '@mui/material';
import { CanAccess, useDataProvider, useGetIdentity, useNotify, useRefresh, useTranslate } from 'react-admin';
import { roleOf } from '../../contract';
import type { MarketplaceDataProvider } from '../../dataProvider';
import { messageOf } from '../../src/pages/messages';
import { registry } from '../index';
import type { PanelProps } from '../../src/screens/types';
import { grantedOf, switchProblem, tokensToSend } from './rules';

export default function AssignRoles({ record, resource }: PanelProps) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const dataProvider = useDataProvider<MarketplaceDataProvider>();
  const { identity } = useGetIdentity();
  const assignable = registry.assignable;
  const [chosen, setChosen] = useState<string[]>(() => grantedOf(record?.granted_accesses, assignable));
  const [saving, setSaving] = useState(false);
  if (!record) return <Typography>{translate('management.select_record')}</Typography>;
  const notAdmin = roleOf(record.abilities) !== 'admin';
  const save = async () => {
    setSaving(true);
    try {
      const query = await dataProvider.assignRole(record.id, tokensToSend(chosen, assignable));
      notify(query || 'management.done', { type: 'success' });
      refresh();
    } catch (error) {
      notify(messageOf(error, translate('management.failed')), { type: 'error' });
    } finally {
      setSaving(false);
    }
  };
  return (
    <Stack spacing={2}>
      {notAdmin && <Alert severity="info">{translate('resources.users.roles.not_admin')}</Alert>}
      <Box
        role="group"
        aria-label={translate('resources.users.roles.tab')}
        sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(3, 1fr)' }, gap: 1 }}
      >
        {assignable.map((token) => {
          const problem = identity ? switchProblem(token, identity, record) : 'management.loading';
          const on = chosen.includes(token);
          return (
            <Box key={token}>
              <FormControlLabel
                control={
                  <Switch
                    checked={on}
                    disabled={problem !== null}
                    onChange={(_e, checked) => setChosen((list) => (checked ? [...list, token] : list.filter((t) => t !== token)))}
                    slotProps={{ input: { 'aria-describedby': problem && !notAdmin ? `why-${token}` : undefined } }}
                  />
                }
                label={translate(`menu.${token}`)}
              />
              {problem && problem !== 'resources.users.roles.not_admin' && (
                <FormHelperText id={`why-${token}`} sx={{ mt: -0.5, ml: 6 }}>
                  {translate(problem)}
                </FormHelperText>
              )}
            </Box>
          );
        })}
      </Box>
      <CanAccess resource={resource} action="status">
        <Box>
          <Button variant="contained" onClick={save} disabled={saving || notAdmin}>
            {translate('management.save')}
          </Button>
        </Box>
      </CanAccess>
    </Stack>
  );
}
