/**
 * The parts of a conversation both sides show: a message bubble (the viewer's own on the right, the
 * other side's on the left) and the 'Type here...' / '>' form, which clears once the message is saved.
 */
import { useState, type FormEvent } from 'react';
import { Box, Button, Stack, TextField } from '@mui/material';
import { useTranslate } from 'react-admin';
import { MAX_CHAT_MESSAGE, type ChatMessage } from '../../contract';
import { fromVisitor } from './rules';

export function MessageBubble({ message, mine }: { message: ChatMessage; mine: boolean }) {
  return (
    <Box
      data-side={fromVisitor(message) ? 'visitor' : 'admin'}
      sx={{
        alignSelf: mine ? 'flex-end' : 'flex-start',
        // action.selected reads in the light and the dark theme alike.
        bgcolor: mine ? 'primary.main' : 'action.selected',
        color: mine ? 'primary.contrastText' : 'text.primary',
        px: 1.5, py: 0.75, borderRadius: 2, maxWidth: '80%', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere',
      }}
    >
      {message.message}
    </Box>
  );
}

/** `onSend` answers whether the message was saved; only then is the input cleared. */
export function MessageForm({ onSend, autoFocus = false }: { onSend: (text: string) => Promise<boolean>; autoFocus?: boolean }) {
  const translate = useTranslate();
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const send = async (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim() || sending) return;
    setSending(true);
    if (await onSend(text.trim())) setText('');
    setSending(false);
  };
  return (
    <Stack component="form" direction="row" spacing={1} onSubmit={send}>
      <TextField
        size="small"
        fullWidth
        autoFocus={autoFocus}
        placeholder={translate('resources.chats.placeholders.message')}
        value={text}
        onChange={(e) => setText(e.target.value)}
        slotProps={{ htmlInput: { maxLength: MAX_CHAT_MESSAGE, 'aria-label': translate('resources.chats.placeholders.message') } }}
      />
      <Button type="submit" variant="contained" disabled={sending || !text.trim()} aria-label={translate('resources.chats.inputs.send')}>
        {translate('resources.chats.inputs.send_mark')}
      </Button>
    </Stack>
  );
}
