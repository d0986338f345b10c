import { OPENAI_REQUEST_LIMITS } from './bodyLimits';
import { z } from './zod';

/**
 * Function calling and structured output on the OpenAI-compatible API (POST /v1/chat/completions), in OpenAI's
 * shapes: `tools`, `tool_choice`, the `tool_calls` of assistant messages, `tool` messages and `response_format`.
 */

/** OpenAI's rule for function and schema names: 1 to 64 letters, digits, underscores or dashes. */
export const OPENAI_FUNCTION_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const functionName = (what: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? `${what} is required` : `${what} must be a string`) })
    .regex(OPENAI_FUNCTION_NAME, `${what} has 1 to 64 letters, digits, underscores or dashes`);

/** The codes of the errors only /v1/chat/completions answers with. */
export const OpenAICompletionErrorCode = {
  /** 502: the model's reply was not the JSON that `response_format` asked for. */
  invalidModelOutput: 'invalid_model_output',
} as const;

/** At most this many tools in one request, as OpenAI allows. */
export const MAX_OPENAI_TOOLS = 128;

/** A JSON Schema, as a JSON object; what it says is checked where it is used. */
const JsonSchemaObject = z.record(z.string(), z.unknown()).openapi('OpenAIJsonSchema', {
  description: 'A JSON Schema (draft 2020-12), as a JSON object',
});

/** A function the model may call: its name, what it is for and its parameters as a JSON Schema. */
export const OpenAIFunctionTool = z
  .object({
    type: z.literal('function', { error: 'only tools of type "function" are supported' }),
    function: z
      .object({
        name: functionName('a function name'),
        description: z.string().max(4_096).nullish(),
        /** The arguments as a JSON Schema object; left out, the function takes none. */
        parameters: JsonSchemaObject.nullish(),
        /** Passed to providers that enforce the schema (OpenAI's strict mode). */
        strict: z.boolean().nullish(),
      })
      .strict(),
  })
  .strict()
  .openapi('OpenAIFunctionTool');
export type OpenAIFunctionTool = z.infer<typeof OpenAIFunctionTool>;

/** `auto` (the model decides), `none`, `required` (at least one call), or one named function. */
export const OpenAIToolChoice = z
  .union(
    [
      z.enum(['auto', 'none', 'required']),
      z
        .object({
          type: z.literal('function'),
          function: z.object({ name: functionName('a function name') }).strict(),
        })
        .strict(),
    ],
    {
      error:
        'tool_choice must be "auto", "none", "required" or {"type": "function", "function": {"name": "<a tool\'s name>"}}',
    },
  )
  .openapi('OpenAIToolChoice');
export type OpenAIToolChoice = z.infer<typeof OpenAIToolChoice>;

/** A call the model made, as an assistant message carries it back in the conversation. */
export const OpenAIMessageToolCall = z
  .object({
    id: z.string().min(1, 'a tool call needs its id').max(256),
    type: z.literal('function', { error: 'only tool calls of type "function" are supported' }),
    function: z.object({
      name: functionName('a function name'),
      /** The arguments as the model wrote them: a JSON text. */
      arguments: z.string().max(OPENAI_REQUEST_LIMITS.messageChars),
    }),
  })
  .openapi('OpenAIMessageToolCall');
export type OpenAIMessageToolCall = z.infer<typeof OpenAIMessageToolCall>;

/**
 * The form of the reply: text (the default), any JSON object (`json_object`), or JSON that a schema describes
 * (`json_schema`). Kasa checks a JSON reply (against the schema, when there is one) before answering with it.
 */
export const OpenAIResponseFormat = z
  .discriminatedUnion(
    'type',
    [
      z.object({ type: z.literal('text') }).strict(),
      z.object({ type: z.literal('json_object') }).strict(),
      z
        .object({
          type: z.literal('json_schema'),
          json_schema: z
            .object({
              name: functionName('the schema name'),
              description: z.string().max(4_096).nullish(),
              /** The JSON Schema the reply must satisfy; left out, any JSON value. */
              schema: JsonSchemaObject.nullish(),
              strict: z.boolean().nullish(),
            })
            .strict(),
        })
        .strict(),
    ],
    { error: 'response_format.type must be "text", "json_object" or "json_schema"' },
  )
  .openapi('OpenAIResponseFormat');
export type OpenAIResponseFormat = z.infer<typeof OpenAIResponseFormat>;

/** The answer's usage, in tokens. */
const OpenAIUsage = z
  .object({ prompt_tokens: z.number().int(), completion_tokens: z.number().int(), total_tokens: z.number().int() })
  .openapi('OpenAIUsage');

/** A complete answer of POST /v1/chat/completions (`stream` not set). */
export const OpenAIChatCompletion = z
  .object({
    id: z.string(),
    object: z.literal('chat.completion'),
    created: z.number().int(),
    /** The persona that answered. */
    model: z.string(),
    system_fingerprint: z.string(),
    choices: z.array(
      z.object({
        index: z.number().int(),
        message: z.object({
          role: z.literal('assistant'),
          /** The reply; with `response_format` JSON, checked JSON text. Null when the model only called tools. */
          content: z.string().nullable(),
          refusal: z.null(),
          tool_calls: z.array(OpenAIMessageToolCall).optional(),
        }),
        logprobs: z.null(),
        finish_reason: z.enum(['stop', 'length', 'tool_calls']),
      }),
    ),
    usage: OpenAIUsage,
  })
  .openapi('OpenAIChatCompletion');
export type OpenAIChatCompletion = z.infer<typeof OpenAIChatCompletion>;

/**
 * One `data:` event of a streamed POST /v1/chat/completions. A tool call streams as OpenAI streams it: its first
 * chunk has `index`, `id`, `type` and `function.name`; the chunks after it carry `function.arguments` pieces with the
 * same `index`. The last chunk may carry only `usage` (no choices); `data: [DONE]` ends the stream.
 */
export const OpenAIChatCompletionChunk = z
  .object({
    id: z.string(),
    object: z.literal('chat.completion.chunk'),
    created: z.number().int(),
    model: z.string(),
    system_fingerprint: z.string(),
    choices: z.array(
      z.object({
        index: z.number().int(),
        delta: z.object({
          role: z.literal('assistant').optional(),
          content: z.string().optional(),
          tool_calls: z
            .array(
              z.object({
                index: z.number().int(),
                id: z.string().optional(),
                type: z.literal('function').optional(),
                function: z.object({ name: z.string().optional(), arguments: z.string().optional() }),
              }),
            )
            .optional(),
        }),
        logprobs: z.null(),
        finish_reason: z.enum(['stop', 'length', 'tool_calls']).nullable(),
      }),
    ),
    usage: OpenAIUsage.optional(),
  })
  .openapi('OpenAIChatCompletionChunk');
export type OpenAIChatCompletionChunk = z.infer<typeof OpenAIChatCompletionChunk>;
