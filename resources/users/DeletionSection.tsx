/**
 * Asking for the account's deletion from the account page (SPEC §3.18, §4.6): feedback, then a
 * confirmation before anything is sent; the request goes through the deletion requests' save, the
 * server naming the asker. The user sees their latest request's state (`POST /deletion/mine`, an
 * extension); while one waits for an administrator, no other can be made (the server refuses it too).
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Stack, Typography } from '@mui/material';
import { Confirm, Form, TextInput, required, useDataProvider, useLocaleState, useTranslate } from 'react-admin';
import { useFormContext } from 'react-hook-form';
import type { MarketplaceDataProvider } from '../../dataProvider';
import { registry } from '../index';
import { Section, useAnswer } from './AccountSection';

const T = 'resources.users.deletion_request';
export const MINE_PATH = '/deletion/mine';

interface OwnRequest {
  id: number;
  deletion_status: string;
  created_at: string;
}

/** How a request's state reads to its asker. */
const STATE: Record<string, string> = { 'No action': 'waiting', 'Deletion rejected by admin': 'rejected', Deleted: 'deleted' };

/** 'Ask for deletion': checks the form, then asks for confirmation before sending. */
function AskButton({ onSend }: { onSend: (feedback: string) => Promise<void> }) {
  const translate = useTranslate();
  const { handleSubmit, getValues } = useFormContext();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="outlined" color="error" onClick={() => void handleSubmit(() => setOpen(true))()}>
        {translate(`${T}.ask`)}
      </Button>
      <Confirm
        isOpen={open}
        title={`${T}.confirm_title`}
        content={`${T}.confirm_content`}
        onConfirm={async () => {
          setOpen(false);
          await onSend(String(getValues('feedback') ?? ''));
        }}
        onClose={() => setOpen(false)}
      />
    </>
  );
}

export default function DeletionSection() {
  const translate = useTranslate();
  const dataProvider = useDataProvider<MarketplaceDataProvider>();
  const answer = useAnswer();
  const [locale] = useLocaleState();
  const mine = useQuery({
    queryKey: ['account', 'deletions'],
    queryFn: async () => ((await dataProvider.call<unknown, OwnRequest[]>(MINE_PATH)).HLL ?? []) as OwnRequest[],
    retry: false,
  });
  const latest = mine.data?.[0];
  const open = latest?.deletion_status === 'No action';
  const send = async (feedback: string) => {
    try {
      answer.success((await dataProvider.call(registry.entity('deletions').save, { feedback })).query);
    } catch (error) {
      answer.failure(error);
    }
    await mine.refetch();
  };
  return (
    <Section id="deletion" title={translate(`${T}.title`)}>
      <Stack spacing={1}>
        <Typography variant="body2" color="text.secondary">{translate(`${T}.help`)}</Typography>
        {mine.error ? (
          <Typography variant="body2" color="text.secondary">{translate(`${T}.unavailable`)}</Typography>
        ) : (
          latest && (
            <Alert severity={open ? 'info' : latest.deletion_status === 'Deleted' ? 'success' : 'warning'} data-testid="deletion-state">
              {translate(`${T}.state`, {
                date: new Date(latest.created_at).toLocaleDateString(locale),
                state: translate(`${T}.${STATE[latest.deletion_status] ?? 'waiting'}`),
              })}
              {open && <> {translate(`${T}.open`)}</>}
            </Alert>
          )
        )}
        {!open && (
          <Form key={latest?.id ?? 0}>
            <TextInput source="feedback" label={`${T}.feedback`} validate={required()} multiline minRows={5} />
            <AskButton onSend={send} />
          </Form>
        )}
      </Stack>
    </Section>
  );
}
