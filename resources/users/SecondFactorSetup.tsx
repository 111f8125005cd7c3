/**
 * Where an admin (ADMIN_SECOND_FACTOR=required) or a seller (SELLER_SECOND_FACTOR=required) without a
 * second factor is led after signing in or registering (issue 26): outside the console's layout (the
 * server answers nothing else until a factor is set up), the same parts as the account page, then
 * on to the console.
 */
import { Button, Stack, Typography } from '@mui/material';
import { useLogout, useRedirect, useTranslate } from 'react-admin';
import { AuthShell } from '../../src/pages/AuthShell';
import { SecondFactorParts, useFactorStatus } from './SecondFactorSection';

const T = 'resources.users.second_factor';

export default function SecondFactorSetup() {
  const translate = useTranslate();
  const status = useFactorStatus();
  const redirect = useRedirect();
  const logout = useLogout();
  const ready = (status.data?.second_factor.length ?? 0) > 0;
  return (
    <AuthShell title={translate(`${T}.setup_title`)}>
      <Typography sx={{ mb: 2 }}>{translate(`${T}.setup_intro`)}</Typography>
      <SecondFactorParts />
      <Stack direction="row" spacing={1} sx={{ mt: 3, justifyContent: 'space-between' }}>
        <Button onClick={() => logout()}>{translate('ra.auth.logout')}</Button>
        <Button variant="contained" disabled={!ready} onClick={() => redirect('/')}>
          {translate(`${T}.continue`)}
        </Button>
      </Stack>
    </AuthShell>
  );
}
