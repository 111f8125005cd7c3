import { useState } from 'react';
import { Box, Button, Checkbox, FormControlLabel, FormHelperText, Link as MuiLink, useTheme } from '@mui/material';
import {
  Form, Link, TextInput, useAuthState, useNavigate, useNotify, useTranslate,
} from 'react-admin';
import { MIN_PASSWORD_LENGTH } from '../../contract';
import { useConfig } from '../config';
import { AuthShell } from './AuthShell';
import { messageOf, useMarketplaceAuth } from './messages';
import { PasswordField } from './PasswordInput';
import { ShowPasswordToggle, requiredSlot } from './authFields';
import { requiredEmail, requiredField } from './validation';

interface RegisterValues {
  name: string;
  email: string;
  phone: string;
  password: string;
}

const defaultValues = { name: '', email: '', phone: '+', password: '' };

/**
 * Create an account (SPEC §2.3, §5). Nothing is sent while the password is shorter than 8
 * characters or the terms are not accepted; on success the new session is live and the browser
 * goes to /.
 */
export default function RegisterPage() {
  const translate = useTranslate();
  const theme = useTheme();
  const notify = useNotify();
  const navigate = useNavigate();
  const { termsUrl } = useConfig();
  const authProvider = useMarketplaceAuth();
  // The same query react-admin's router reads to decide whether the user is signed in.
  const { refetch: recheckAuth } = useAuthState(undefined, false, { enabled: false });
  const [showPassword, setShowPassword] = useState(false);
  const [termsAccepted, setTermsAccepted] = useState(false);
  const [termsError, setTermsError] = useState(false);
  const [pending, setPending] = useState(false);

  const submit = async (values: Record<string, unknown>) => {
    const { name, email: mail, phone, password } = values as unknown as RegisterValues;
    const passwordTooShort = (password ?? '').length < MIN_PASSWORD_LENGTH;
    if (passwordTooShort) notify('validation.password_min', { type: 'warning' });
    if (!termsAccepted) setTermsError(true);
    if (passwordTooShort || !termsAccepted) return;

    setPending(true);
    try {
      const next = await authProvider.register({ name: name.trim(), email: mail.trim(), phone: phone.trim(), password });
      await recheckAuth();
      navigate(next.redirectTo ?? '/');
    } catch (error) {
      notify(messageOf(error, 'auth.register.failed'), { type: 'error' });
    } finally {
      setPending(false);
    }
  };

  const onTermsChange = (checked: boolean) => {
    setTermsAccepted(checked);
    if (checked) setTermsError(false);
  };

  return (
    <AuthShell title={translate('auth.register.title')}>
      <Form onSubmit={submit} defaultValues={defaultValues} noValidate>
        <TextInput source="name" label="auth.register.name" validate={requiredField} autoComplete="name" autoFocus helperText={false} slotProps={requiredSlot} />
        <TextInput source="email" label="auth.register.email" type="email" validate={requiredEmail} autoComplete="email" helperText={false} slotProps={requiredSlot} />
        <TextInput source="phone" label="auth.register.phone" type="tel" validate={requiredField} autoComplete="tel" helperText={false} slotProps={requiredSlot} />
        <PasswordField
          source="password"
          label="auth.password"
          visible={showPassword}
          validate={requiredField}
          autoComplete="new-password"
          helperText={false}
          slotProps={requiredSlot}
        />
        <ShowPasswordToggle checked={showPassword} onChange={setShowPassword} />
        <Box>
          <FormControlLabel
            control={
              <Checkbox
                size="small"
                checked={termsAccepted}
                onChange={(event) => onTermsChange(event.target.checked)}
                slotProps={{ input: { 'aria-invalid': termsError, 'aria-describedby': termsError ? 'terms-error' : undefined } }}
              />
            }
            label={
              <>
                {translate('auth.register.terms_prefix')}{' '}
                <MuiLink
                  href={termsUrl}
                  target="_blank"
                  rel="noopener noreferrer"
                  data-testid="terms-link"
                  data-invalid={termsError ? 'true' : undefined}
                  style={termsError ? { outline: `2px solid ${theme.palette.error.main}`, outlineOffset: 2, borderRadius: 2 } : undefined}
                >
                  {translate('auth.register.terms_link')}
                </MuiLink>
              </>
            }
            sx={{ '& .MuiFormControlLabel-label': { fontSize: 14 } }}
          />
          {termsError ? (
            <FormHelperText id="terms-error" error sx={{ mt: -0.5, mb: 0.5 }}>
              {translate('auth.register.terms_required')}
            </FormHelperText>
          ) : null}
        </Box>
        <Button type="submit" variant="contained" size="large" fullWidth loading={pending} sx={{ mt: 2 }}>
          {translate('auth.register.submit')}
        </Button>
      </Form>
      <Box sx={{ mt: 2.5, fontSize: 14, textAlign: 'center' }}>
        <Link to="/login">{translate('auth.register.have_account')}</Link>
      </Box>
    </AuthShell>
  );
}
