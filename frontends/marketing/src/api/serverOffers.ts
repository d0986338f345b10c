import { useQuery, type QueryClient } from '@tanstack/react-query';
import { apiJson } from '@kasa/api-client';
import type { ChatCapabilities, VoiceStatus } from '@kasa/contracts';
import type { ServerState } from '@kasa/ui/serverOffers';

/**
 * What the plans' features need from this server: GET /api/chat/capabilities (is an AI provider connected, does it
 * see images) and GET /api/voice/status (speech engines, encoder, speech to text, translation). Both are public. A
 * failed request is not asked again: the plans then show as they are (never a reason not to sell).
 */
const queries = {
  chat: {
    queryKey: ['marketing', 'chat-capabilities'] as const,
    queryFn: () => apiJson<ChatCapabilities>('GET', '/api/chat/capabilities'),
    // The service lets the answer be cached for 30 s: a provider the operator connects shows within a minute.
    staleTime: 30_000,
    retry: false,
  },
  voice: {
    queryKey: ['marketing', 'voice-status'] as const,
    queryFn: () => apiJson<VoiceStatus>('GET', '/api/voice/status'),
    staleTime: 30_000,
    retry: false,
  },
};

/**
 * This server's state as far as it is known now (a part is undefined while it loads, or when it failed); `settled`
 * once both requests have answered or failed.
 */
export function useServerState(): ServerState & { settled: boolean } {
  const chat = useQuery(queries.chat);
  const voice = useQuery(queries.voice);
  return { chat: chat.data, voice: voice.data, settled: !chat.isPending && !voice.isPending };
}

/** How long an upgrade waits for a status that has not answered yet before going on as if nothing were missing. */
const STATE_WAIT_MS = 3_000;

/**
 * The server's state for a decision (the upgrade's confirmation): from the cache when fresh, else asked now, waiting
 * at most STATE_WAIT_MS; a part that failed or did not answer in time is unknown.
 */
export async function loadServerState(queryClient: QueryClient): Promise<ServerState> {
  const [chat, voice] = await Promise.all([
    within(queryClient.fetchQuery(queries.chat)),
    within(queryClient.fetchQuery(queries.voice)),
  ]);
  return { chat, voice };
}

/** The answer, or undefined when the request fails or takes longer than STATE_WAIT_MS. */
function within<T>(request: Promise<T>): Promise<T | undefined> {
  return Promise.race([
    request.catch(() => undefined),
    new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), STATE_WAIT_MS)),
  ]);
}
