import { apiJson, apiRequest } from '@kasa/api-client';
import type {
  AssistantReply,
  ChatSearchResults,
  Persona,
  ServicesStatusResponse,
  Session,
  SessionPage,
  SessionWithMessages,
  StoredMessage,
} from '@kasa/contracts';

/** React Query keys of the chat area; all start with 'chat' (STYLE.md). */
export const chatKeys = {
  all: ['chat'] as const,
  personas: ['chat', 'personas'] as const,
  sessions: ['chat', 'sessions'] as const,
  session: (id: string) => ['chat', 'session', id] as const,
  search: (q: string) => ['chat', 'search', q] as const,
  platformStatus: ['chat', 'platform-status'] as const,
};

/** Sessions per page of the sidebar, and messages per page of a conversation (the service allows 1–50). */
export const SESSION_PAGE_SIZE = 20;
export const MESSAGE_PAGE_SIZE = 50;
/** The service's limits on a message and a search query (shared/contracts chat.ts). */
export const MAX_MESSAGE_LENGTH = 16_000;
export const MAX_SEARCH_LENGTH = 100;
export const MAX_TITLE_LENGTH = 200;

const enc = encodeURIComponent;

function query(params: Record<string, string | number | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== null && value !== undefined) search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}

export const fetchPersonas = () => apiJson<Persona[]>('GET', '/api/personas');

export const fetchSessions = (cursor: string | null) =>
  apiJson<SessionPage>('GET', `/api/chat/sessions${query({ limit: SESSION_PAGE_SIZE, cursor })}`);

export const fetchSession = (id: string, cursor: string | null) =>
  apiJson<SessionWithMessages>('GET', `/api/chat/sessions/${enc(id)}${query({ limit: MESSAGE_PAGE_SIZE, cursor })}`);

export const createSession = (body: { personaId: string; title: string }) =>
  apiJson<Session>('POST', '/api/chat/sessions', body);

export const renameSession = (id: string, title: string) =>
  apiJson<Session>('PATCH', `/api/chat/sessions/${enc(id)}`, { title });

export const deleteSession = (id: string) =>
  apiRequest('DELETE', `/api/chat/sessions/${enc(id)}`).then(() => undefined);

export const searchMessages = (q: string) =>
  apiJson<ChatSearchResults>('GET', `/api/chat/search${query({ q, limit: 20 })}`);

/** The status service's snapshot of Kasa's services and their parts (the sidebar's health list reads it). */
export const fetchPlatformStatus = () =>
  apiJson<ServicesStatusResponse>('GET', '/api/developer/services/status', undefined, { timeoutMs: 15_000 });

/** What the composer sends: text, the language override (`auto` or a BCP 47 tag), and typed or spoken. */
export interface OutgoingMessage {
  content: string;
  language: string;
  /** `voice`: the content is the transcript of what the person said. */
  type?: StoredMessage['type'];
  /** Images and documents uploaded for it (`POST /api/chat/attachments`). */
  attachmentIds?: string[];
}

/**
 * POST a message and get the reply as Server-Sent Events. `resumable: true`: the reply goes on being written when
 * the page goes away, and only `stopReply` stops it. Rejects with an ApiError for plan, ownership and validation
 * errors, which the service answers as JSON before the stream starts.
 */
export function sendMessageStreaming(sessionId: string, message: OutgoingMessage, signal: AbortSignal) {
  return apiRequest(
    'POST',
    `/api/chat/sessions/${enc(sessionId)}/messages`,
    {
      role: 'user',
      type: message.type ?? 'text',
      content: message.content,
      language: message.language,
      ...(message.attachmentIds ? { attachmentIds: message.attachmentIds } : {}),
      resumable: true,
    },
    { accept: 'text/event-stream', signal },
  );
}

/** Follows a reply that is still being written (after a reload): the text so far, then the rest, as SSE. */
export function followReply(sessionId: string, messageId: string, signal: AbortSignal) {
  return apiRequest('GET', `/api/chat/sessions/${enc(sessionId)}/messages/${enc(messageId)}/stream`, undefined, {
    accept: 'text/event-stream',
    signal,
  });
}

/** The Stop button: ends the reply where it is; the stream then ends with the stored, stopped message. */
export const stopReply = (sessionId: string, messageId: string) =>
  apiJson<AssistantReply>('POST', `/api/chat/sessions/${enc(sessionId)}/messages/${enc(messageId)}/stop`);

export type { StoredMessage };
