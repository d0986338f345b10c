/**
 * The request and response types of the Kasa API, written out here so that the published declarations stand alone
 * (no import of the platform's internal packages, nothing of a schema library). They follow the API's contracts
 * exactly: `test/contractTypes.ts` checks each against its contract both ways, so the type check fails when one of
 * them drifts.
 */

/** A plan: what a subscription includes (voice needs Pro or Enterprise). */
export type SubscriptionTier = 'free' | 'pro' | 'enterprise';

/** A signed-up person. `createdAt` is an ISO 8601 date-time. */
export interface User {
  id: string;
  username: string;
  email: string;
  subscriptionTier: SubscriptionTier;
  createdAt: string;
}

/** POST /api/auth/register. */
export interface RegisterRequest {
  username: string;
  email: string;
  password: string;
}

/** POST /api/auth/login. */
export interface LoginRequest {
  email: string;
  password: string;
}

/** The answer to register and login: the access token and who it belongs to. */
export interface AuthResponse {
  success: true;
  token: string;
  user: User;
  message: string;
}

/** The signed-in person as GET /api/auth/me shows them: their account, and whether they are an operator. */
export interface MeUser extends User {
  /** Whether the person runs this Kasa (may open the operator console); read afresh on every call. */
  operator: boolean;
}

/** GET /api/auth/me. */
export interface MeResponse {
  success: true;
  user: MeUser;
}

/** What an API key may be used for. */
export type ApiKeyScope = 'chat' | 'voice' | 'analytics';

/** POST /api/developer/keys. `expiresInDays` null or left out: the key does not expire. */
export interface CreateApiKeyRequest {
  name: string;
  expiresInDays?: number | null | undefined;
  /** Default: every scope. */
  scopes?: ApiKeyScope[] | undefined;
  /** A key of the caller's team rather than their own (team admins). */
  team?: boolean | undefined;
}

/** An API key as listed: masked, never its secret. Dates are ISO 8601 date-times. */
export interface ApiKey {
  id: string;
  name: string;
  maskedKey: string;
  scopes: ApiKeyScope[];
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
  teamId: string | null;
}

/** The answer to creating a key: `secret` is shown this once. */
export interface CreateApiKeyResponse {
  secret: string;
  key: ApiKey;
  message: string;
}

/** A persona to chat with (Kasa's six, and an Enterprise account's own). */
export interface Persona {
  id: string;
  name: string;
  expertise: string;
  systemPrompt: string;
  avatar?: string | undefined;
  color?: string | undefined;
  greeting?: string | undefined;
}

/** POST /api/chat/sessions. */
export interface CreateSessionRequest {
  personaId: string;
  title: string;
}

/** A conversation with one persona. `createdAt` is an ISO 8601 date-time. */
export interface Session {
  id: string;
  personaId: string;
  title: string;
  createdAt: string;
}

/** One page of sessions, newest first; `nextCursor` leads to older ones (null on the last page). */
export interface SessionPage {
  sessions: Session[];
  nextCursor: string | null;
}

export type MessageRole = 'user' | 'assistant';
export type MessageType = 'text' | 'voice' | 'image';
/** How a stored assistant message ended (`streaming` while it is being written). */
export type MessageStatus = 'streaming' | 'complete' | 'stopped' | 'failed';

/** A message as the spec names it. `timestamp` is an ISO 8601 date-time. */
export interface Message {
  id: string;
  role: MessageRole;
  content: string;
  timestamp: string;
}

/**
 * Where a message stands among its versions: an edited message and the one it replaced, or the regenerated answers to
 * one question, oldest first. Show it as `index + 1` of `count`; `chat.messages.selectVersion` shows another one.
 */
export interface MessageVersion {
  /** From 0. */
  index: number;
  count: number;
  /** Every version's id, oldest first, this message's included. */
  siblingIds: string[];
}

/** What an attachment is, decided by the API from its bytes. */
export type AttachmentKind = 'image' | 'document';

/**
 * An image or document uploaded with `attachments.upload` (Pro and Enterprise), as its owner sees it. `createdAt` is
 * an ISO 8601 date-time.
 */
export interface Attachment {
  /** 22 URL-safe characters: pass it in a message's `attachmentIds`. */
  id: string;
  kind: AttachmentKind;
  /** The file name it was uploaded with (a very long one is cut, keeping its extension). */
  name: string;
  /** What the bytes are, decided from them (never from the type the upload declared). */
  mediaType: string;
  /** In bytes. */
  size: number;
  createdAt: string;
  /** Documents: the pages (PDF) or sections (DOCX, text) of the text read from it; 0 when it has none. */
  pages?: number | undefined;
  /** Documents: the characters of text read from it (0: none could be read, e.g. a scanned PDF). */
  characters?: number | undefined;
  /** Images: `attachments.thumbnail` gives a small preview. */
  hasThumbnail: boolean;
}

/** An attachment as a message carries it. */
export interface MessageAttachment {
  id: string;
  kind: AttachmentKind;
  name: string;
  mediaType: string;
  /** In bytes. */
  size: number;
}

/** A stored attachment's bytes (`attachments.get`) or its preview's (`attachments.thumbnail`). */
export interface AttachmentFile {
  bytes: Uint8Array;
  /** The file's media type (`image/png`, `application/pdf`...), without parameters. */
  mediaType: string;
  /** The file name the answer gives (the stored name; the preview's ends in `.webp`), when it gives one. */
  name: string | undefined;
}

/** A message as stored: the spec's fields plus its type, how it ended and who wrote it. */
export interface StoredMessage extends Message {
  type: MessageType;
  status: MessageStatus;
  provider?: string | undefined;
  model?: string | undefined;
  /** In a session's messages, and on the answer of `edit` and `regenerate`: its place among its versions. */
  version?: MessageVersion | undefined;
  /** The images and documents sent with a message of mine (`attachments.get` reads one). */
  attachments?: MessageAttachment[] | undefined;
}

/** A session with one page of its messages (oldest first within the page); `nextCursor` leads to older ones. */
export interface SessionWithMessages extends Session {
  messages: StoredMessage[];
  nextCursor: string | null;
}

/** A conversation's read-only link: `path` (`/share/<token>`) on the site's origin. `sharedAt` is ISO 8601. */
export interface ConversationShare {
  token: string;
  path: string;
  sessionId: string;
  /** Messages a reader sees: those written up to `sharedAt` (sharing again moves it to now). */
  messageCount: number;
  sharedAt: string;
}

/** What anyone with the link reads: the conversation as it was when last shared, nothing about its owner. */
export interface SharedConversation {
  title: string;
  persona: { id: string; name: string; avatar?: string | undefined; color?: string | undefined };
  sharedAt: string;
  messages: Message[];
  /** True when older messages were left out (a shared page shows at most the latest 200). */
  truncated: boolean;
}

/** The stored assistant reply to a message, with the id of the stored user message. */
export interface AssistantReply extends StoredMessage {
  userMessageId: string;
}

/** What `messages.send` and `messages.stream` take: the message (its `role` is always `user` and filled in). */
export interface SendMessageInput {
  content: string;
  /** Default `text`. */
  type?: MessageType | undefined;
  /** The user's language as a BCP 47 tag (`tw`, `fr-CI`), or `auto` (the default) to detect it. */
  language?: string | undefined;
  /**
   * With `true`, a streamed reply survives a dropped connection: it goes on being written and stored, and only
   * `messages.stop` stops it. By default the client going away is the stop.
   */
  resumable?: boolean | undefined;
  /**
   * Ids of images and documents uploaded with `attachments.upload` (Pro and Enterprise), at most 4, each not sent in
   * another session. On an edit, leaving it out keeps the edited message's attachments; `[]` drops them.
   */
  attachmentIds?: string[] | undefined;
}

/** What `messages.edit` and `editStream` take: the new text of one of my messages, as `send` takes a message. */
export type EditMessageInput = SendMessageInput;

/**
 * What `messages.regenerate` and `regenerateStream` take (all optional): the reply language (left out: the question's
 * own), and `resumable` as for `stream`.
 */
export interface RegenerateInput {
  language?: string | undefined;
  resumable?: boolean | undefined;
}

/** What `voice.synthesize` takes (`language` defaults to `en`; `auto` detects it). */
export interface SynthesizeInput {
  text: string;
  voice?: string | undefined;
  language?: string | undefined;
}

/** The answer to `voice.synthesize`: where the audio is (no credential needed to fetch it) and how long it lasts. */
export interface SynthesizeResponse {
  audioUrl: string;
  /** Seconds. */
  duration: number;
  id?: string | undefined;
  contentType?: string | undefined;
  language?: string | undefined;
  voice?: string | undefined;
  engine?: string | undefined;
}

/** A voice of an installed speech engine. */
export interface Voice {
  id: string;
  name: string;
  language: string;
  locale: string;
  engine: string;
  gender?: 'male' | 'female' | undefined;
}

/** Something Kasa can do in a language. */
export type LanguageCapability = 'detect' | 'chat' | 'speak' | 'listen' | 'translate';

/** A language of the catalogue and what Kasa can do in it. */
/** An engine with a voice for a language, and whether the server has it set up. */
export interface LanguageSpeechEngine {
  /** `khaya`, `spitch`, `azure`, `google`, `elevenlabs`, `openai`, `espeak-ng`... */
  engine: string;
  /** Its name for people. */
  name: string;
  configured: boolean;
}

export interface Language {
  code: string;
  iso6391: string | null;
  iso6393: string;
  name: string;
  nativeName: string;
  capabilities: Record<LanguageCapability, boolean>;
  /** Which engine reads the language aloud on this server (null: none does), and every engine Kasa routes it to. */
  speech: { engine: string | null; engines: LanguageSpeechEngine[] };
}

/** GET /api/languages. */
export interface LanguageList {
  count: number;
  languages: Language[];
}

/** POST /api/languages/detect: the text, and what else is known about the writer's language. */
export interface DetectLanguageRequest {
  text: string;
  hints?:
    | {
        userLanguage?: string | undefined;
        browserLocale?: string | undefined;
        recent?: string[] | undefined;
      }
    | undefined;
}

/** One candidate language with its confidence (0 to 1). */
export interface LanguageGuess {
  language: string;
  name: string;
  confidence: number;
}

/** The likeliest language, and the other candidates. */
export interface DetectLanguageResponse extends LanguageGuess {
  /** False when Kasa is not sure (a text too short or too mixed): `language` is then only a guess. */
  reliable: boolean;
  alternatives: LanguageGuess[];
}

/** GET /api/geo: where an IP address appears to be; `found: false` (and nulls) when it is not known. */
export interface GeoLookupResponse {
  ip: string;
  found: boolean;
  country: string | null;
  countryName: string | null;
  region: string | null;
  city: string | null;
  timezone: string | null;
  currency: string | null;
  suggestedLanguages: string[];
  message?: string | undefined;
}

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
export interface ReplyMeta {
  userMessageId: string;
  assistantMessageId: string;
  provider: string;
  model: string;
  continued: boolean;
}

/** The events of a streamed reply, in order: `meta`, `token`…, then `done` with the stored reply. */
export type ReplyEvent =
  ({ type: 'meta' } & ReplyMeta) | { type: 'token'; text: string } | { type: 'done'; message: AssistantReply };

/** A part of a multi-part OpenAI message (Kasa reads the `text` parts). */
export interface ChatCompletionContentPart {
  [key: string]: unknown;
  type: string;
  text?: string | undefined;
}

/** A call of a function tool that the model made, as an assistant message carries it. */
export interface ChatCompletionMessageToolCall {
  id: string;
  type: 'function';
  /** The function's name and its arguments as the model wrote them: a JSON text. */
  function: { name: string; arguments: string };
}

/**
 * One message of an OpenAI Chat Completions request. `content` may be null or left out only on an assistant message
 * that carries `tool_calls`; a `tool` message holds a tool's result and names the call it answers in `tool_call_id`.
 */
export interface ChatCompletionMessageParam {
  role: 'system' | 'user' | 'assistant' | 'developer' | 'tool';
  content?: string | ChatCompletionContentPart[] | null | undefined;
  name?: string | undefined;
  /** An assistant message's calls, as an earlier answer returned them. */
  tool_calls?: ChatCompletionMessageToolCall[] | undefined;
  /** A tool message's answer to: the `id` of a call in an earlier assistant message. */
  tool_call_id?: string | undefined;
}

/** A function the model may call: its name (1 to 64 letters, digits, `_` or `-`) and its parameters' JSON Schema. */
export interface ChatCompletionFunctionTool {
  type: 'function';
  function: {
    name: string;
    description?: string | null | undefined;
    /** A JSON Schema object; left out, the function takes no arguments. */
    parameters?: Record<string, unknown> | null | undefined;
    strict?: boolean | null | undefined;
  };
}

/** `auto` (the model decides), `none`, `required` (at least one call), or the one function the model must call. */
export type ChatCompletionToolChoice = 'auto' | 'none' | 'required' | { type: 'function'; function: { name: string } };

/**
 * The form of the reply: text (the default), any JSON object, or JSON valid against a schema. Kasa checks a JSON reply
 * before it returns it; one that is not what was asked for is a 502 with the code `invalid_model_output`.
 */
export type ChatCompletionResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | {
      type: 'json_schema';
      json_schema: {
        name: string;
        description?: string | null | undefined;
        /** The JSON Schema the reply must satisfy; left out, any JSON value. */
        schema?: Record<string, unknown> | null | undefined;
        strict?: boolean | null | undefined;
      };
    };

/**
 * The body of POST /v1/chat/completions (OpenAI's Chat Completions; the model is a persona id). `tools` and a JSON
 * `response_format` need an AI provider that supports them (with only the built-in offline engine, they are a 400 that
 * names the model). Parameters Kasa does not support (`functions`, `function_call`, `logit_bias`, `top_logprobs`,
 * `n` above 1...) and unknown ones are refused with a 400 whose `param` names them; `logprobs`, `metadata`, `store`,
 * `service_tier`, `modalities` and `prompt_cache_key` are accepted at their harmless values.
 */
export interface ChatCompletionRequest {
  [key: string]: unknown;
  model: string;
  messages: ChatCompletionMessageParam[];
  stream?: boolean | undefined;
  stream_options?:
    { include_usage?: boolean | undefined; include_obfuscation?: boolean | undefined } | null | undefined;
  temperature?: number | null | undefined;
  top_p?: number | null | undefined;
  max_tokens?: number | null | undefined;
  max_completion_tokens?: number | null | undefined;
  stop?: string | string[] | null | undefined;
  seed?: number | null | undefined;
  presence_penalty?: number | null | undefined;
  frequency_penalty?: number | null | undefined;
  n?: number | null | undefined;
  user?: string | undefined;
  safety_identifier?: string | null | undefined;
  response_format?: ChatCompletionResponseFormat | null | undefined;
  /** At most 128, each name once. */
  tools?: ChatCompletionFunctionTool[] | null | undefined;
  /** Only with `tools`, except `none`. */
  tool_choice?: ChatCompletionToolChoice | null | undefined;
  parallel_tool_calls?: boolean | null | undefined;
  logprobs?: boolean | null | undefined;
  metadata?: Record<string, string> | null | undefined;
  store?: boolean | null | undefined;
  service_tier?: string | null | undefined;
  modalities?: string[] | null | undefined;
  prompt_cache_key?: string | null | undefined;
}

export interface ChatCompletionUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** Why the model stopped: the end of its reply, the token limit, or calls of tools that the caller runs. */
export type ChatCompletionFinishReason = 'stop' | 'length' | 'tool_calls';

/** A complete answer of POST /v1/chat/completions. */
export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  system_fingerprint: string;
  choices: Array<{
    index: number;
    message: {
      role: 'assistant';
      /** The reply (with a JSON `response_format`, checked JSON text); null when the model only called tools. */
      content: string | null;
      refusal: null;
      tool_calls?: ChatCompletionMessageToolCall[];
    };
    logprobs: null;
    finish_reason: ChatCompletionFinishReason;
  }>;
  usage: ChatCompletionUsage;
}

/**
 * A piece of a tool call in a streamed answer: the call's first chunk has `index`, `id`, `type` and `function.name`;
 * the chunks after it carry pieces of `function.arguments` under the same `index`.
 */
export interface ChatCompletionChunkToolCall {
  index: number;
  id?: string;
  type?: 'function';
  function: { name?: string; arguments?: string };
}

/** One chunk of a streamed POST /v1/chat/completions. The last one may carry only `usage` (no choices). */
export interface ChatCompletionChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  system_fingerprint: string;
  choices: Array<{
    index: number;
    delta: { role?: 'assistant'; content?: string; tool_calls?: ChatCompletionChunkToolCall[] };
    logprobs: null;
    finish_reason: ChatCompletionFinishReason | null;
  }>;
  usage?: ChatCompletionUsage;
}

/** GET /v1/models: the personas as OpenAI models. */
export interface ModelList {
  object: 'list';
  data: Array<{ id: string; object: 'model'; created: number; owned_by: string; name: string; description: string }>;
}

/** Where a video job is: `queued`, then `running`, then `succeeded` or `failed`. */
export type VideoJobStatus = 'queued' | 'running' | 'succeeded' | 'failed';

/** POST /api/video/generations (Enterprise): a video made from a prompt. */
export interface VideoGenerationRequest {
  /** What the video says and shows (1 to 2,000 characters): read aloud, its sentences shown as captions. */
  prompt: string;
  /** The prompt's language as a BCP 47 tag (`tw`, `fr-CI`), or `auto` to detect it. */
  language: string;
  /** A voice id from `voice.voices()`; the language's default voice when left out. */
  voice?: string | undefined;
}

/** A video being made, or made. Dates are ISO 8601 date-times. */
export interface VideoJob {
  id: string;
  status: VideoJobStatus;
  /** 0 to 100. */
  progress: number;
  prompt: string;
  language: string;
  voice?: string | undefined;
  /** What makes the video: `offline` (speech and caption frames made on the server) or a hosted video model. */
  renderer: string;
  /** Captions drawn on the frames, or a subtitle track beside plain frames; set once rendering starts. */
  captions?: 'burned-in' | 'subtitle-track' | undefined;
  /** Where to fetch the MP4 once the job succeeded (no credential needed: the address itself is the secret). */
  videoUrl?: string | undefined;
  /** Seconds of video, once the job succeeded. */
  duration?: number | undefined;
  /** Why the job failed, fit to show. */
  error?: string | undefined;
  createdAt: string;
  updatedAt: string;
}

/** A video job as its event stream sends it: the job, and while it is queued its place in the queue. */
export interface VideoJobEvent extends VideoJob {
  /** While queued: how many queued jobs were created before this one (0: it is next). */
  queuePosition?: number | undefined;
}

/**
 * One event of `video.events`: `job` with the job at once and on each change while it is queued or running, then
 * `done` with the job once it has succeeded or failed (the last event).
 */
export type VideoEvent = { type: 'job'; job: VideoJobEvent } | { type: 'done'; job: VideoJobEvent };

/** GET /api/video/generations: how many of the newest jobs (1 to 50, default 20), and only those with a status. */
export interface VideoJobListQuery {
  limit?: number | undefined;
  status?: VideoJobStatus | undefined;
}

/** How `video.wait` polls a job. */
export interface VideoWaitOptions {
  /** Between two reads of the job, in ms (default 2 000). */
  intervalMs?: number | undefined;
  /** How long to wait in all, in ms (default 900 000, 15 minutes); then it rejects with `code: 'wait_timeout'`. */
  timeoutMs?: number | undefined;
  /** Called with the job each time it is read (its `status` and `progress`, for a progress bar). */
  onProgress?: ((job: VideoJob) => void) | undefined;
}
