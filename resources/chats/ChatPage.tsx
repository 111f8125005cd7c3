/**
 * Live chat (SPEC §2.28): one card per chat, 'Incoming' with 'Accept' until an admin joins, then
 * 'Received' with who and when; an open chat shows its last six messages, 'Load previous', 'X' to
 * close and 'Type here...' with '>' to answer. The list is polled every 10 s (SPEC §9.2) and, from
 * the reference server, refreshed the moment a chat changes (its event stream, ./events.ts).
 */
import { useEffect, useState } from 'react';
import { Box, Button, Card, CardActions, CardContent, Chip, IconButton, Link, Paper, Stack, Typography } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Title, useDataProvider, useGetIdentity, useNotify, useTranslate } from 'react-admin';
import type { MarketplaceDataProvider } from '../../dataProvider';
import { usePresentPoll } from '../../src/widgets/presence';
import { registry } from '..';
import { CHATS_KEY, POLL_MS, UNREAD_KEY, loadChats, useAdminChatEvents, useMarkSeen } from './feed';
import { adminSave, cardOf, fromVisitor, messagesOf, shownMessages, type Chat } from './rules';
import { MessageBubble, MessageForm } from './Messages';

export { POLL_MS };
const t = (key: string) => `resources.chats.inputs.${key}`;

function useChats() {
  const dataProvider = useDataProvider<MarketplaceDataProvider>();
  useAdminChatEvents();
  const poll = usePresentPoll(CHATS_KEY, POLL_MS);
  return useQuery({ queryKey: CHATS_KEY, refetchInterval: poll, queryFn: () => loadChats(dataProvider) });
}

function useSaveChat() {
  const dataProvider = useDataProvider<MarketplaceDataProvider>();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const { identity } = useGetIdentity();
  return async (chat: Chat, message?: string) => {
    try {
      await dataProvider.call(registry.entity('chats').save, adminSave(chat, String(identity?.fullName ?? ''), new Date(), message));
      await Promise.all([queryClient.invalidateQueries({ queryKey: CHATS_KEY }), queryClient.invalidateQueries({ queryKey: UNREAD_KEY })]);
      return true;
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
      return false;
    }
  };
}

function ChatCard({ chat, open, onOpen }: { chat: Chat; open: boolean; onOpen: () => void }) {
  const translate = useTranslate();
  const save = useSaveChat();
  const card = cardOf(chat);
  return (
    <Card variant="outlined" sx={{ width: { xs: '100%', sm: 260 }, borderColor: open ? 'primary.main' : undefined }} role="article" aria-label={chat.user_name ?? ''}>
      <CardContent sx={{ pb: 1 }}>
        <Chip size="small" color={card.received ? 'success' : 'warning'} label={translate(`resources.chats.choices.${card.received ? 'received' : 'incoming'}`)} />
        <Typography sx={{ fontWeight: 600, mt: 1 }}>{chat.user_name}</Typography>
        <Typography variant="body2" color="text.secondary">
          {chat.user_email}
        </Typography>
        {card.received && (
          <Box sx={{ mt: 1 }}>
            <Typography variant="body2">{card.adminName}</Typography>
            {card.receivedParts.map((part) => (
              <Typography key={part} variant="caption" color="text.secondary" display="block">
                {part}
              </Typography>
            ))}
          </Box>
        )}
      </CardContent>
      <CardActions>
        {!card.received && (
          <Button
            size="small"
            variant="contained"
            // Accepting opens the conversation, ready for the answer.
            onClick={() => void save(chat).then((saved) => saved && onOpen())}
          >
            {translate(t('accept'))}
          </Button>
        )}
        <Button size="small" onClick={onOpen}>
          {translate(t('open'))}
        </Button>
      </CardActions>
    </Card>
  );
}

function OpenChat({ chat, onClose }: { chat: Chat; onClose: () => void }) {
  const translate = useTranslate();
  const save = useSaveChat();
  const [all, setAll] = useState(false);
  const messages = messagesOf(chat);
  const { shown, hidden } = shownMessages(messages, all);
  const markSeen = useMarkSeen();
  // An open chat's visitor messages are seen: the unread count drops.
  const visitorMessages = messages.filter(fromVisitor).length;
  useEffect(() => {
    void markSeen(chat.id);
  }, [chat.id, visitorMessages, markSeen]);
  return (
    <Paper variant="outlined" sx={{ p: 2, maxWidth: 560 }} role="region" aria-label={translate(t('conversation'), { name: chat.user_name ?? '' })}>
      <Stack direction="row" alignItems="center" sx={{ mb: 1 }}>
        <Typography variant="h6" component="h2" sx={{ flexGrow: 1 }}>
          {chat.user_name}
        </Typography>
        <IconButton aria-label={translate(t('close'))} onClick={onClose} size="small">
          {translate(t('close_mark'))}
        </IconButton>
      </Stack>
      {hidden > 0 && (
        <Link component="button" type="button" onClick={() => setAll(true)} sx={{ mb: 1 }}>
          {translate(t('load_previous'))}
        </Link>
      )}
      <Stack spacing={1} sx={{ mb: 2 }} role="log" aria-label={translate(t('messages'))}>
        {shown.map((m, index) => (
          <MessageBubble key={index} message={m} mine={!fromVisitor(m)} />
        ))}
      </Stack>
      {/* The input clears once the message is saved (DESIGN D4: no 1 s wait). */}
      {/* Opened (or accepted) to be answered: the input takes the focus. */}
      <MessageForm onSend={(text) => save(chat, text)} autoFocus />
    </Paper>
  );
}

export default function ChatPage() {
  const translate = useTranslate();
  const { data: chats = [], isPending, error } = useChats();
  const [openId, setOpenId] = useState<number | null>(null);
  const open = chats.find((c) => c.id === openId);
  return (
    <Stack spacing={2} sx={{ p: { xs: 1, sm: 2 } }}>
      <Title title={translate('menu.chat-logs')} />
      <Typography variant="h5" component="h1">
        {translate('menu.chat-logs')}
      </Typography>
      {error ? (
        <Typography color="error">{translate('error_view.title')}</Typography>
      ) : isPending ? null : chats.length === 0 ? (
        <Typography>{translate('management.no_data')}</Typography>
      ) : (
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} alignItems="flex-start">
          <Stack direction="row" spacing={2} useFlexGap flexWrap="wrap" sx={{ flex: 1, width: { xs: '100%', md: 'auto' } }}>
            {chats.map((chat) => (
              <ChatCard key={chat.id} chat={chat} open={chat.id === openId} onOpen={() => setOpenId(chat.id)} />
            ))}
          </Stack>
          {open && <OpenChat key={open.id} chat={open} onClose={() => setOpenId(null)} />}
        </Stack>
      )}
    </Stack>
  );
}
