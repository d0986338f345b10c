import { OPENAI_REQUEST_LIMITS } from './bodyLimits';
import { OpenAIParamCode } from './chat';
import { MAX_OPENAI_TOOLS, OPENAI_FUNCTION_NAME } from './openaiTools';
import { z } from './zod';

/**
 * OpenAI's Responses API on Kasa (POST /v1/responses, GET and DELETE /v1/responses/{id}): the subset that OpenAI's
 * client libraries and agent frameworks send by default (text and images in, text, JSON and function calls out,
 * `previous_response_id` to continue a stored conversation). Personas are the models, as on /v1/chat/completions.
 */

const {
  messages: MAX_ITEMS,
  messageChars: MAX_TEXT,
  totalChars: MAX_TOTAL,
  images: MAX_IMAGES,
} = OPENAI_REQUEST_LIMITS;
const chars = (n: number) => n.toLocaleString('en-US');

/** The limits of one request's input, and of a stored conversation continued with `previous_response_id`. */
export const OPENAI_RESPONSES_LIMITS = {
  /** Input items in one request, and items in a conversation (its stored history, the new input and the output). */
  items: MAX_ITEMS,
  /** Characters of one item's text (a message's parts together, a call's arguments, a call's output). */
  itemChars: MAX_TEXT,
  /** Characters of all the items' text together. */
  totalChars: MAX_TOTAL,
  /** Images (`input_image` parts with base64 data URLs) in a request, and in a conversation. */
  images: MAX_IMAGES,
  /** Days a stored response can be retrieved and continued. */
  storedDays: 30,
} as const;

const textOf = (what: string) =>
  z.string({ error: `${what} must be a string` }).max(MAX_TEXT, `${what} holds at most ${chars(MAX_TEXT)} characters`);
const functionName = (what: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? `${what} is required` : `${what} must be a string`) })
    .regex(OPENAI_FUNCTION_NAME, `${what} has 1 to 64 letters, digits, underscores or dashes`);
const itemId = z.string().max(256);
const itemStatus = z.enum(['in_progress', 'completed', 'incomplete']);

/**
 * A value whose `type` must be one of `types`: any other type is a 400 `unsupported_value` naming it (e.g. a
 * `web_search` tool, an `input_file` part, a `reasoning` item), before the value's own schema is checked.
 */
function ofSupportedType<T extends z.ZodType>(
  types: readonly string[],
  refusal: (type: string) => string,
  schema: T,
  normalize: (value: Record<string, unknown>) => Record<string, unknown> = (value) => value,
) {
  return z.preprocess((input, ctx) => {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return input;
    const value = normalize(input as Record<string, unknown>);
    const type = value.type;
    if (typeof type === 'string' && !types.includes(type))
      ctx.issues.push({
        code: 'custom',
        message: refusal(type),
        input,
        path: ['type'],
        params: { code: OpenAIParamCode.unsupportedValue },
      });
    return value;
  }, schema);
}

/** A text given as a string is one text part: every content is read as a list of parts. */
const asParts = (partType: string) => (input: unknown) =>
  typeof input === 'string' ? [{ type: partType, text: input }] : input;

const InputTextPart = z.object({ type: z.literal('input_text'), text: textOf('a text part') });
const OutputTextPart = z.object({
  type: z.literal('output_text'),
  text: textOf('a text part'),
  /** Accepted as a response's own output carries them back (always empty on Kasa's). */
  annotations: z.array(z.unknown()).max(100).nullish(),
  logprobs: z.array(z.unknown()).max(0, 'log probabilities are not available').nullish(),
});
const RefusalPart = z.object({ type: z.literal('refusal'), refusal: textOf('a refusal') });
/** An image: a base64 data URL (PNG, JPEG, WebP or GIF), as /v1/chat/completions takes images. */
const InputImagePart = z.object({
  type: z.literal('input_image'),
  image_url: z
    .string()
    .max(MAX_TOTAL * 4)
    .nullish(),
  file_id: z.string().max(256).nullish(),
  detail: z.enum(['low', 'high', 'auto', 'original']).nullish(),
});

/** `data:image/png;base64,...` (PNG, JPEG, WebP or GIF), as /v1/chat/completions takes them. */
const IMAGE_DATA_URL = /^data:(image\/(?:png|jpeg|jpg|webp|gif));base64,([A-Za-z0-9+/=\s]+)$/;

/** Why an `input_image` part is refused, or undefined. */
function imageProblem(part: z.infer<typeof InputImagePart>): { path: string; message: string } | undefined {
  if (part.file_id != null)
    return { path: 'file_id', message: 'images by file_id are not supported: send image_url as a data URL' };
  const url = part.image_url;
  if (url == null) return { path: 'image_url', message: 'image_url is required' };
  if (/^https?:/i.test(url))
    return {
      path: 'image_url',
      message: 'image URLs on the web are not fetched: send the image inline as a data URL (data:image/png;base64,...)',
    };
  if (!IMAGE_DATA_URL.test(url))
    return {
      path: 'image_url',
      message: 'an image must be a base64 data URL of a PNG, JPEG, WebP or GIF image (data:image/png;base64,...)',
    };
  return undefined;
}

const ContentPart = ofSupportedType(
  ['input_text', 'output_text', 'refusal', 'input_image'],
  (type) => `content parts of type "${type}" are not supported: send input_text and input_image parts`,
  z.discriminatedUnion('type', [InputTextPart, OutputTextPart, RefusalPart, InputImagePart]),
);
export type OpenAIResponsesContentPart = z.infer<typeof ContentPart>;

/** The characters of a list of parts' text. */
const partsLength = (parts: OpenAIResponsesContentPart[]) =>
  parts.reduce((sum, p) => sum + (p.type === 'refusal' ? p.refusal.length : 'text' in p ? p.text.length : 0), 0);

/** A message: `role` with a text, or a list of parts (images in user messages only). */
const MessageItem = z
  .object({
    type: z.literal('message'),
    role: z.enum(['user', 'assistant', 'system', 'developer'], {
      error: 'role must be "user", "assistant", "system" or "developer"',
    }),
    content: z.preprocess(asParts('input_text'), z.array(ContentPart).max(100, 'a message holds at most 100 parts')),
    id: itemId.nullish(),
    status: itemStatus.nullish(),
    phase: z.string().max(32).nullish(),
  })
  .superRefine((message, ctx) => {
    if (partsLength(message.content) > MAX_TEXT)
      ctx.addIssue({
        code: 'custom',
        path: ['content'],
        message: `a message holds at most ${chars(MAX_TEXT)} characters (its parts together)`,
      });
    message.content.forEach((part, index) => {
      if (part.type !== 'input_image') return;
      if (message.role !== 'user')
        return ctx.addIssue({ code: 'custom', path: ['content', index], message: 'only user messages carry images' });
      const problem = imageProblem(part);
      if (problem) ctx.addIssue({ code: 'custom', path: ['content', index, problem.path], message: problem.message });
    });
  });

/** A call the model made, carried back in the conversation. */
const FunctionCallItem = z.object({
  type: z.literal('function_call'),
  call_id: z.string().min(1, 'call_id must not be empty').max(256),
  name: functionName('a function name'),
  /** The arguments as the model wrote them: a JSON text. */
  arguments: textOf('arguments'),
  id: itemId.nullish(),
  status: itemStatus.nullish(),
});

/** The result of a call, from the caller who ran it: a text, or text parts. */
const FunctionCallOutputItem = z.object({
  type: z.literal('function_call_output'),
  call_id: z.string().min(1, 'call_id must not be empty').max(256),
  output: z.preprocess(
    asParts('input_text'),
    z
      .array(
        ofSupportedType(
          ['input_text'],
          (type) => `a function_call_output holds text only: parts of type "${type}" are not supported`,
          InputTextPart,
        ),
      )
      .max(100),
  ),
  id: itemId.nullish(),
  status: itemStatus.nullish(),
});

/** An item of an earlier stored response of the caller's, by its id (as clients send for their own history). */
const ItemReference = z.object({ type: z.literal('item_reference'), id: z.string().min(1).max(256) });

/**
 * One input item. A message may leave out `type` (OpenAI's easy input message); other item types (reasoning,
 * hosted tool calls, files) are a 400 `unsupported_value`.
 */
export const OpenAIResponsesInputItem = ofSupportedType(
  ['message', 'function_call', 'function_call_output', 'item_reference'],
  (type) =>
    `input items of type "${type}" are not supported: send messages, function_call, function_call_output and ` +
    'item_reference items',
  z.discriminatedUnion('type', [MessageItem, FunctionCallItem, FunctionCallOutputItem, ItemReference], {
    error: 'an input item is a message (role and content), function_call, function_call_output or item_reference',
  }),
  (value) => (value.type === undefined && 'role' in value ? { ...value, type: 'message' } : value),
).openapi('OpenAIResponsesInputItem');
export type OpenAIResponsesInputItem = z.infer<typeof OpenAIResponsesInputItem>;
/** An input item as a conversation holds it: references resolved to the items they name. */
export type OpenAIResponsesConversationItem = Exclude<OpenAIResponsesInputItem, { type: 'item_reference' }>;

/** A function the model may call (the Responses API's flat shape: `name` beside `type`). */
export const OpenAIResponsesFunctionTool = ofSupportedType(
  ['function'],
  (type) => `tools of type "${type}" are not supported: Kasa offers function tools (which the caller runs) only`,
  z
    .object({
      type: z.literal('function'),
      name: functionName('a function name'),
      description: z.string().max(4_096).nullish(),
      /** The arguments as a JSON Schema object; left out, the function takes none. */
      parameters: z.record(z.string(), z.unknown()).nullish(),
      strict: z.boolean().nullish(),
    })
    .strict(),
).openapi('OpenAIResponsesFunctionTool');
export type OpenAIResponsesFunctionTool = z.infer<typeof OpenAIResponsesFunctionTool>;

/** `auto`, `none`, `required`, or one named function (`{type: "function", name}`). */
export const OpenAIResponsesToolChoice = z
  .union(
    [
      z.enum(['auto', 'none', 'required']),
      z.object({ type: z.literal('function'), name: functionName('a function name') }).strict(),
    ],
    {
      error: 'tool_choice must be "auto", "none", "required" or {"type": "function", "name": "<a tool\'s name>"}',
    },
  )
  .openapi('OpenAIResponsesToolChoice');
export type OpenAIResponsesToolChoice = z.infer<typeof OpenAIResponsesToolChoice>;

/** The form of the reply: text (the default), any JSON object, or JSON a schema describes (checked by Kasa). */
export const OpenAIResponsesTextFormat = z
  .discriminatedUnion(
    'type',
    [
      z.object({ type: z.literal('text') }).strict(),
      z.object({ type: z.literal('json_object') }).strict(),
      z
        .object({
          type: z.literal('json_schema'),
          name: functionName('the schema name'),
          schema: z.record(z.string(), z.unknown()),
          description: z.string().max(4_096).nullish(),
          strict: z.boolean().nullish(),
        })
        .strict(),
    ],
    { error: 'text.format.type must be "text", "json_object" or "json_schema"' },
  )
  .openapi('OpenAIResponsesTextFormat');
export type OpenAIResponsesTextFormat = z.infer<typeof OpenAIResponsesTextFormat>;

/** OpenAI parameters Kasa refuses whatever their value (null, and an empty list or map, mean "not set"). */
const UNSUPPORTED_RESPONSES_PARAMS: Record<string, string> = {
  conversation: 'conversation is not supported (Kasa has no Conversations API): continue with previous_response_id',
  prompt: 'prompt is not supported: Kasa has no stored prompt templates',
  max_tool_calls: 'max_tool_calls is not supported: Kasa runs no tools itself; the caller decides which calls to run',
  context_management: 'context_management is not supported: Kasa fits the history to each persona itself',
};

/** Accepted values of the parameters Kasa accepts only as their harmless (default) value. */
const HARMLESS_ONLY: Record<string, { ok: (value: unknown) => boolean; message: string }> = {
  background: { ok: (v) => v === false, message: 'background responses are not supported: background must be false' },
  service_tier: {
    ok: (v) => v === 'auto' || v === 'default',
    message: 'service_tier must be "auto" or "default": Kasa has one service tier',
  },
  top_logprobs: { ok: (v) => v === 0, message: 'log probabilities are not available: top_logprobs must be 0' },
};

/** "Not set" as official clients send it: null, an empty list or an empty map. */
const isUnset = (value: unknown): boolean =>
  value == null ||
  (Array.isArray(value) && value.length === 0) ||
  (typeof value === 'object' && !Array.isArray(value) && Object.keys(value as object).length === 0);

/** The characters of an item's text. */
export function itemLengthOf(item: OpenAIResponsesInputItem): number {
  switch (item.type) {
    case 'message':
      return partsLength(item.content);
    case 'function_call':
      return item.arguments.length;
    case 'function_call_output':
      return partsLength(item.output);
    default:
      return 0;
  }
}

/** The images an item carries. */
export const itemImagesOf = (item: OpenAIResponsesInputItem): number =>
  item.type === 'message' ? item.content.filter((part) => part.type === 'input_image').length : 0;

const responsesRequestShape = {
  /** A persona id (GET /v1/models lists them). */
  model: z.string().min(1).max(64),
  /** A text (one user message) or a list of items. */
  input: z
    .preprocess(
      (input) => (typeof input === 'string' ? [{ type: 'message', role: 'user', content: input }] : input),
      z
        .array(OpenAIResponsesInputItem, { error: 'input must be a text or a list of items' })
        .min(1, 'input must not be empty')
        .max(MAX_ITEMS, `input holds at most ${MAX_ITEMS} items`),
    )
    .openapi({
      description:
        'A text (one user message), or a list of items; a text is read as [{"role": "user", "content": <text>}]',
    }),
  /** Added to the persona's system prompt for this response only (not carried to the next one). */
  instructions: textOf('instructions').nullish(),
  /** The stored response this one continues: its conversation (input and output) comes before `input`. */
  previous_response_id: z.string().min(1).max(64).nullish(),
  tools: z
    .array(OpenAIResponsesFunctionTool)
    .max(MAX_OPENAI_TOOLS, `a request offers at most ${MAX_OPENAI_TOOLS} tools`)
    .nullish(),
  tool_choice: OpenAIResponsesToolChoice.nullish(),
  parallel_tool_calls: z.boolean().nullish(),
  text: z
    .object({
      format: OpenAIResponsesTextFormat.nullish(),
      /** Only unset: the personas set their own style. */
      verbosity: z.enum(['low', 'medium', 'high']).nullish(),
    })
    .strict()
    .nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  max_output_tokens: z.number().int().positive().nullish(),
  /** Up to 16 string pairs, stored and returned with the response. */
  metadata: z
    .record(z.string().max(64), z.string().max(512))
    .refine((m) => Object.keys(m).length <= 16, 'metadata holds at most 16 keys')
    .nullish(),
  /** The end user's id, passed to the AI provider for abuse monitoring. */
  user: z.string().max(256).nullish(),
  safety_identifier: z.string().max(256).nullish(),
  /** Whether the response is kept (30 days) to be retrieved and continued; default true. */
  store: z.boolean().nullish(),
  stream: z.boolean().nullish(),
  // Accepted as official clients send them, and ignored (they change nothing in the answer).
  /** Extra output OpenAI can add (encrypted reasoning, log probabilities, sources): Kasa has none to add. */
  include: z.array(z.string().max(128)).max(32).nullish(),
  /** Reasoning settings: the personas are not reasoning models, as OpenAI ignores them for its own. */
  reasoning: z
    .object({
      effort: z.string().max(32).nullish(),
      summary: z.string().max(32).nullish(),
      generate_summary: z.string().max(32).nullish(),
    })
    .nullish(),
  /** Kasa always fits the history to the persona's budget. */
  truncation: z.enum(['auto', 'disabled']).nullish(),
  stream_options: z.object({ include_obfuscation: z.boolean().nullish() }).strict().nullish(),
  prompt_cache_key: z.string().max(256).nullish(),
  prompt_cache_retention: z.string().max(32).nullish(),
  /** Only false. */
  background: z.boolean().nullish(),
  /** Only "auto" or "default". */
  service_tier: z.string().max(32).nullish(),
  /** Only 0. */
  top_logprobs: z.number().int().nullish(),
};
const KNOWN_RESPONSES_PARAMS = new Set([
  ...Object.keys(responsesRequestShape),
  ...Object.keys(UNSUPPORTED_RESPONSES_PARAMS),
]);

/**
 * POST /v1/responses. The parameters Kasa acts on, those it accepts as official clients send them and ignores, and
 * — refused with a 400 that names the parameter, never silently ignored — those it does not support and unknown ones.
 */
export const OpenAIResponsesRequest = z
  .looseObject(responsesRequestShape)
  .superRefine((body, ctx) => {
    const fields = body as Record<string, unknown>;
    const refuse = (path: (string | number)[], message: string, code: string) =>
      ctx.addIssue({ code: 'custom', path, message, params: { code } });
    for (const name of Object.keys(fields)) {
      if (!KNOWN_RESPONSES_PARAMS.has(name))
        refuse([name], `Unknown parameter: '${name}'.`, OpenAIParamCode.unknownParameter);
    }
    for (const [name, message] of Object.entries(UNSUPPORTED_RESPONSES_PARAMS)) {
      if (!isUnset(fields[name])) refuse([name], message, OpenAIParamCode.unsupportedParameter);
    }
    for (const [name, rule] of Object.entries(HARMLESS_ONLY)) {
      const value = fields[name];
      if (value != null && !rule.ok(value)) refuse([name], rule.message, OpenAIParamCode.unsupportedValue);
    }
    if (body.text?.verbosity != null)
      refuse(
        ['text', 'verbosity'],
        'text.verbosity is not supported: the personas set their own style',
        OpenAIParamCode.unsupportedParameter,
      );
    const names = (body.tools ?? []).map((tool) => tool.name);
    const choice = body.tool_choice;
    if (choice != null && choice !== 'none' && names.length === 0)
      ctx.addIssue({
        code: 'custom',
        path: ['tool_choice'],
        message: 'tool_choice is only allowed when tools are specified',
      });
    if (choice != null && typeof choice === 'object' && names.length > 0 && !names.includes(choice.name))
      ctx.addIssue({
        code: 'custom',
        path: ['tool_choice'],
        message: `tool_choice names the function '${choice.name}', which is not in tools`,
      });
    names.forEach((name, index) => {
      if (names.indexOf(name) !== index)
        ctx.addIssue({ code: 'custom', path: ['tools', index, 'name'], message: `the tool '${name}' is listed twice` });
    });
    const total = body.input.reduce((sum, item) => sum + itemLengthOf(item), 0);
    if (total > MAX_TOTAL)
      ctx.addIssue({
        code: 'custom',
        path: ['input'],
        message: `the input holds ${chars(total)} characters in all; at most ${chars(MAX_TOTAL)} fit in one request`,
      });
    const images = body.input.reduce((sum, item) => sum + itemImagesOf(item), 0);
    if (images > MAX_IMAGES)
      ctx.addIssue({ code: 'custom', path: ['input'], message: `a request carries at most ${MAX_IMAGES} images` });
  })
  .openapi('OpenAIResponsesRequest', {
    additionalProperties: false,
    description:
      'input is a text or a list of items: messages (role user, assistant, system or developer; content a text or ' +
      'input_text, input_image (a base64 data URL) and output_text parts), function_call, function_call_output and ' +
      'item_reference items. Tools (function calling) and text.format JSON need an AI provider that supports them: ' +
      'with only the built-in offline engine, they are a 400 naming the model. include, reasoning, truncation, ' +
      'prompt_cache_key and stream_options are accepted and ignored; conversation, prompt, max_tool_calls, ' +
      'text.verbosity, background true, other service tiers, top_logprobs above 0, other tool and item types, and ' +
      'unknown parameters are refused with a 400 whose error.param names the parameter.',
  });
export type OpenAIResponsesRequest = z.infer<typeof OpenAIResponsesRequest>;

// The answer

const OutputText = z.object({
  type: z.literal('output_text'),
  text: z.string(),
  annotations: z.array(z.unknown()).max(0),
});

/** An output item: a message with the reply's text, or a call of one of the request's functions. */
export const OpenAIResponseOutputItem = z
  .discriminatedUnion('type', [
    z.object({
      id: z.string(),
      type: z.literal('message'),
      status: itemStatus,
      role: z.literal('assistant'),
      content: z.array(OutputText),
    }),
    z.object({
      id: z.string(),
      type: z.literal('function_call'),
      status: itemStatus,
      call_id: z.string(),
      name: z.string(),
      /** The arguments as the model wrote them: a JSON text. */
      arguments: z.string(),
    }),
  ])
  .openapi('OpenAIResponseOutputItem');
export type OpenAIResponseOutputItem = z.infer<typeof OpenAIResponseOutputItem>;

/** The answer's usage, in tokens. */
export const OpenAIResponseUsage = z
  .object({
    input_tokens: z.number().int(),
    input_tokens_details: z.object({ cached_tokens: z.number().int() }),
    output_tokens: z.number().int(),
    output_tokens_details: z.object({ reasoning_tokens: z.number().int() }),
    total_tokens: z.number().int(),
  })
  .openapi('OpenAIResponseUsage');
export type OpenAIResponseUsage = z.infer<typeof OpenAIResponseUsage>;

/** A response, as POST /v1/responses answers and GET /v1/responses/{id} returns it (OpenAI's shape). */
export const OpenAIResponseObject = z
  .object({
    /** `resp_` and 32 hex digits. */
    id: z.string(),
    object: z.literal('response'),
    created_at: z.number().int(),
    status: z.enum(['completed', 'failed', 'in_progress', 'incomplete']),
    background: z.literal(false),
    completed_at: z.number().int().nullable(),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
    /** `{reason: "max_output_tokens"}` when the reply was cut at max_output_tokens (status incomplete). */
    incomplete_details: z.object({ reason: z.literal('max_output_tokens') }).nullable(),
    instructions: z.string().nullable(),
    max_output_tokens: z.number().int().nullable(),
    max_tool_calls: z.null(),
    /** The persona that answered. */
    model: z.string(),
    output: z.array(OpenAIResponseOutputItem),
    parallel_tool_calls: z.boolean(),
    previous_response_id: z.string().nullable(),
    reasoning: z.object({ effort: z.null(), summary: z.null() }),
    safety_identifier: z.string().nullable(),
    service_tier: z.literal('default'),
    store: z.boolean(),
    temperature: z.number().nullable(),
    text: z.object({ format: OpenAIResponsesTextFormat }),
    tool_choice: OpenAIResponsesToolChoice,
    tools: z.array(
      z.object({
        type: z.literal('function'),
        name: z.string(),
        description: z.string().nullable(),
        parameters: z.record(z.string(), z.unknown()).nullable(),
        strict: z.boolean().nullable(),
      }),
    ),
    top_logprobs: z.literal(0),
    top_p: z.number().nullable(),
    truncation: z.enum(['auto', 'disabled']),
    /** Null until the response is complete (in `response.created` and `response.in_progress`). */
    usage: OpenAIResponseUsage.nullable(),
    user: z.string().nullable(),
    metadata: z.record(z.string(), z.string()),
  })
  .openapi('OpenAIResponseObject');
export type OpenAIResponseObject = z.infer<typeof OpenAIResponseObject>;

/** DELETE /v1/responses/{id}. */
export const OpenAIResponseDeleted = z
  .object({ id: z.string(), object: z.literal('response.deleted'), deleted: z.literal(true) })
  .openapi('OpenAIResponseDeleted');
export type OpenAIResponseDeleted = z.infer<typeof OpenAIResponseDeleted>;

const sequenced = { sequence_number: z.number().int().nonnegative() };
const inItem = { item_id: z.string(), output_index: z.number().int().nonnegative() };
const inPart = { ...inItem, content_index: z.number().int().nonnegative() };

/**
 * One event of a streamed POST /v1/responses (`event: <type>` and `data: <this>`), in OpenAI's order: created,
 * in_progress; per output item: output_item.added, then for a message content_part.added, output_text.delta...,
 * output_text.done, content_part.done, and for a function call function_call_arguments.delta...,
 * function_call_arguments.done; output_item.done; last, completed (or incomplete, or failed with `response.error`).
 */
export const OpenAIResponseStreamEvent = z
  .discriminatedUnion('type', [
    z.object({
      type: z.enum([
        'response.created',
        'response.in_progress',
        'response.completed',
        'response.incomplete',
        'response.failed',
      ]),
      response: OpenAIResponseObject,
      ...sequenced,
    }),
    z.object({
      type: z.enum(['response.output_item.added', 'response.output_item.done']),
      output_index: z.number().int().nonnegative(),
      item: OpenAIResponseOutputItem,
      ...sequenced,
    }),
    z.object({
      type: z.enum(['response.content_part.added', 'response.content_part.done']),
      ...inPart,
      part: OutputText,
      ...sequenced,
    }),
    z.object({
      type: z.literal('response.output_text.delta'),
      ...inPart,
      delta: z.string(),
      logprobs: z.array(z.unknown()).max(0),
      ...sequenced,
    }),
    z.object({
      type: z.literal('response.output_text.done'),
      ...inPart,
      text: z.string(),
      logprobs: z.array(z.unknown()).max(0),
      ...sequenced,
    }),
    z.object({ type: z.literal('response.function_call_arguments.delta'), ...inItem, delta: z.string(), ...sequenced }),
    z.object({
      type: z.literal('response.function_call_arguments.done'),
      ...inItem,
      name: z.string(),
      arguments: z.string(),
      ...sequenced,
    }),
  ])
  .openapi('OpenAIResponseStreamEvent');
export type OpenAIResponseStreamEvent = z.infer<typeof OpenAIResponseStreamEvent>;
