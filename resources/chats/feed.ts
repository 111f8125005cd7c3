/**
 * The admins' live view of the chats: the stream's events refresh the chat list and set the unread
 * count at once. The chat list is also polled every 10 s (SPEC §9.2); the unread count is polled only
 * from a contract-only server, which has neither the count nor the stream. Polls and event refreshes
 * wait while the person is away from the console (src/widgets/presence.ts), so its session can end.
 */
import { useCallback, useEffect } from 'react';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import { CHAT_PATHS } from '../../contract';
import type { MarketplaceDataProvider } from '../../dataProvider';
import { useConfig } from '../../src/config';
import { refreshType, usePresentPoll } from '../../src/widgets/presence';
import { registry } from '..';
import { adminSource, listenToChats } from './events';
import { cardOf, type Chat } from './rules';

/** SPEC §9.2: the chat poll. */
export const POLL_MS = 10_000;
export const CHATS_KEY = ['chat-logs'];
export const UNREAD_KEY = ['chat-unread'];

/** Follows the admins' chat stream while mounted (one stream per tab, shared). */
export function useAdminChatEvents() {
  const dataProvider = useDataProvider<MarketplaceDataProvider>();
  const queryClient = useQueryClient();
  const { apiUrl } = useConfig();
  useEffect(() => {
    const buyTicket = async () => {
      const { detail } = await dataProvider.call<{ ticket: string }>(CHAT_PATHS.ticket, {});
      return detail!.ticket;
    };
    return listenToChats('admin', adminSource(apiUrl, buyTicket), (event) => {
      // Away from the console, an event only marks the lists stale: they are asked for at the next touch.
      void queryClient.invalidateQueries({ queryKey: CHATS_KEY, refetchType: refreshType() });
      if (typeof event.unread === 'number') setUnread(queryClient, event.unread);
      else void queryClient.invalidateQueries({ queryKey: UNREAD_KEY, refetchType: refreshType() });
    });
  }, [apiUrl, dataProvider, queryClient]);
}

/** Loads the first page of chats (SPEC §7.8). */
export async function loadChats(dataProvider: MarketplaceDataProvider): Promise<Chat[]> {
  const { HLL } = await dataProvider.call<unknown, { data?: Chat[] }>(registry.entity('chats').list, { page: 1 });
  return Array.isArray(HLL?.data) ? HLL.data : [];
}

/** The unread count, and whether it was counted on the client (a contract-only server). */
interface Unread {
  count: number;
  counted: boolean;
}

/**
 * Chats waiting for the admins: the server's count (incoming, or with visitor messages no admin has
 * seen), kept by the stream (useAdminChatEvents) without polling; from a contract-only server, the
 * incoming chats of the first page, polled every 10 s.
 */
export function useChatUnread(): number | undefined {
  const dataProvider = useDataProvider<MarketplaceDataProvider>();
  const poll = usePresentPoll(UNREAD_KEY, POLL_MS);
  const { data } = useQuery({
    queryKey: UNREAD_KEY,
    refetchInterval: (query) => (query.state.data?.counted ? poll : false),
    queryFn: async (): Promise<Unread> => {
      try {
        const { detail } = await dataProvider.call<{ unread: number }>(CHAT_PATHS.unread, {});
        return { count: Number(detail?.unread ?? 0), counted: false };
      } catch (error) {
        if ((error as { status?: number }).status !== 404) throw error;
        return { count: (await loadChats(dataProvider)).filter((chat) => !cardOf(chat).received).length, counted: true };
      }
    },
  });
  return data?.count;
}

/** The server's new unread count, as the stream or a call tells it. */
const setUnread = (queryClient: QueryClient, count: number) => queryClient.setQueryData<Unread>(UNREAD_KEY, { count, counted: false });

/** Tells the server the admins have seen a chat's visitor messages (ignored by a contract-only server). */
export function useMarkSeen() {
  const dataProvider = useDataProvider<MarketplaceDataProvider>();
  const queryClient = useQueryClient();
  return useCallback(
    async (id: number) => {
      try {
        const { detail } = await dataProvider.call<{ unread: number }>(CHAT_PATHS.seen, { id });
        if (typeof detail?.unread === 'number') setUnread(queryClient, detail.unread);
      } catch {
        /* a contract-only server has no such call */
      }
    },
    [dataProvider, queryClient],
  );
}
