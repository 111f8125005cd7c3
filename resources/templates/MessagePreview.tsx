/**
 * The template as its recipient would read it: sender, subject and message as they are typed,
 * shown as plain text (nothing in a template is run as markup), line breaks kept.
 */
import { useWatch } from 'react-hook-form';
import { Divider, Paper, Stack, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { FieldProps } from '../types';

const text = (value: unknown) => (typeof value === 'string' ? value : '');

export default function MessagePreview({ name }: FieldProps) {
  const translate = useTranslate();
  const [from, subject, message] = useWatch({ name: ['from_email', 'subject', 'message'] }) as unknown[];
  return (
    <Paper variant="outlined" component="section" aria-label={translate(`resources.${name}.preview.title`)} sx={{ p: 2, mb: 2 }}>
      <Typography variant="overline" color="text.secondary">
        {translate(`resources.${name}.preview.title`)}
      </Typography>
      <Stack spacing={0.5} sx={{ mb: 1 }}>
        <Typography variant="body2">
          <strong>{translate(`resources.${name}.preview.from`)}</strong> {text(from)}
        </Typography>
        <Typography variant="body2">
          <strong>{translate(`resources.${name}.preview.subject`)}</strong> {text(subject)}
        </Typography>
      </Stack>
      <Divider />
      <Typography variant="body1" sx={{ pt: 1, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {text(message) || translate(`resources.${name}.preview.empty`)}
      </Typography>
    </Paper>
  );
}
