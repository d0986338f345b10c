import { AttachmentIds, MessageAttachment } from './attachments';
import { OPENAI_REQUEST_LIMITS } from './bodyLimits';
import { ObjectIdString } from './common';
import {
  MAX_OPENAI_TOOLS,
  OpenAIFunctionTool,
  OpenAIMessageToolCall,
  OpenAIResponseFormat,
  OpenAIToolChoice,
} from './openaiTools';
import { z } from './zod';

export * from './openaiTools';

export const PersonaId = z.enum(['kasa', 'merla', 'ticha', 'massa', 'nana', 'dokta']).openapi('PersonaId');
export type PersonaId = z.infer<typeof PersonaId>;

export const Persona = z
  .object({
    id: z.string(),
    name: z.string(),
    expertise: z.string(),
    systemPrompt: z.string(),
    avatar: z.string().optional(),
    color: z.string().optional(),
    greeting: z.string().optional(),
  })
  .openapi('Persona');
export type Persona = z.infer<typeof Persona>;

export const CreateSessionRequest = z
  .object({
    personaId: z.string().trim().min(1).max(64),
    title: z.string().trim().min(1).max(200),
  })
  .openapi('CreateSessionRequest');
export type CreateSessionRequest = z.infer<typeof CreateSessionRequest>;

export const Session = z
  .object({ id: z.string(), personaId: z.string(), title: z.string(), createdAt: z.string().datetime() })
  .openapi('Session');
export type Session = z.infer<typeof Session>;

export const MessageRole = z.enum(['user', 'assistant']);
export const MessageType = z.enum(['text', 'voice', 'image']);

export const CreateMessageRequest = z
  .object({
    role: z.literal('user'),
    content: z.string().trim().min(1, 'content is required').max(16_000),
    type: MessageType.default('text'),
    /** The user's language as a BCP 47 tag (e.g. `tw`, `fr-CI`), or `auto` (the default) to detect it. */
    language: z
      .string()
      .trim()
      .regex(/^(auto|[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*)$/, 'language must be a BCP 47 tag or auto')
      .optional(),
    /**
     * With `true`, a streamed reply survives a dropped connection or a page refresh: it goes on being written and
     * stored, `GET .../messages/{id}/stream` follows it, and only `POST .../messages/{id}/stop` stops it. By default
     * (false) the client going away is the stop.
     */
    resumable: z.boolean().optional(),
    /**
     * Images and documents uploaded with `POST /api/chat/attachments` (Pro and Enterprise), at most 4, each mine and
     * not sent in another session. On an edit, leaving it out keeps the edited message's attachments; `[]` drops them.
     */
    attachmentIds: AttachmentIds.optional(),
  })
  .openapi('CreateMessageRequest');
export type CreateMessageRequest = z.infer<typeof CreateMessageRequest>;

export const Message = z
  .object({ id: z.string(), role: MessageRole, content: z.string(), timestamp: z.string().datetime() })
  .openapi('Message');
export type Message = z.infer<typeof Message>;

/**
 * POST /api/chat/sessions/:sessionId/messages/:messageId/edit: the new text of one of my messages. It is stored as a
 * new version of that message (the old one is kept) and answered like a new message; `role` may be sent as in
 * CreateMessageRequest.
 */
export const EditMessageRequest = CreateMessageRequest.omit({ role: true })
  .extend({ role: z.literal('user').optional() })
  .openapi('EditMessageRequest');
export type EditMessageRequest = z.infer<typeof EditMessageRequest>;

/**
 * POST /api/chat/sessions/:sessionId/messages/:messageId/regenerate: a new version of an answer to the same question.
 * `language` as in CreateMessageRequest (left out: the question's own language); `resumable` likewise. The body may be
 * empty.
 */
export const RegenerateRequest = z
  .object({
    language: CreateMessageRequest.shape.language,
    resumable: CreateMessageRequest.shape.resumable,
  })
  .strict()
  .openapi('RegenerateRequest');
export type RegenerateRequest = z.infer<typeof RegenerateRequest>;

/** POST .../messages/:messageId/select: how many messages of the branch it shows to answer with (as `limit` of GET). */
export const SelectVersionQuery = z.object({ limit: z.coerce.number().int().min(1).max(50).default(20) }).strict();
export type SelectVersionQuery = z.infer<typeof SelectVersionQuery>;

export const SessionIdParam = z.object({ sessionId: ObjectIdString });
export const MessageIdParams = z.object({ sessionId: ObjectIdString, messageId: ObjectIdString });

/** A session's id as the path parameter `:id` (the routes under /api/chat/sessions/:id). */
export const SessionIdPathParam = z.object({ id: ObjectIdString });

/** Cursor paging: at most 50 per page; the cursor is the `nextCursor` of the previous page (an opaque id). */
export const ChatPageQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(50).default(20),
    cursor: ObjectIdString.optional(),
  })
  .strict();
export type ChatPageQuery = z.infer<typeof ChatPageQuery>;

export const RenameSessionRequest = z
  .object({ title: z.string().trim().min(1, 'title is required').max(200) })
  .strict()
  .openapi('RenameSessionRequest');
export type RenameSessionRequest = z.infer<typeof RenameSessionRequest>;

export const SessionPage = z
  .object({ sessions: z.array(Session), nextCursor: z.string().nullable() })
  .openapi('SessionPage');
export type SessionPage = z.infer<typeof SessionPage>;

/** How a stored assistant message ended: complete, stopped by the user, or failed (no provider could answer). */
export const MessageStatus = z.enum(['streaming', 'complete', 'stopped', 'failed']);
export type MessageStatus = z.infer<typeof MessageStatus>;

/**
 * Where a message stands among its versions: the messages that follow the same message (an edited question and the
 * question it replaced; each regenerated answer to one question), oldest first. A message never edited nor
 * regenerated is version 1 of 1.
 */
export const MessageVersion = z
  .object({
    /** Its place among `siblingIds`, from 0 (the interface shows `index + 1` of `count`). */
    index: z.number().int().min(0),
    count: z.number().int().min(1),
    /** Every version's id, oldest first, this message's included: `POST .../messages/{id}/select` shows one. */
    siblingIds: z.array(z.string()).min(1),
  })
  .openapi('MessageVersion');
export type MessageVersion = z.infer<typeof MessageVersion>;

/** A message as the session view lists it: the spec's fields plus how it was produced. */
export const StoredMessage = Message.extend({
  type: MessageType,
  status: MessageStatus,
  provider: z.string().optional(),
  model: z.string().optional(),
  /** In a session's messages (and the answers of edit and regenerate): its place among its versions. */
  version: MessageVersion.optional(),
  /** The images and documents sent with a message of mine (`GET /api/chat/attachments/{id}` reads one). */
  attachments: z.array(MessageAttachment).optional(),
}).openapi('StoredMessage');
export type StoredMessage = z.infer<typeof StoredMessage>;

/**
 * GET /api/chat/sessions/:id: the session and one page of its messages, oldest first within the page. A conversation
 * whose messages were edited or regenerated is a tree: the messages listed are its current branch (the versions
 * last shown), each with its `version`.
 */
export const SessionWithMessages = Session.extend({
  messages: z.array(StoredMessage),
  /** Pass as `cursor` to get the page of older messages; null when there are none. */
  nextCursor: z.string().nullable(),
}).openapi('SessionWithMessages');
export type SessionWithMessages = z.infer<typeof SessionWithMessages>;

/**
 * The answer to POST /api/chat/sessions/:sessionId/messages without `Accept: text/event-stream`: the stored
 * assistant message (the spec's {id, role, content, timestamp}) plus the id of the stored user message.
 */
export const AssistantReply = StoredMessage.extend({ userMessageId: z.string() }).openapi('AssistantReply');
export type AssistantReply = z.infer<typeof AssistantReply>;

export const ChatSearchQuery = z
  .object({
    q: z.string().trim().min(1, 'q is required').max(100, 'q must be at most 100 characters'),
    limit: z.coerce.number().int().min(1).max(50).default(20),
  })
  .strict();
export type ChatSearchQuery = z.infer<typeof ChatSearchQuery>;

export const ChatSearchHit = z
  .object({ sessionId: z.string(), sessionTitle: z.string(), personaId: z.string(), message: Message })
  .openapi('ChatSearchHit');
export const ChatSearchResults = z.object({ results: z.array(ChatSearchHit) }).openapi('ChatSearchResults');
export type ChatSearchResults = z.infer<typeof ChatSearchResults>;

/** Server-Sent Events of a streamed reply, in order: meta, token…, then done or error. */
export const StreamMetaEvent = z.object({
  userMessageId: z.string(),
  assistantMessageId: z.string(),
  /** The provider now answering; a later `meta` with `continued: true` means another provider took over. */
  provider: z.string(),
  model: z.string(),
  continued: z.boolean(),
});
export const StreamTokenEvent = z.object({ text: z.string() });
export const StreamErrorEvent = z.object({ message: z.string() });

const { messages: MAX_MESSAGES, messageChars: MAX_MESSAGE_CHARS, totalChars: MAX_TOTAL_CHARS } = OPENAI_REQUEST_LIMITS;
const chars = (n: number) => n.toLocaleString('en-US');

/** The characters of a message's text: the string, or the `text` of its parts together. */
const textLengthOf = (content: string | Array<{ text?: string }> | null | undefined): number =>
  content == null
    ? 0
    : typeof content === 'string'
      ? content.length
      : content.reduce((sum, part) => sum + (part.text?.length ?? 0), 0);

/** A message's characters: its text and the arguments of the tool calls it carries. */
const messageLengthOf = (message: {
  content?: string | Array<{ text?: string }> | null;
  tool_calls?: Array<{ function: { arguments: string } }> | undefined;
}): number =>
  textLengthOf(message.content) +
  (message.tool_calls ?? []).reduce((sum, call) => sum + call.function.arguments.length, 0);

/**
 * OpenAI-compatible API (POST /v1/chat/completions): personas are the models. The text limits
 * (`OPENAI_REQUEST_LIMITS`) keep every conversation they allow within the route's 1 MB body limit.
 */
export const OpenAIChatMessage = z
  .object({
    role: z.enum(['system', 'user', 'assistant', 'developer', 'tool']),
    /** Required, except on an assistant message that carries `tool_calls` (then it may be null). */
    content: z
      .union([
        z.string().max(MAX_MESSAGE_CHARS, `a message holds at most ${chars(MAX_MESSAGE_CHARS)} characters`),
        z
          .array(
            z
              .object({
                type: z.string(),
                text: z
                  .string()
                  .max(MAX_MESSAGE_CHARS, `a message holds at most ${chars(MAX_MESSAGE_CHARS)} characters`)
                  .optional(),
              })
              .passthrough(),
          )
          .max(100),
      ])
      .nullish(),
    name: z.string().max(64).optional(),
    /** An assistant message's calls of the request's tools, as the model made them. */
    tool_calls: z.array(OpenAIMessageToolCall).max(MAX_OPENAI_TOOLS).optional(),
    /** A tool message's answer to: the `id` of a call in an earlier assistant message. */
    tool_call_id: z.string().min(1).max(256).optional(),
  })
  .superRefine((message, ctx) => {
    const issue = (path: (string | number)[], text: string) => ctx.addIssue({ code: 'custom', path, message: text });
    if (message.content == null && !(message.role === 'assistant' && message.tool_calls?.length))
      issue(['content'], 'content is required (only an assistant message with tool_calls may leave it out)');
    if (message.tool_calls !== undefined && message.role !== 'assistant')
      issue(['tool_calls'], 'only assistant messages may carry tool_calls');
    if (message.role === 'tool' && !message.tool_call_id)
      issue(['tool_call_id'], 'a tool message needs the tool_call_id of the call it answers');
    if (message.role !== 'tool' && message.tool_call_id !== undefined)
      issue(['tool_call_id'], 'only tool messages may carry a tool_call_id');
    // Parts together: the provider receives them joined into one text.
    if (Array.isArray(message.content) && textLengthOf(message.content) > MAX_MESSAGE_CHARS)
      issue(['content'], `a message holds at most ${chars(MAX_MESSAGE_CHARS)} characters (its parts together)`);
    if (!Array.isArray(message.content)) return;
    message.content.forEach((part, index) => {
      if (message.role === 'tool' && part.type !== 'text')
        issue(['content', index, 'type'], 'a tool message holds text parts only');
      if (part.type !== 'image_url') return;
      if (message.role !== 'user') issue(['content', index], 'only user messages may carry images');
      const url = (part as { image_url?: { url?: unknown } }).image_url?.url;
      const problem = imageUrlProblem(url);
      if (problem) issue(['content', index, 'image_url', 'url'], problem);
    });
  });

/** `data:image/png;base64,...` (PNG, JPEG, WebP or GIF); what the chat service decodes and checks by its bytes. */
export const OPENAI_IMAGE_DATA_URL = /^data:(image\/(?:png|jpeg|jpg|webp|gif));base64,([A-Za-z0-9+/=\s]+)$/;

/** Why an `image_url.url` is refused, or undefined when it is a data URL of an accepted image type. */
function imageUrlProblem(url: unknown): string | undefined {
  if (typeof url !== 'string') return 'image_url.url is required';
  if (/^https?:/i.test(url))
    return 'image URLs on the web are not fetched: send the image inline as a data URL (data:image/png;base64,...)';
  if (!OPENAI_IMAGE_DATA_URL.test(url))
    return 'an image must be a base64 data URL of a PNG, JPEG, WebP or GIF image (data:image/png;base64,...)';
  return undefined;
}

const imagePartsOf = (content: OpenAIChatMessageContent): number =>
  Array.isArray(content) ? content.filter((part) => part.type === 'image_url').length : 0;
type OpenAIChatMessageContent = string | Array<{ type: string }> | null | undefined;
/** The content part types a message may hold; the others (`input_audio`, `file`) are refused. */
const OPENAI_PART_TYPES = new Set(['text', 'image_url']);

/**
 * OpenAI's `code` for a refused parameter: one Kasa does not support at all, a value of a supported one that it does
 * not support, or a name OpenAI does not have either.
 */
export const OpenAIParamCode = {
  unsupportedParameter: 'unsupported_parameter',
  unsupportedValue: 'unsupported_value',
  unknownParameter: 'unknown_parameter',
} as const;

/** OpenAI parameters Kasa refuses whatever their value (null, and an empty list or map, mean "not set"). */
const UNSUPPORTED_COMPLETION_PARAMS: Record<string, string> = {
  functions: 'functions is not supported (no function calling through this deprecated parameter): use tools',
  function_call:
    'function_call is not supported (no function calling through this deprecated parameter): use tool_choice',
  audio: 'audio output is not supported here; POST /api/voice/synthesize reads a reply aloud',
  top_logprobs: 'log probabilities are not available: top_logprobs is not supported',
  logit_bias: 'logit_bias is not supported: the AI providers behind the personas do not share one tokenizer',
  prediction: 'prediction is not supported: predicted outputs are not available',
  reasoning_effort: 'reasoning_effort is not supported: the personas choose their own models',
  verbosity: 'verbosity is not supported: the personas set their own style',
  web_search_options: 'web_search_options is not supported: the personas do not search the web',
};

/** Accepted values of the parameters Kasa accepts only as their harmless (default) value. */
const HARMLESS_ONLY: Record<string, { ok: (value: unknown) => boolean; message: string }> = {
  logprobs: { ok: (v) => v === false, message: 'log probabilities are not available: logprobs must be false' },
  store: {
    ok: (v) => v === false,
    message: 'store must be false: Kasa keeps no copy of /v1 conversations to retrieve later',
  },
  service_tier: {
    ok: (v) => v === 'auto' || v === 'default',
    message: 'service_tier must be "auto" or "default": Kasa has one service tier',
  },
  modalities: {
    ok: (v) => Array.isArray(v) && v.every((m) => m === 'text'),
    message: 'only the text modality is supported: modalities must be ["text"]',
  },
};

/** "Not set" as official clients send it: null, an empty list or an empty map. */
const isUnset = (value: unknown): boolean =>
  value == null ||
  (Array.isArray(value) && value.length === 0) ||
  (typeof value === 'object' && !Array.isArray(value) && Object.keys(value as object).length === 0);

const completionRequestShape = {
  model: z.string().min(1).max(64),
  messages: z
    .array(OpenAIChatMessage)
    .min(1, 'messages must not be empty')
    .max(MAX_MESSAGES, `a request holds at most ${MAX_MESSAGES} messages`),
  stream: z.boolean().optional(),
  stream_options: z
    .object({
      include_usage: z.boolean().optional(),
      /** Accepted and ignored: Kasa's chunks carry no obfuscation padding. */
      include_obfuscation: z.boolean().optional(),
    })
    .strict()
    .nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  max_tokens: z.number().int().positive().nullish(),
  max_completion_tokens: z.number().int().positive().nullish(),
  stop: z.union([z.string().max(200), z.array(z.string().max(200)).max(4)]).nullish(),
  seed: z.number().int().nullish(),
  presence_penalty: z.number().min(-2).max(2).nullish(),
  frequency_penalty: z.number().min(-2).max(2).nullish(),
  /** Only 1: Kasa answers with one choice. */
  n: z.number().int().positive().nullish(),
  /** The end user's id, passed to the AI provider for abuse monitoring. */
  user: z.string().max(256).optional(),
  /** OpenAI's newer name for `user`; passed the same way when `user` is not set. */
  safety_identifier: z.string().max(256).nullish(),
  /** Text (the default), JSON mode or structured output: a JSON reply is checked before it is returned. */
  response_format: OpenAIResponseFormat.nullish(),
  /** The functions the model may call (the caller runs them and sends the results back as tool messages). */
  tools: z
    .array(OpenAIFunctionTool)
    .max(MAX_OPENAI_TOOLS, `a request offers at most ${MAX_OPENAI_TOOLS} tools`)
    .nullish(),
  /** Whether and which tool the model must call; only with tools, except "none". */
  tool_choice: OpenAIToolChoice.nullish(),
  /** Whether the model may call several tools in one turn; passed to the providers that take it. */
  parallel_tool_calls: z.boolean().nullish(),
  // Accepted as official clients send them, and ignored (they change nothing in the answer).
  /** Only false. */
  logprobs: z.boolean().nullish(),
  /** Accepted and ignored (Kasa stores no /v1 conversations): up to 16 string pairs. */
  metadata: z
    .record(z.string().max(64), z.string().max(512))
    .refine((m) => Object.keys(m).length <= 16, 'metadata holds at most 16 keys')
    .nullish(),
  /** Only false. */
  store: z.boolean().nullish(),
  /** Only "auto" or "default". */
  service_tier: z.string().max(32).nullish(),
  /** Only ["text"]. */
  modalities: z.array(z.string().max(16)).max(4).nullish(),
  /** Accepted and ignored: caching is each provider's own. */
  prompt_cache_key: z.string().max(256).nullish(),
};
const KNOWN_COMPLETION_PARAMS = new Set([
  ...Object.keys(completionRequestShape),
  ...Object.keys(UNSUPPORTED_COMPLETION_PARAMS),
]);

type CompletionFields = {
  messages: Array<{ role: string; tool_calls?: Array<{ id: string }>; tool_call_id?: string }>;
  tools?: Array<{ function: { name: string } }> | null;
  tool_choice?: OpenAIToolChoice | null;
};

/**
 * The rules between fields, as OpenAI has them: a tool_choice other than "none" needs tools and names one of them,
 * tool names are unique, and a tool message answers a call of an earlier assistant message.
 */
function refineTools(body: CompletionFields, ctx: z.RefinementCtx): void {
  const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });
  const names = (body.tools ?? []).map((tool) => tool.function.name);
  const choice = body.tool_choice;
  if (choice != null && choice !== 'none' && names.length === 0)
    issue(['tool_choice'], 'tool_choice is only allowed when tools are specified');
  if (choice != null && typeof choice === 'object' && names.length > 0 && !names.includes(choice.function.name))
    issue(['tool_choice'], `tool_choice names the function '${choice.function.name}', which is not in tools`);
  names.forEach((name, index) => {
    if (names.indexOf(name) !== index)
      issue(['tools', index, 'function', 'name'], `the tool '${name}' is listed twice`);
  });
  const calls = new Set<string>();
  body.messages.forEach((message, index) => {
    for (const call of message.tool_calls ?? []) calls.add(call.id);
    if (message.role === 'tool' && message.tool_call_id && !calls.has(message.tool_call_id))
      issue(
        ['messages', index, 'tool_call_id'],
        `a tool message must answer a call of an earlier assistant message: no tool call has the id '${message.tool_call_id}'`,
      );
  });
}

/**
 * The parameters Kasa passes to the AI provider, those it accepts as official clients send them and ignores, and —
 * refused with a 400 that names the parameter, never silently ignored — those it does not support and unknown ones.
 */
export const OpenAIChatCompletionRequest = z
  .looseObject(completionRequestShape)
  .superRefine((body, ctx) => {
    const fields = body as Record<string, unknown>;
    const refuse = (name: string, message: string, code: string) =>
      ctx.addIssue({ code: 'custom', path: [name], message, params: { code } });
    for (const name of Object.keys(fields)) {
      if (!KNOWN_COMPLETION_PARAMS.has(name))
        refuse(name, `Unrecognized request argument supplied: ${name}`, OpenAIParamCode.unknownParameter);
    }
    for (const [name, message] of Object.entries(UNSUPPORTED_COMPLETION_PARAMS)) {
      if (!isUnset(fields[name])) refuse(name, message, OpenAIParamCode.unsupportedParameter);
    }
    for (const [name, rule] of Object.entries(HARMLESS_ONLY)) {
      const value = fields[name];
      if (value != null && !rule.ok(value)) refuse(name, rule.message, OpenAIParamCode.unsupportedValue);
    }
    if (body.n != null && body.n > 1)
      refuse('n', 'Kasa answers with one choice per request; n must be 1', OpenAIParamCode.unsupportedValue);
    body.messages.forEach((message, index) => {
      if (!Array.isArray(message.content)) return;
      message.content.forEach((part, partIndex) => {
        if (!OPENAI_PART_TYPES.has(part.type))
          ctx.addIssue({
            code: 'custom',
            path: ['messages', index, 'content', partIndex, 'type'],
            message: `content parts of type "${part.type}" are not supported: send text and image_url parts`,
            params: { code: OpenAIParamCode.unsupportedValue },
          });
      });
    });
    refineTools(body, ctx);
    const total = body.messages.reduce((sum, message) => sum + messageLengthOf(message), 0);
    if (total > MAX_TOTAL_CHARS)
      ctx.addIssue({
        code: 'custom',
        path: ['messages'],
        message: `the messages hold ${chars(total)} characters in all; at most ${chars(MAX_TOTAL_CHARS)} fit in one request`,
      });
    const images = body.messages.reduce((sum, message) => sum + imagePartsOf(message.content), 0);
    if (images > OPENAI_REQUEST_LIMITS.images)
      ctx.addIssue({
        code: 'custom',
        path: ['messages'],
        message: `a request carries at most ${OPENAI_REQUEST_LIMITS.images} images`,
      });
  })
  .openapi('OpenAIChatCompletionRequest', {
    additionalProperties: false,
    description:
      'Tools (function calling) and response_format (JSON mode, structured output) need an AI provider that ' +
      'supports them: with only the built-in offline engine, they are a 400 naming the model. OpenAI parameters ' +
      'Kasa does not support (functions, function_call, audio, logit_bias, top_logprobs, prediction, ' +
      'reasoning_effort, verbosity, web_search_options), values other than the harmless default of logprobs, ' +
      'store, service_tier and modalities, n above 1, and unknown parameters are refused with a 400 whose ' +
      'error.param names the parameter.',
  });
export type OpenAIChatCompletionRequest = z.infer<typeof OpenAIChatCompletionRequest>;

/** Kasa's own name for "each provider's default embedding model" on POST /v1/embeddings (tried in chain order). */
export const KASA_EMBEDDING_MODEL = 'kasa-embedding';
/** Texts in one POST /v1/embeddings request. */
export const MAX_EMBEDDING_INPUTS = 256;

/**
 * OpenAI-compatible API (POST /v1/embeddings): texts to embed with a connected provider that has embeddings. `model`
 * is `kasa-embedding` (each provider's default embedding model, in chain order) or a model a provider knows. Token
 * arrays are refused: Kasa does not know each provider's tokenizer.
 */
export const OpenAIEmbeddingRequest = z
  .strictObject({
    model: z.string().trim().min(1).max(200).openapi({ example: KASA_EMBEDDING_MODEL }),
    input: z.union(
      [
        z.string().min(1, 'must not be empty').max(MAX_MESSAGE_CHARS),
        z
          .array(z.string().min(1, 'must not be empty').max(MAX_MESSAGE_CHARS))
          .min(1)
          .max(MAX_EMBEDDING_INPUTS, `at most ${MAX_EMBEDDING_INPUTS} texts per request`)
          .refine((texts) => texts.reduce((sum, t) => sum + t.length, 0) <= MAX_TOTAL_CHARS, {
            error: `at most ${chars(MAX_TOTAL_CHARS)} characters in all`,
          }),
      ],
      {
        error: `must be a text or a list of 1 to ${MAX_EMBEDDING_INPUTS} texts (each 1 to ${chars(MAX_MESSAGE_CHARS)} characters, ${chars(MAX_TOTAL_CHARS)} in all)`,
      },
    ),
    /** `float` (the default) or `base64` (the little-endian float32 bytes, which OpenAI's clients ask for). */
    encoding_format: z.enum(['float', 'base64']).optional(),
    /** Fewer dimensions, for the models that can give them (OpenAI's text-embedding-3). */
    dimensions: z.number().int().min(1).max(8_192).optional(),
    user: z.string().max(256).optional(),
  })
  .openapi('OpenAIEmbeddingRequest');
export type OpenAIEmbeddingRequest = z.infer<typeof OpenAIEmbeddingRequest>;

export const OpenAIEmbeddingList = z
  .object({
    object: z.literal('list'),
    data: z.array(
      z.object({
        object: z.literal('embedding'),
        index: z.number().int().nonnegative(),
        embedding: z.union([z.array(z.number()), z.string()]),
      }),
    ),
    /** The provider's model that made them. */
    model: z.string(),
    usage: z.object({ prompt_tokens: z.number().int().nonnegative(), total_tokens: z.number().int().nonnegative() }),
  })
  .openapi('OpenAIEmbeddingList');
export type OpenAIEmbeddingList = z.infer<typeof OpenAIEmbeddingList>;

/** An Enterprise user's own persona (spec section 6: custom personas are an Enterprise feature). */
export const CreatePersonaRequest = z
  .object({
    name: z.string().trim().min(1, 'name is required').max(40),
    expertise: z.string().trim().min(1, 'expertise is required').max(120),
    systemPrompt: z.string().trim().min(1, 'systemPrompt is required').max(4_000),
    avatar: z.string().trim().max(16).optional(),
    color: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/, 'color must be a hex colour such as #6d28d9')
      .optional(),
    greeting: z.string().trim().max(300).optional(),
  })
  .strict()
  .openapi('CreatePersonaRequest');
export type CreatePersonaRequest = z.infer<typeof CreatePersonaRequest>;
export const UpdatePersonaRequest = CreatePersonaRequest.partial()
  .strict()
  .refine((body) => Object.keys(body).length > 0, 'nothing to change')
  .openapi('UpdatePersonaRequest');
export type UpdatePersonaRequest = z.infer<typeof UpdatePersonaRequest>;
export const PersonaIdParam = z.object({ id: ObjectIdString });

/** GET /api/chat/providers: the AI providers in the order they are tried, and each one's circuit breaker. */
export const ChatProvidersResponse = z
  .object({
    providers: z.array(
      z.object({ name: z.string(), model: z.string(), circuit: z.enum(['closed', 'open', 'half-open']) }),
    ),
  })
  .openapi('ChatProvidersResponse');
export type ChatProvidersResponse = z.infer<typeof ChatProvidersResponse>;

/**
 * GET /api/chat/capabilities (public): what this server's chat can do now, with the AI providers connected at this
 * moment, so that the pricing page and the upgrade prompts never sell what the server cannot do.
 */
export const ChatCapabilities = z
  .object({
    /** An AI provider is connected (else replies come from the offline notes). */
    aiConnected: z.boolean(),
    /** A connected provider sees images sent with messages. */
    images: z.boolean(),
    /** Questions about documents: answered by a model from their text (`ai`), or by quoting the passages that match. */
    documents: z.enum(['ai', 'quotes']),
    /** The OpenAI-compatible API's tools and JSON replies have a provider that takes them. */
    tools: z.boolean(),
    structuredOutput: z.boolean(),
  })
  .openapi('ChatCapabilities');
export type ChatCapabilities = z.infer<typeof ChatCapabilities>;
