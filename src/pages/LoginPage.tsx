import { useState } from 'react';
import { Box, Button, Stack } from '@mui/material';
import { Form, Link, TextInput, useLogin, useNotify, useTranslate } from 'react-admin';
import { AuthShell } from './AuthShell';
import { messageOf } from './messages';
import { PasswordField, ShowPasswordToggle } from './PasswordInput';
import { requiredField, requiredSlot } from './validation';

interface LoginValues {
  credential: string;
  password: string;
}

const credentialSlots = { ...requiredSlot, inputLabel: { shrink: true } };

/** Sign in (SPEC §2.2): on success go to /, otherwise show the server's query text. */
export default function LoginPage() {
  const translate = useTranslate();
  const login = useLogin();
  const notify = useNotify();
  const [showPassword, setShowPassword] = useState(false);
  const [pending, setPending] = useState(false);

  const submit = async (values: Record<string, unknown>) => {
    const { credential, password } = values as unknown as LoginValues;
    setPending(true);
    try {
      // No fixed destination: the page asked for before signing in (a session that ended) reopens, or '/'.
      await login({ credential: credential.trim(), password });
    } catch (error) {
      notify(messageOf(error, 'auth.login.failed'), { type: 'error' });
    } finally {
      setPending(false);
    }
  };

  return (
    <AuthShell title={translate('auth.login.title')}>
      <Form onSubmit={submit} noValidate>
        <TextInput
          source="credential"
          label="auth.login.credential"
          placeholder={translate('auth.login.credential_placeholder')}
          validate={requiredField}
          autoComplete="username"
          autoFocus
          helperText={false}
          slotProps={credentialSlots}
        />
        <PasswordField
          source="password"
          label="auth.password"
          visible={showPassword}
          validate={requiredField}
          autoComplete="current-password"
          helperText={false}
          slotProps={requiredSlot}
        />
        <ShowPasswordToggle checked={showPassword} onChange={setShowPassword} />
        <Button type="submit" variant="contained" size="large" fullWidth loading={pending} sx={{ mt: 2 }}>
          {translate('auth.login.submit')}
        </Button>
      </Form>
      <Stack direction="row" sx={{ justifyContent: 'space-between', flexWrap: 'wrap', gap: 1, mt: 2.5, fontSize: 14 }}>
        <Link to="/forgot-password">{translate('auth.login.forgot_password')}</Link>
        <Box component="span">
          <Link to="/register">{translate('auth.login.no_account')}</Link>
        </Box>
      </Stack>
    </AuthShell>
  );
}
