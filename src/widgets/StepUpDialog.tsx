/**
 * Step-up (issue 26): when a call is refused for want of a fresh second factor, this dialog asks for
 * a code (or the passkey) and the call is sent again once the server has confirmed it
 * (dataProvider/http.ts's onStepUp). Cancelling leaves the refusal to be shown as it came.
 */
import { useEffect, useRef, useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, TextField } from '@mui/material';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import { PATHS, type SecondFactorDetail } from '../../contract';
import { onStepUp, type MarketplaceDataProvider } from '../../dataProvider';
import { messageOf } from '../pages/messages';

const T = 'second_factor';

export function StepUpDialog() {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<MarketplaceDataProvider>();
  const [asking, setAsking] = useState<SecondFactorDetail | null>(null);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const pending = useRef<{ resolve: () => void; reject: (e: Error) => void } | null>(null);

  useEffect(() => {
    onStepUp(
      (detail) =>
        new Promise<void>((resolve, reject) => {
          pending.current?.reject(new Error('cancelled'));
          pending.current = { resolve, reject };
          setCode('');
          setAsking(detail);
        }),
    );
    return () => onStepUp(null);
  }, []);

  const finish = (ok: boolean) => {
    const waiting = pending.current;
    pending.current = null;
    setAsking(null);
    if (ok) waiting?.resolve();
    else waiting?.reject(new Error('cancelled'));
  };
  const verify = async (body: Record<string, unknown>) => {
    setBusy(true);
    try {
      await dataProvider.call(PATHS.secondFactor, body);
      finish(true);
    } catch (error) {
      notify(messageOf(error, translate('management.failed')), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  const passkey = async () => {
    try {
      const { startAuthentication } = await import('@simplewebauthn/browser');
      const options = await dataProvider.call<Parameters<typeof startAuthentication>[0]['optionsJSON']>(PATHS.secondFactor, { action: 'passkey-options' });
      const credential = await startAuthentication({ optionsJSON: options.detail! });
      await verify({ action: 'passkey-verify', credential });
    } catch (error) {
      notify(messageOf(error, translate('management.failed')), { type: 'error' });
    }
  };

  return (
    <Dialog open={asking !== null} onClose={() => finish(false)} aria-labelledby="step-up-title">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (code.trim()) void verify({ action: 'verify', code: code.trim() });
        }}
      >
        <DialogTitle id="step-up-title">{translate(`${T}.step_up_title`)}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{translate(`${T}.step_up_intro`)}</DialogContentText>
          <TextField
            autoFocus
            fullWidth
            size="small"
            label={translate(`${T}.code`)}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            autoComplete="one-time-code"
            slotProps={{ htmlInput: { maxLength: 64 } }}
          />
        </DialogContent>
        <DialogActions>
          {asking?.second_factor.includes('passkey') && <Button onClick={passkey}>{translate(`${T}.use_passkey`)}</Button>}
          <Button onClick={() => finish(false)}>{translate('ra.action.cancel')}</Button>
          <Button type="submit" variant="contained" loading={busy}>{translate(`${T}.confirm`)}</Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
