/**
 * The template as its recipient would read it: rendered, as the server renders it, with the sample
 * values of the template's event, beside the variables the event offers. Plain text with line
 * breaks (nothing in a template or a value is shown as markup). A template that does not render
 * says why. 'Send a test mail to me' mails what the form holds, with the same sample values.
 */
import { useMemo, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { Alert, Box, Button, Chip, Divider, Paper, Stack, Typography } from '@mui/material';
import { useDataProvider, useNotify, useRecordContext, useTranslate } from 'react-admin';
import { MAIL_PATHS } from '../../contract';
import type { MarketplaceDataProvider } from '../../dataProvider';
import { messageOf } from '../../src/pages/messages';
import type { FieldProps } from '../../src/screens/types';
import { eventOf } from './events';
import { renderMail, templateProblem } from './render';

const text = (value: unknown) => (typeof value === 'string' ? value : '');

export default function MessagePreview({ name }: FieldProps) {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<MarketplaceDataProvider>();
  const record = useRecordContext();
  const [sending, setSending] = useState(false);
  const [from, subject, message] = (useWatch({ name: ['from_email', 'subject', 'message'] }) as unknown[]).map(text);
  const event = eventOf(record?.serial);
  const key = (part: string) => `resources.${name}.preview.${part}`;
  const shown = useMemo(() => {
    const problem = templateProblem({ subject, message }, event);
    if (problem) return { problem };
    try {
      return { mail: renderMail({ subject, message }, event?.variables ?? {}) };
    } catch (error) {
      return { problem: String(error instanceof Error ? error.message : error) };
    }
  }, [subject, message, event]);

  const sendTest = async () => {
    setSending(true);
    try {
      const { query } = await dataProvider.call(MAIL_PATHS.test, { id: record!.id, from_email: from, subject, message });
      notify(query || 'management.done', { type: 'success' });
    } catch (error) {
      notify(messageOf(error, translate('management.failed')), { type: 'error' });
    } finally {
      setSending(false);
    }
  };

  return (
    <Stack spacing={2} sx={{ mb: 2 }}>
      <Box component="section" aria-label={translate(key('variables'))}>
        <Typography variant="subtitle2">{translate(key('variables'))}</Typography>
        {event ? (
          <>
            <Typography variant="body2" color="text.secondary">{translate(key('variables_help'))}</Typography>
            <Stack direction="row" useFlexGap sx={{ flexWrap: 'wrap', gap: 1, mt: 1 }}>
              {Object.entries(event.variables).map(([variable, sample]) => (
                <Chip key={variable} size="small" variant="outlined" label={`{{ ${variable} }} · ${String(sample)}`} />
              ))}
            </Stack>
          </>
        ) : (
          <Typography variant="body2" color="text.secondary">{translate(key('no_event'))}</Typography>
        )}
      </Box>
      <Paper variant="outlined" component="section" aria-label={translate(key('title'))} sx={{ p: 2 }}>
        <Typography variant="overline" color="text.secondary">
          {translate(key('title'))}
        </Typography>
        {shown.mail ? (
          <>
            <Stack spacing={0.5} sx={{ mb: 1 }}>
              <Typography variant="body2">
                <strong>{translate(key('from'))}</strong> {from}
              </Typography>
              <Typography variant="body2">
                <strong>{translate(key('subject'))}</strong> {shown.mail.subject}
              </Typography>
            </Stack>
            <Divider />
            <Typography variant="body1" sx={{ pt: 1, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {shown.mail.text || translate(key('empty'))}
            </Typography>
          </>
        ) : (
          <Alert severity="warning">{translate(key('invalid'), { problem: shown.problem })}</Alert>
        )}
      </Paper>
      {record && (
        <Box>
          <Button variant="outlined" onClick={sendTest} disabled={sending || !shown.mail}>
            {translate(key('send_test'))}
          </Button>
        </Box>
      )}
    </Stack>
  );
}
