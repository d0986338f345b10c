import { apiJson, apiRequest } from '@kasa/api-client';
import type { ConversationShare, SharedConversation } from '@kasa/contracts';

/** React Query keys of sharing; under 'chat' like the rest of the chat area (STYLE.md). */
export const shareKeys = {
  link: (sessionId: string) => ['chat', 'share', sessionId] as const,
  shared: (token: string) => ['chat', 'shared', token] as const,
};

const enc = encodeURIComponent;
/** Changing a link is quick; beyond this the person is told the service is slow rather than left waiting. */
const TIMEOUT_MS = 15_000;

export const fetchShare = (sessionId: string) =>
  apiJson<ConversationShare>('GET', `/api/chat/sessions/${enc(sessionId)}/share`, undefined, { timeoutMs: TIMEOUT_MS });

export const createShare = (sessionId: string) =>
  apiJson<ConversationShare>('POST', `/api/chat/sessions/${enc(sessionId)}/share`, undefined, {
    timeoutMs: TIMEOUT_MS,
  });

export const stopSharing = (sessionId: string) =>
  apiRequest('DELETE', `/api/chat/sessions/${enc(sessionId)}/share`, undefined, { timeoutMs: TIMEOUT_MS }).then(
    () => undefined,
  );

export const fetchSharedConversation = (token: string) =>
  apiJson<SharedConversation>('GET', `/api/chat/shared/${enc(token)}`, undefined, { timeoutMs: TIMEOUT_MS });

/** The address to give people: the site's origin and the link's path. */
export const shareUrl = (share: Pick<ConversationShare, 'path'>) => new URL(share.path, window.location.origin).href;
