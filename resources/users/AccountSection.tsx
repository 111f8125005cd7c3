/** The account page's parts: a titled section, and a save's answer shown as a notification. */
import type { ReactNode } from 'react';
import { Paper, Typography } from '@mui/material';
import { useNotify, useTranslate } from 'react-admin';
import { messageOf } from '../../src/pages/messages';

export function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" component="section" aria-labelledby={`${id}-title`} id={id} sx={{ p: 2, scrollMarginTop: 72 }}>
      <Typography variant="h6" component="h2" id={`${id}-title`} tabIndex={-1} sx={{ mb: 1, '&:focus': { outline: 'none' } }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

export function useAnswer() {
  const notify = useNotify();
  const translate = useTranslate();
  return {
    success: (query: string | undefined) => notify(query || 'management.done', { type: 'success' }),
    failure: (error: unknown) => notify(messageOf(error, translate('management.failed')), { type: 'error' }),
  };
}
