import { useRef, useState, type FormEvent } from 'react';
import { Box, Button, Stack, TextField } from '@mui/material';
import { Link, useDataProvider, useLogin, useNotify, useTranslate } from 'react-admin';
import type { MarketplaceDataProvider } from '../../dataProvider';
import { AuthShell } from './AuthShell';
import { messageOf } from './messages';
import { ShowPasswordToggle, requiredSlot } from './authFields';
import { PATHS, type SecondFactorDetail } from '../../contract';

/** The second factors a refused sign-in asks for (issue 26), read from the error's envelope. */
function askedFactor(error: unknown): SecondFactorDetail | null {
  const body = error && typeof error === 'object' && 'body' in error ? (error as { body: unknown }).body : null;
  const detail = body && typeof body === 'object' && 'detail' in body ? (body as { detail: unknown }).detail : null;
  return detail && typeof detail === 'object' && Array.isArray((detail as SecondFactorDetail).second_factor) ? (detail as SecondFactorDetail) : null;
}

type Field = 'credential' | 'password';

/**
 * Sign in (SPEC §2.2): on success go to /, otherwise show the server's query text.
 * The first page most people load: its two fields are plain MUI inputs, drawn as react-admin's
 * TextInput draws them (filled, dense, the same 'Required' message), so react-admin's form library
 * loads with the next screen instead of before it (the register and reset pages use it).
 */
export default function LoginPage() {
  const translate = useTranslate();
  const login = useLogin();
  const notify = useNotify();
  const [values, setValues] = useState<Record<Field, string>>({ credential: '', password: '' });
  const [tried, setTried] = useState(false);
  const [showPassword, setShowPassword] = useState(false);
  const [pending, setPending] = useState(false);
  // An account with a second factor: after the right password, a code (or its passkey) is asked for.
  const [factor, setFactor] = useState<SecondFactorDetail | null>(null);
  const [otp, setOtp] = useState('');
  const dataProvider = useDataProvider<MarketplaceDataProvider>();
  // Whether this browser can use passkeys (without loading the WebAuthn library for the check).
  const hasWebAuthn = typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';
  const credentialRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  const missing = (field: Field) => tried && values[field].trim() === '';
  const input = (field: Field) => ({
    value: values[field],
    onChange: (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value })),
    error: missing(field),
    helperText: missing(field) ? translate('ra.validation.required') : undefined,
    variant: 'filled' as const,
    size: 'small' as const,
    margin: 'dense' as const,
    fullWidth: true,
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    // As react-admin's forms do: the first field left empty takes the focus.
    const empty = [credentialRef, passwordRef].find((ref) => ref.current?.value.trim() === '');
    if (empty) return empty.current?.focus();
    if (factor && !otp.trim()) return;
    await attempt(factor ? { otp: otp.trim() } : {});
  };

  const attempt = async (second: { otp?: string; passkey?: unknown }) => {
    setPending(true);
    try {
      // No fixed destination: the page asked for before signing in (a session that ended) reopens, or '/'.
      await login({ credential: values.credential.trim(), password: values.password, ...second });
    } catch (error) {
      const asked = askedFactor(error);
      if (asked) {
        setFactor((before) => ({ ...asked, passkey: asked.passkey ?? before?.passkey }));
        setOtp('');
      }
      // The first time the code is asked for, the field says so; after that, what went wrong.
      if (!asked || factor) notify(messageOf(error, 'auth.login.failed'), { type: 'error' });
    } finally {
      setPending(false);
    }
  };

  // A passkey instead of the password: any passkey of this site the browser holds.
  const passkeyInstead = async () => {
    try {
      const { startAuthentication } = await import('@simplewebauthn/browser');
      const options = await dataProvider.call<Record<string, unknown>>(PATHS.passkeyOptions);
      const passkey = await startAuthentication({ optionsJSON: options.detail as never });
      setPending(true);
      await login({ passkey });
    } catch (error) {
      notify(messageOf(error, 'auth.login.failed'), { type: 'error' });
    } finally {
      setPending(false);
    }
  };

  const usePasskey = async () => {
    if (!factor?.passkey) return;
    try {
      const { startAuthentication } = await import('@simplewebauthn/browser');
      const passkey = await startAuthentication({ optionsJSON: factor.passkey as never });
      await attempt({ passkey });
    } catch (error) {
      notify(messageOf(error, 'auth.login.failed'), { type: 'error' });
    }
  };

  return (
    <AuthShell title={translate('auth.login.title')}>
      <form onSubmit={submit} noValidate>
        <TextField
          {...input('credential')}
          inputRef={credentialRef}
          label={translate('auth.login.credential')}
          placeholder={translate('auth.login.credential_placeholder')}
          autoComplete="username"
          autoFocus
          slotProps={{ ...requiredSlot, inputLabel: { shrink: true } }}
        />
        <TextField
          {...input('password')}
          inputRef={passwordRef}
          label={translate('auth.password')}
          type={showPassword ? 'text' : 'password'}
          autoComplete="current-password"
          slotProps={requiredSlot}
        />
        <ShowPasswordToggle checked={showPassword} onChange={setShowPassword} />
        {factor && (
          <TextField
            value={otp}
            onChange={(e) => setOtp(e.target.value)}
            variant="filled"
            size="small"
            margin="dense"
            fullWidth
            autoFocus
            label={translate('second_factor.code')}
            helperText={translate('second_factor.sign_in_help')}
            autoComplete="one-time-code"
            slotProps={{ htmlInput: { maxLength: 64 } }}
          />
        )}
        <Button type="submit" variant="contained" size="large" fullWidth loading={pending} sx={{ mt: 2 }}>
          {translate(factor ? 'second_factor.verify' : 'auth.login.submit')}
        </Button>
        {factor?.second_factor.includes('passkey') && factor.passkey && (
          <Button variant="outlined" size="large" fullWidth onClick={usePasskey} disabled={pending} sx={{ mt: 1 }}>
            {translate('second_factor.use_passkey')}
          </Button>
        )}
        {!factor && hasWebAuthn && (
          <Button variant="text" fullWidth onClick={passkeyInstead} disabled={pending} sx={{ mt: 1 }}>
            {translate('second_factor.sign_in_with_passkey')}
          </Button>
        )}
      </form>
      <Stack direction="row" sx={{ justifyContent: 'space-between', flexWrap: 'wrap', gap: 1, mt: 2.5, fontSize: 14 }}>
        <Link to="/forgot-password">{translate('auth.login.forgot_password')}</Link>
        <Box component="span">
          <Link to="/register">{translate('auth.login.no_account')}</Link>
        </Box>
      </Stack>
    </AuthShell>
  );
}
