/**
 * The Chat Logs sidebar entry's icon with the number of chats waiting for the admins, kept live by
 * the chat stream (polled every 10 s only from a server without one). The number is drawn by CSS from data-count, so the entry's
 * text stays its label; assistive technology reads the count from the badge's label.
 */
import type { ReactNode } from 'react';
import { Box } from '@mui/material';
import { useTranslate } from 'react-admin';
import { useAdminChatEvents, useChatUnread } from './feed';

export default function ChatBadge({ children }: { children: ReactNode }) {
  const translate = useTranslate();
  useAdminChatEvents();
  const unread = useChatUnread() ?? 0;
  return (
    <Box component="span" sx={{ position: 'relative', display: 'inline-flex' }}>
      {children}
      {unread > 0 && (
        <Box
          component="span"
          role="status"
          data-testid="chat-unread"
          data-count={unread > 99 ? '99+' : String(unread)}
          aria-label={translate('resources.chats.unread', { smart_count: unread })}
          sx={{
            position: 'absolute', top: -6, right: -10, minWidth: 18, height: 18, px: 0.5, borderRadius: 9,
            bgcolor: 'error.main', color: 'error.contrastText', fontSize: 11, fontWeight: 700, lineHeight: '18px', textAlign: 'center',
            '&::after': { content: 'attr(data-count)' },
          }}
        />
      )}
    </Box>
  );
}
