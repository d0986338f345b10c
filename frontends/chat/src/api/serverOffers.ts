import { useQuery } from '@tanstack/react-query';
import { apiJson } from '@kasa/api-client';
import type { ChatCapabilities, VoiceStatus } from '@kasa/contracts';
import type { ServerState } from '@kasa/ui/serverOffers';

/** Asked once a minute at most; a failure is not asked again (the notes then say what they always said). */
const ASKED = { staleTime: 60_000, retry: false } as const;

/**
 * What this server can deliver of the Pro and Enterprise features now, for the upgrade notes:
 * GET /api/chat/capabilities and GET /api/voice/status (both public). A part is undefined while it loads or when it
 * failed, which `@kasa/ui/serverOffers` reads as nothing missing; `settled` once both have answered or failed.
 */
export function useServerState(): ServerState & { settled: boolean } {
  const chat = useQuery({
    queryKey: ['chat', 'capabilities'],
    queryFn: () => apiJson<ChatCapabilities>('GET', '/api/chat/capabilities'),
    ...ASKED,
  });
  const voice = useQuery({
    queryKey: ['chat', 'voice-status'],
    queryFn: () => apiJson<VoiceStatus>('GET', '/api/voice/status'),
    ...ASKED,
  });
  return { chat: chat.data, voice: voice.data, settled: !chat.isPending && !voice.isPending };
}
