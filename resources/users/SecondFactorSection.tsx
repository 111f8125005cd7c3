/**
 * The account page's second factor (issue 26): authenticator codes (a QR code and the secret, a code
 * to confirm, then 10 recovery codes shown once; off with a current code) and passkeys (several,
 * named, removable) through `POST /user/second-factor`. The enrolment page an admin is led to under
 * ADMIN_SECOND_FACTOR=required shows the same parts (SecondFactorSetup).
 */
import { useState, type ReactNode } from 'react';
import { Alert, Box, Button, List, ListItem, ListItemText, Paper, Stack, TextField, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { browserSupportsWebAuthn, startRegistration } from '@simplewebauthn/browser';
import { useDataProvider, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { PATHS } from '../../contract';
import type { MarketplaceDataProvider } from '../../dataProvider';
import { messageOf } from '../../src/pages/messages';

const T = 'resources.users.second_factor';

export interface FactorStatus {
  totp: boolean;
  passkeys: { id: number; name: string; created_at: string; last_used_at: string | null }[];
  recovery_left: number;
  second_factor: string[];
}

/** `POST /user/second-factor` with the error notified; resolves to the envelope, or null when refused. */
export function useSecondFactorCall() {
  const dataProvider = useDataProvider<MarketplaceDataProvider>();
  const notify = useNotify();
  const translate = useTranslate();
  return async <D = unknown,>(body: Record<string, unknown>, quiet = false) => {
    try {
      const answer = await dataProvider.call<D>(PATHS.secondFactor, body);
      if (!quiet && answer.query) notify(answer.query, { type: 'success' });
      return answer;
    } catch (error) {
      notify(messageOf(error, translate('management.failed')), { type: 'error' });
      return null;
    }
  };
}

export function useFactorStatus() {
  const call = useSecondFactorCall();
  return useQuery({
    queryKey: ['account', 'second-factor'],
    queryFn: async () => ((await call<FactorStatus>({ action: 'status' }, true))?.detail ?? null) as FactorStatus | null,
  });
}

/** The codes shown once, with a button to say they are kept. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const translate = useTranslate();
  return (
    <Alert severity="warning" sx={{ mt: 2 }}>
      <Typography variant="subtitle1" component="h3">{translate(`${T}.recovery_title`)}</Typography>
      <Typography variant="body2" sx={{ mb: 1 }}>{translate(`${T}.recovery_intro`)}</Typography>
      <Box component="ul" aria-label={translate(`${T}.recovery_title`)} sx={{ fontFamily: 'monospace', columns: 2, pl: 2, my: 1 }}>
        {codes.map((code) => <li key={code}>{code}</li>)}
      </Box>
      <Button variant="contained" size="small" onClick={onDone}>{translate(`${T}.recovery_done`)}</Button>
    </Alert>
  );
}

/** A code field and a button; the field empties after each try. */
function CodeForm({ label, action, onCode, help }: { label: string; action: string; help?: string; onCode: (code: string) => Promise<void> }) {
  const translate = useTranslate();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  return (
    <Stack
      component="form"
      direction={{ xs: 'column', sm: 'row' }}
      spacing={1}
      sx={{ alignItems: { sm: 'flex-start' }, mt: 1 }}
      onSubmit={async (e) => {
        e.preventDefault();
        if (!code.trim()) return;
        setBusy(true);
        await onCode(code.trim()).finally(() => setBusy(false));
        setCode('');
      }}
    >
      <TextField
        size="small"
        label={label}
        value={code}
        onChange={(e) => setCode(e.target.value)}
        helperText={help}
        autoComplete="one-time-code"
        slotProps={{ htmlInput: { inputMode: 'text', maxLength: 64 } }}
        sx={{ width: { sm: 280 } }}
      />
      <Button type="submit" variant="contained" loading={busy} sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}>{translate(action)}</Button>
    </Stack>
  );
}

/** Setting authenticator codes up: QR code, secret, then a code to confirm; answers the recovery codes. */
export function TotpSetup({ onConfirmed }: { onConfirmed: (codes: string[]) => void }) {
  const translate = useTranslate();
  const call = useSecondFactorCall();
  const [setup, setSetup] = useState<{ secret: string; uri: string; qr: string } | null>(null);
  const begin = async () => {
    const answer = await call<{ secret: string; uri: string }>({ action: 'totp-begin' }, true);
    if (!answer?.detail) return;
    const QRCode = await import('qrcode');
    setSetup({ ...answer.detail, qr: await QRCode.toDataURL(answer.detail.uri, { margin: 1, width: 200 }) });
  };
  if (!setup) return <Button variant="contained" onClick={begin}>{translate(`${T}.turn_on`)}</Button>;
  return (
    <Box>
      <Typography variant="body2">{translate(`${T}.scan`)}</Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ my: 1, alignItems: { sm: 'center' } }}>
        <img src={setup.qr} width={200} height={200} alt={translate(`${T}.qr_alt`)} />
        <Box>
          <Typography variant="caption" component="div">{translate(`${T}.secret`)}</Typography>
          <Typography data-testid="totp-secret" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>{setup.secret}</Typography>
        </Box>
      </Stack>
      <CodeForm
        label={translate(`${T}.code`)}
        action={`${T}.confirm`}
        onCode={async (code) => {
          const answer = await call<{ recovery_codes: string[] }>({ action: 'totp-confirm', code });
          if (answer?.detail) {
            setSetup(null);
            onConfirmed(answer.detail.recovery_codes);
          }
        }}
      />
    </Box>
  );
}

/** Adding a passkey: a name, then the browser's own prompt. */
function AddPasskey({ onAdded }: { onAdded: (codes?: string[]) => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const call = useSecondFactorCall();
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  if (!browserSupportsWebAuthn()) return <Typography color="text.secondary">{translate(`${T}.passkey_unsupported`)}</Typography>;
  const add = async () => {
    setBusy(true);
    try {
      const options = await call<Parameters<typeof startRegistration>[0]['optionsJSON']>({ action: 'passkey-begin' }, true);
      if (!options?.detail) return;
      let credential;
      try {
        credential = await startRegistration({ optionsJSON: options.detail });
      } catch (error) {
        notify(messageOf(error, translate(`${T}.passkey_cancelled`)), { type: 'error' });
        return;
      }
      const done = await call<{ recovery_codes?: string[] }>({ action: 'passkey-finish', credential, name: name.trim() || translate(`${T}.passkey`) });
      if (done) {
        setName('');
        onAdded(done.detail?.recovery_codes);
      }
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ mt: 1, alignItems: { sm: 'flex-start' } }}>
      <TextField size="small" label={translate(`${T}.passkey_name`)} value={name} onChange={(e) => setName(e.target.value)} slotProps={{ htmlInput: { maxLength: 64 } }} sx={{ width: { sm: 280 } }} />
      <Button variant="outlined" onClick={add} loading={busy} sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}>{translate(`${T}.add_passkey`)}</Button>
    </Stack>
  );
}

function Part({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box sx={{ mt: 2 }}>
      <Typography variant="subtitle1" component="h3">{title}</Typography>
      {children}
    </Box>
  );
}

/** The second factor's parts, for the account page and the enrolment page. */
export function SecondFactorParts() {
  const translate = useTranslate();
  const call = useSecondFactorCall();
  const status = useFactorStatus();
  const [codes, setCodes] = useState<string[] | null>(null);
  const [locale] = useLocaleState();
  const reload = async () => void (await status.refetch());
  const confirmed = (fresh?: string[]) => {
    if (fresh) setCodes(fresh);
    void reload();
  };
  if (status.isPending) return null;
  if (!status.data) return <Typography color="text.secondary">{translate(`${T}.unavailable`)}</Typography>;
  const { totp, passkeys, recovery_left: left } = status.data;
  return (
    <Box>
      <Typography variant="body2" color="text.secondary">{translate(`${T}.intro`)}</Typography>
      {codes && <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />}
      <Part title={translate(`${T}.totp`)}>
        {totp ? (
          <>
            <Typography>{translate(`${T}.totp_on`)}</Typography>
            <Typography variant="body2" color="text.secondary">{translate(`${T}.recovery_left`, { count: left })}</Typography>
            <CodeForm
              label={translate(`${T}.code`)}
              action={`${T}.turn_off`}
              help={translate(`${T}.turn_off_help`)}
              onCode={async (code) => {
                if (await call({ action: 'totp-off', code })) await reload();
              }}
            />
          </>
        ) : (
          <>
            <Typography sx={{ mb: 1 }}>{translate(`${T}.totp_off_state`)}</Typography>
            <TotpSetup onConfirmed={confirmed} />
          </>
        )}
      </Part>
      <Part title={translate(`${T}.passkeys`)}>
        {passkeys.length ? (
          <List dense aria-label={translate(`${T}.passkeys`)}>
            {passkeys.map((p) => (
              <ListItem
                key={p.id}
                secondaryAction={
                  <Button size="small" color="warning" onClick={async () => (await call({ action: 'passkey-remove', id: p.id })) && reload()}>
                    {translate(`${T}.remove`)}
                  </Button>
                }
              >
                <ListItemText primary={p.name} secondary={translate(`${T}.added`, { date: new Date(p.created_at).toLocaleString(locale) })} />
              </ListItem>
            ))}
          </List>
        ) : (
          <Typography color="text.secondary">{translate(`${T}.no_passkeys`)}</Typography>
        )}
        <AddPasskey onAdded={confirmed} />
      </Part>
    </Box>
  );
}

/** The account page's section. */
export default function SecondFactorSection() {
  const translate = useTranslate();
  return (
    <Paper variant="outlined" component="section" aria-labelledby="second-factor-title" id="second-factor" sx={{ p: 2, scrollMarginTop: 72 }}>
      <Typography variant="h6" component="h2" id="second-factor-title" sx={{ mb: 1 }}>
        {translate(`${T}.title`)}
      </Typography>
      <SecondFactorParts />
    </Paper>
  );
}
