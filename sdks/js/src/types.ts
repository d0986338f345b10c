/**
 * The request and response types of the Kasa API. They are the API's own contracts (zod schemas in
 * `@kasa/contracts`), imported as types only: nothing of zod reaches a bundle that uses this package.
 */
import type {
  ApiKey,
  ApiKeyScope,
  AssistantReply,
  AuthResponse,
  CreateApiKeyRequest,
  CreateApiKeyResponse,
  CreateMessageRequest,
  CreateSessionRequest,
  DetectLanguageRequest,
  DetectLanguageResponse,
  GeoLookupResponse,
  Language,
  LanguageCapability,
  LanguageList,
  LoginRequest,
  MeResponse,
  Message,
  OpenAIChatCompletionRequest,
  Persona,
  RegisterRequest,
  Session,
  SessionPage,
  SessionWithMessages,
  StoredMessage,
  StreamMetaEvent,
  SubscriptionTier,
  SynthesizeRequest,
  SynthesizeResponse,
  User,
  Voice,
  z,
} from '@kasa/contracts';

export type {
  ApiKey,
  ApiKeyScope,
  AssistantReply,
  AuthResponse,
  CreateApiKeyRequest,
  CreateApiKeyResponse,
  CreateSessionRequest,
  DetectLanguageRequest,
  DetectLanguageResponse,
  GeoLookupResponse,
  Language,
  LanguageCapability,
  LanguageList,
  LoginRequest,
  MeResponse,
  Message,
  Persona,
  RegisterRequest,
  Session,
  SessionPage,
  SessionWithMessages,
  StoredMessage,
  SubscriptionTier,
  SynthesizeResponse,
  User,
  Voice,
};

/** What `messages.send` and `messages.stream` take: the message; `role` is always `user` and filled in. */
export type SendMessageInput = Omit<z.input<typeof CreateMessageRequest>, 'role'>;

/** What `voice.synthesize` takes (`language` defaults to `en`; `auto` detects it). */
export type SynthesizeInput = z.input<typeof SynthesizeRequest>;

/** Paging of sessions and messages: at most 50 a page; `cursor` is the previous page's `nextCursor`. */
export interface PageQuery {
  limit?: number;
  cursor?: string;
}

/** One page of a session's messages, oldest first within the page; `nextCursor` leads to older ones. */
export interface MessagePage {
  messages: StoredMessage[];
  nextCursor: string | null;
}

/** When a provider starts answering (again with `continued: true` after a mid-reply failover). */
export type ReplyMeta = z.infer<typeof StreamMetaEvent>;

/** The events of a streamed reply, in order: `meta`, `token`…, then `done` with the stored reply. */
export type ReplyEvent =
  ({ type: 'meta' } & ReplyMeta) | { type: 'token'; text: string } | { type: 'done'; message: AssistantReply };

/** The body of POST /v1/chat/completions (OpenAI's Chat Completions; the model is a persona id). */
export type ChatCompletionRequest = z.input<typeof OpenAIChatCompletionRequest>;

export interface ChatCompletionUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** A complete answer of POST /v1/chat/completions. */
export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  system_fingerprint?: string;
  choices: Array<{
    index: number;
    message: { role: 'assistant'; content: string; refusal: string | null };
    logprobs: null;
    finish_reason: string | null;
  }>;
  usage: ChatCompletionUsage;
}

/** One chunk of a streamed POST /v1/chat/completions. The last one may carry only `usage` (no choices). */
export interface ChatCompletionChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  system_fingerprint?: string;
  choices: Array<{
    index: number;
    delta: { role?: 'assistant'; content?: string };
    logprobs: null;
    finish_reason: string | null;
  }>;
  usage?: ChatCompletionUsage;
}

/** GET /v1/models: the personas as OpenAI models. */
export interface ModelList {
  object: 'list';
  data: Array<{ id: string; object: 'model'; created: number; owned_by: string; name: string; description: string }>;
}
