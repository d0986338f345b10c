import { apiJson, apiRequest } from '@kasa/api-client';
import type { SessionWithMessages } from '@kasa/contracts';
import { MESSAGE_PAGE_SIZE } from './chatApi';

/**
 * The calls of versions: editing a message, regenerating an answer, showing another version. Loaded the first time
 * one is used (see `loadVersionsApi`), so that the chat's first load does not carry them.
 */
const enc = encodeURIComponent;
const messagePath = (sessionId: string, messageId: string, action: string) =>
  `/api/chat/sessions/${enc(sessionId)}/messages/${enc(messageId)}/${action}`;

/**
 * POST .../messages/:messageId/edit: the new text of one of my messages, answered like a sent message (a resumable
 * reply as Server-Sent Events). Rejects with an ApiError for the errors answered before the stream (400, 403, 404).
 */
export function editMessageStreaming(
  sessionId: string,
  messageId: string,
  message: { content: string; language: string },
  signal: AbortSignal,
) {
  return apiRequest(
    'POST',
    messagePath(sessionId, messageId, 'edit'),
    { role: 'user', type: 'text', content: message.content, language: message.language, resumable: true },
    { accept: 'text/event-stream', signal },
  );
}

/** POST .../messages/:messageId/regenerate: another answer to the same question, streamed like a reply. */
export function regenerateStreaming(sessionId: string, messageId: string, language: string, signal: AbortSignal) {
  return apiRequest(
    'POST',
    messagePath(sessionId, messageId, 'regenerate'),
    { language, resumable: true },
    { accept: 'text/event-stream', signal },
  );
}

/** POST .../messages/:messageId/select: shows that version; answers the newest page of the branch it shows. */
export const selectVersion = (sessionId: string, messageId: string) =>
  apiJson<SessionWithMessages>('POST', `${messagePath(sessionId, messageId, 'select')}?limit=${MESSAGE_PAGE_SIZE}`);
