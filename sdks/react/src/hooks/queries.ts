import type {
  KasaError,
  LanguageCapability,
  LanguageList,
  MessagePage,
  PageQuery,
  Persona,
  SessionPage,
} from '@kasa/sdk';
import { useQuery, type UseQueryOptions, type UseQueryResult } from '@tanstack/react-query';
import { useKasa } from '../KasaProvider.js';
import { kasaKeys } from '../queryKeys.js';

/** react-query options the hooks pass through (everything but the key and the fetcher, which they own). */
export type KasaQueryOptions<T> = Omit<UseQueryOptions<T, KasaError>, 'queryKey' | 'queryFn'>;

/** The personas: Kasa's six, then the signed-in person's own. */
export function usePersonas(options: KasaQueryOptions<Persona[]> = {}): UseQueryResult<Persona[], KasaError> {
  const kasa = useKasa();
  return useQuery({
    ...options,
    queryKey: kasaKeys.personas(),
    queryFn: ({ signal }) => kasa.personas.list({ signal }),
  });
}

/** One page of my chat sessions, newest first. */
export function useSessions(
  query: PageQuery = {},
  options: KasaQueryOptions<SessionPage> = {},
): UseQueryResult<SessionPage, KasaError> {
  const kasa = useKasa();
  return useQuery({
    ...options,
    queryKey: kasaKeys.sessions(query),
    queryFn: ({ signal }) => kasa.chat.sessions.list(query, { signal }),
  });
}

/** One page of a session's messages (the newest page first); waits while `sessionId` is undefined. */
export function useMessages(
  sessionId: string | undefined,
  query: PageQuery = {},
  options: KasaQueryOptions<MessagePage> = {},
): UseQueryResult<MessagePage, KasaError> {
  const kasa = useKasa();
  return useQuery({
    ...options,
    queryKey: kasaKeys.messages(sessionId ?? '', query),
    queryFn: ({ signal }) => kasa.chat.messages.list(sessionId!, query, { signal }),
    enabled: sessionId !== undefined && (options.enabled ?? true),
  });
}

/** The language catalogue, optionally only the languages with one capability. */
export function useLanguages(
  query: { capability?: LanguageCapability } = {},
  options: KasaQueryOptions<LanguageList> = {},
): UseQueryResult<LanguageList, KasaError> {
  const kasa = useKasa();
  return useQuery({
    ...options,
    queryKey: kasaKeys.languages(query),
    queryFn: ({ signal }) => kasa.languages.list(query, { signal }),
  });
}
