export { Kasa, DEFAULT_TIMEOUT_MS, type KasaOptions } from './Kasa.js';
export {
  KasaError,
  KasaBadRequestError,
  KasaAuthenticationError,
  KasaPermissionError,
  KasaNotFoundError,
  KasaConflictError,
  KasaRateLimitError,
  KasaServerError,
  KasaConnectionError,
  KasaTimeoutError,
  isKasaError,
  NETWORK_ERROR,
  REQUEST_TIMEOUT,
  STREAM_ERROR,
  WAIT_TIMEOUT,
  VIDEO_NOT_READY,
  type KasaErrorBody,
} from './KasaError.js';
export { EventStream } from './EventStream.js';
export { ReplyStream } from './resources/messages.js';
export type { ChatCompletionStream } from './resources/completions.js';
export type { CallOptions } from './http.js';
export { readServerSentEvents, type ServerSentEvent } from './sse.js';
export { parseRetryAfter, DEFAULT_RETRY_POLICY, QUOTA_EXCEEDED, type RetryPolicy } from './retry.js';
export { newIdempotencyKey } from './idempotency.js';
export type { AuthResource } from './resources/auth.js';
export type { PersonasResource } from './resources/personas.js';
export type { ChatResource } from './resources/chat.js';
export type { AttachmentsResource, UploadAttachmentOptions } from './resources/attachments.js';
export type { SessionsResource } from './resources/sessions.js';
export type { MessagesResource } from './resources/messages.js';
export type { CompletionsResource } from './resources/completions.js';
export type { VoiceResource } from './resources/voice.js';
export type { VideoResource } from './resources/video.js';
export type { LanguagesResource } from './resources/languages.js';
export type { GeoResource } from './resources/geo.js';
export type { ApiKeysResource } from './resources/apiKeys.js';
export type * from './types.js';
