import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import type { Session, SessionPage, SessionWithMessages, StoredMessage } from '@kasa/contracts';
import {
  chatKeys,
  deleteSession,
  fetchPersonas,
  fetchPlatformStatus,
  fetchSession,
  fetchSessions,
  renameSession,
  searchMessages,
} from './chatApi';

/** The sidebar's health list refreshes this often (spec section 4: the status panel refreshes every 30 s). */
export const STATUS_REFRESH_MS = 30_000;

export function usePersonas() {
  return useQuery({ queryKey: chatKeys.personas, queryFn: fetchPersonas, staleTime: 10 * 60_000 });
}

type SessionPages = InfiniteData<SessionPage, string | null>;
type MessagePages = InfiniteData<SessionWithMessages, string | null>;

/** My sessions, newest first, a page at a time (`fetchNextPage` follows `nextCursor`). */
export function useSessionList() {
  return useInfiniteQuery({
    queryKey: chatKeys.sessions,
    queryFn: ({ pageParam }) => fetchSessions(pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/**
 * One session and its messages. The first page holds the newest messages; `fetchNextPage` brings older ones.
 * Disabled without an id (a new chat that has no session yet).
 */
export function useSessionMessages(sessionId: string | undefined) {
  return useInfiniteQuery({
    queryKey: chatKeys.session(sessionId ?? ''),
    queryFn: ({ pageParam }) => fetchSession(sessionId!, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled: Boolean(sessionId),
  });
}

/** The messages of every loaded page, oldest first. */
export function messagesOf(data: { pages: SessionWithMessages[] } | undefined): StoredMessage[] {
  if (!data) return [];
  return [...data.pages].reverse().flatMap((page) => page.messages);
}

/** Search across my messages; runs only for a non-empty query and keeps the last results while typing. */
export function useMessageSearch(q: string) {
  const term = q.trim();
  return useQuery({
    queryKey: chatKeys.search(term),
    queryFn: () => searchMessages(term),
    enabled: term.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** GET /api/developer/services/status from the status service, refreshed every 30 s while the page is open. */
export function usePlatformStatus() {
  return useQuery({
    queryKey: chatKeys.platformStatus,
    queryFn: fetchPlatformStatus,
    refetchInterval: STATUS_REFRESH_MS,
    staleTime: STATUS_REFRESH_MS - 5_000,
  });
}

/**
 * Seeds the cache of a session just created, so opening it shows it at once without asking the server. The sidebar
 * lists it only once its first message is stored (`invalidateSessionList` then).
 */
export function seedNewSession(queryClient: QueryClient, session: Session): void {
  queryClient.setQueryData<MessagePages>(chatKeys.session(session.id), {
    pages: [{ ...session, messages: [], nextCursor: null }],
    pageParams: [null],
  });
}

/** Asks for the sidebar's sessions again (a new conversation has its first message). */
export function invalidateSessionList(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: chatKeys.sessions });
}

/**
 * Puts messages into a session's cached newest page, replacing any with the same id (the page may have been
 * fetched while the reply was still being written) and appending the others in order.
 */
export function upsertMessages(queryClient: QueryClient, sessionId: string, messages: StoredMessage[]): void {
  queryClient.setQueryData<MessagePages>(chatKeys.session(sessionId), (data) => {
    if (!data || data.pages.length === 0) return data;
    const [newest, ...older] = data.pages;
    const list = [...newest!.messages];
    for (const message of messages) {
      const at = list.findIndex((m) => m.id === message.id);
      if (at >= 0) list[at] = message;
      else list.push(message);
    }
    return { ...data, pages: [{ ...newest!, messages: list }, ...older] };
  });
}

function updateSessionPages(queryClient: QueryClient, update: (sessions: Session[]) => Session[]): void {
  queryClient.setQueryData<SessionPages>(chatKeys.sessions, (data) =>
    data ? { ...data, pages: data.pages.map((page) => ({ ...page, sessions: update(page.sessions) })) } : data,
  );
}

/** Takes a session out of the sidebar's cached pages (deleted). */
export function dropFromSessionList(queryClient: QueryClient, id: string): void {
  updateSessionPages(queryClient, (sessions) => sessions.filter((s) => s.id !== id));
}

export function useRenameSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, title }: { id: string; title: string }) => renameSession(id, title),
    onSuccess: (session) => {
      updateSessionPages(queryClient, (sessions) => sessions.map((s) => (s.id === session.id ? session : s)));
      queryClient.setQueryData<MessagePages>(chatKeys.session(session.id), (data) =>
        data ? { ...data, pages: data.pages.map((page) => ({ ...page, title: session.title })) } : data,
      );
    },
  });
}

export function useDeleteSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteSession(id),
    onSuccess: (_nothing, id) => {
      dropFromSessionList(queryClient, id);
      queryClient.removeQueries({ queryKey: chatKeys.session(id) });
      void queryClient.invalidateQueries({ queryKey: ['chat', 'search'] });
    },
  });
}
