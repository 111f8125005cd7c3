/**
 * The visitor's side of the live chat, a public page at /chat (no sign-in, outside the console's
 * layout): a visitor gives a name and an email, then talks with the admins. Their browser finds the
 * chat again with POST /chat/me (SPEC §7.8) by the cookie the server set when it was opened; the
 * server records the address it sees, whatever the page sends. New answers arrive by the server's
 * event stream, and the page polls every 10 s (SPEC §9.2) in any case.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Alert, Box, Button, Card, CardContent, Stack, TextField, Typography } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { PATHS, type Info } from '../../contract';
import { useConfig } from '../../src/config';
import { LanguageSwitch } from '../../src/layout/LanguageSwitch';
import { useVisitorLocation } from '../../src/currency';
import { registry } from '..';
import { listenToChats, visitorSource } from './events';
import { POLL_MS } from './feed';
import { cardOf, fromVisitor, messagesOf, type Chat } from './rules';
import { MessageBubble, MessageForm } from './Messages';

const KEY = ['visitor-chat'];
const t = (key: string) => `resources.chats.visitor.${key}`;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A contract call without the console's session: the visitor speaks for themselves, by their cookie. */
function useVisitorApi() {
  const { apiUrl } = useConfig();
  return async <D,>(path: string, body: object): Promise<Info<D>> => {
    const res = await fetch(`${apiUrl}${path}`, {
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await res.json().catch(() => null)) as Info<D> | null;
    if (!res.ok || !json?.status) throw Object.assign(new Error(json?.query || res.statusText), { status: res.status });
    return json;
  };
}

export default function VisitorChat() {
  const translate = useTranslate();
  // Shown on the page itself: a public page has no notification area.
  const [problem, setProblem] = useState('');
  const post = useVisitorApi();
  const { apiUrl } = useConfig();
  const queryClient = useQueryClient();
  const ip = useVisitorLocation().connection?.ip ?? '';
  const { data: chat, isPending } = useQuery({
    queryKey: KEY,
    refetchInterval: POLL_MS,
    retry: false,
    queryFn: async () => {
      try {
        return (await post<Chat>(PATHS.chatMe, { user_ip_address: ip })).detail ?? null;
      } catch (error) {
        if ((error as { status?: number }).status === 404) return null;
        throw error;
      }
    },
  });
  const chatId = chat?.id;
  useEffect(() => {
    if (!chatId) return;
    return listenToChats(`visitor:${chatId}`, visitorSource(apiUrl), () => void queryClient.invalidateQueries({ queryKey: KEY }));
  }, [apiUrl, chatId, queryClient]);

  const save = async (body: Record<string, unknown>) => {
    try {
      const { detail } = await post<Chat>(registry.entity('chats').save, body);
      queryClient.setQueryData(KEY, detail ?? null);
      setProblem('');
      return true;
    } catch (error) {
      setProblem((error as Error).message);
      return false;
    }
  };

  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default', display: 'flex', justifyContent: 'center', alignItems: { xs: 'stretch', sm: 'flex-start' }, p: { xs: 0, sm: 4 } }}>
      <Card sx={{ width: '100%', maxWidth: 560 }} component="main">
        <CardContent>
          <Stack direction="row" alignItems="flex-start" justifyContent="space-between" spacing={1}>
            <Typography variant="h5" component="h1" gutterBottom>
              {translate(t('title'))}
            </Typography>
            <LanguageSwitch />
          </Stack>
          {problem && (
            <Alert severity="error" sx={{ mb: 2 }}>
              {problem}
            </Alert>
          )}
          {isPending ? null : chat ? (
            <Conversation chat={chat} onSend={(text) => save({ ...identityOf(chat), id: chat.id, chats: [...messagesOf(chat), { sent: 1, recieved: 0, message: text }] })} />
          ) : (
            <StartForm ip={ip} onStart={(who) => save({ ...who, chats: [] })} />
          )}
        </CardContent>
      </Card>
    </Box>
  );
}

const identityOf = (chat: Chat) => ({ user_name: chat.user_name ?? '', user_email: chat.user_email ?? '', user_ip_address: chat.user_ip_address ?? '' });

function StartForm({ ip, onStart }: { ip: string; onStart: (who: { user_name: string; user_email: string; user_ip_address: string }) => Promise<boolean> }) {
  const translate = useTranslate();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const nameError = touched && !name.trim() ? translate(t('name_required')) : '';
  const emailError = touched && !EMAIL.test(email.trim()) ? translate(t('email_invalid')) : '';
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!name.trim() || !EMAIL.test(email.trim()) || busy) return;
    setBusy(true);
    await onStart({ user_name: name.trim(), user_email: email.trim(), user_ip_address: ip });
    setBusy(false);
  };
  return (
    <Stack component="form" spacing={2} onSubmit={submit} noValidate>
      <Typography color="text.secondary">{translate(t('intro'))}</Typography>
      <TextField id="user_name" label={translate('resources.chats.fields.user_name')} value={name} onChange={(e) => setName(e.target.value)} required error={!!nameError} helperText={nameError || ' '} slotProps={{ htmlInput: { maxLength: 255 } }} />
      <TextField id="user_email" type="email" label={translate('resources.chats.fields.user_email')} value={email} onChange={(e) => setEmail(e.target.value)} required error={!!emailError} helperText={emailError || ' '} slotProps={{ htmlInput: { maxLength: 255 } }} />
      <Button type="submit" variant="contained" disabled={busy}>
        {translate(t('start'))}
      </Button>
    </Stack>
  );
}

function Conversation({ chat, onSend }: { chat: Chat; onSend: (text: string) => Promise<boolean> }) {
  const translate = useTranslate();
  const end = useRef<HTMLDivElement>(null);
  const messages = messagesOf(chat);
  const card = cardOf(chat);
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'nearest' });
  }, [messages.length]);
  return (
    <Stack spacing={2}>
      <Typography variant="body2" color="text.secondary" role="status">
        {card.received ? translate(t('joined'), { name: card.adminName }) : translate(t('waiting'))}
      </Typography>
      <Stack spacing={1} role="log" aria-label={translate('resources.chats.inputs.messages')} sx={{ maxHeight: '60vh', overflowY: 'auto', minHeight: 120 }}>
        {messages.length === 0 && <Typography color="text.secondary">{translate(t('empty'))}</Typography>}
        {messages.map((m, index) => (
          <MessageBubble key={index} message={m} mine={fromVisitor(m)} />
        ))}
        <div ref={end} />
      </Stack>
      <MessageForm onSend={onSend} />
    </Stack>
  );
}
