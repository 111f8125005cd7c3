import { useState } from 'react';
import { Alert, Box, Button } from '@mui/material';
import { Form, Link, TextInput, useLocation, useNotify, useTranslate } from 'react-admin';
import { MIN_PASSWORD_LENGTH } from '../../contract';
import { AuthShell } from './AuthShell';
import { inLanguage, messageOf, useMarketplaceAuth } from './messages';
import { PasswordField } from './PasswordInput';
import { ShowPasswordToggle, requiredSlot } from './authFields';
import { requiredEmail, requiredField } from './validation';

type Outcome = { severity: 'success' | 'error'; text: string } | null;


/** The reset token of a link from the reset mail: ?token=... (also accepted as ?reset_token=...). */
function tokenFrom(search: string): string {
  const params = new URLSearchParams(search);
  return (params.get('token') ?? params.get('reset_token') ?? '').trim();
}

function RequestResetForm() {
  const translate = useTranslate();
  const authProvider = useMarketplaceAuth();
  const [pending, setPending] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);

  const submit = async (values: Record<string, unknown>) => {
    setPending(true);
    setOutcome(null);
    try {
      const text = await authProvider.requestReset(String(values.email ?? '').trim());
      setOutcome({ severity: 'success', text: text || translate('auth.reset.sent') });
    } catch (error) {
      setOutcome({ severity: 'error', text: inLanguage(translate, messageOf(error, translate('auth.reset.failed'))) });
    } finally {
      setPending(false);
    }
  };

  return (
    <Form onSubmit={submit} noValidate>
      <Box component="p" sx={{ mt: 0, mb: 1, color: 'text.secondary', fontSize: 14 }}>
        {translate('auth.reset.intro')}
      </Box>
      <TextInput source="email" label="auth.reset.email" type="email" validate={requiredEmail} autoComplete="email" autoFocus helperText={false} slotProps={requiredSlot} />
      {outcome ? (
        <Alert severity={outcome.severity} role="status" sx={{ mt: 1 }}>
          {outcome.text}
        </Alert>
      ) : null}
      <Button type="submit" variant="contained" size="large" fullWidth loading={pending} sx={{ mt: 2 }}>
        {translate('auth.reset.submit')}
      </Button>
    </Form>
  );
}

function NewPasswordForm({ resetToken }: { resetToken: string }) {
  const translate = useTranslate();
  const notify = useNotify();
  const authProvider = useMarketplaceAuth();
  const [showPassword, setShowPassword] = useState(false);
  const [pending, setPending] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const submit = async (values: Record<string, unknown>) => {
    const password = String(values.password ?? '');
    if (password.length < MIN_PASSWORD_LENGTH) {
      notify('validation.password_min', { type: 'warning' });
      return;
    }
    setPending(true);
    setFailure(null);
    try {
      const text = await authProvider.resetPassword({ reset_token: resetToken, password });
      setDone(text || translate('auth.reset.changed'));
    } catch (error) {
      setFailure(inLanguage(translate, messageOf(error, translate('auth.reset.failed'))));
    } finally {
      setPending(false);
    }
  };

  if (done !== null) {
    return (
      <Alert severity="success" role="status">
        {done}
      </Alert>
    );
  }

  return (
    <Form onSubmit={submit} noValidate>
      <Box component="p" sx={{ mt: 0, mb: 1, color: 'text.secondary', fontSize: 14 }}>
        {translate('auth.reset.new_password_intro')}
      </Box>
      <PasswordField
        source="password"
        label="auth.reset.new_password"
        visible={showPassword}
        validate={requiredField}
        autoComplete="new-password"
        autoFocus
        helperText={false}
        slotProps={requiredSlot}
      />
      <ShowPasswordToggle checked={showPassword} onChange={setShowPassword} />
      {failure ? (
        <Alert severity="error" role="status" sx={{ mt: 1 }}>
          {failure}
        </Alert>
      ) : null}
      <Button type="submit" variant="contained" size="large" fullWidth loading={pending} sx={{ mt: 2 }}>
        {translate('auth.reset.submit_new_password')}
      </Button>
    </Form>
  );
}

/**
 * Reset password (SPEC §2.4, DESIGN D8): ask for a reset mail, or, opened from the mail's link
 * with ?token=..., choose a new password.
 */
export default function ResetPasswordPage() {
  const translate = useTranslate();
  const { search } = useLocation();
  const resetToken = tokenFrom(search);
  return (
    <AuthShell title={translate('auth.reset.title')}>
      {resetToken ? <NewPasswordForm resetToken={resetToken} /> : <RequestResetForm />}
      <Box sx={{ mt: 2.5, fontSize: 14, textAlign: 'center' }}>
        <Link to="/login">{translate('auth.reset.back_to_login')}</Link>
      </Box>
    </AuthShell>
  );
}
