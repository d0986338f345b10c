import { DeadlineExceededError } from '@kasa/service-kit';

/** An image sent with a user message: its bytes and media type (an AI SDK image part for vision-capable models). */
export interface PromptImage {
  data: Uint8Array;
  mediaType: string;
}

/** A call of a tool the model made, as the conversation carries it back (OpenAI-compatible API). */
export interface PromptToolCall {
  id: string;
  name: string;
  /** The arguments as the model wrote them: a JSON text. */
  arguments: string;
}

/** One message of the prompt a provider receives (the system prompt travels separately). */
export interface PromptMessage {
  /** `tool` only on the OpenAI-compatible API: the result of a tool call, sent back by the caller. */
  role: 'user' | 'assistant' | 'tool';
  content: string;
  /**
   * Images the person sent with this message (user messages of the current turn only). Providers that cannot see
   * images never receive them: the chain takes them out and the reply says so (see ProviderChain).
   */
  images?: PromptImage[];
  /** An assistant message's tool calls. */
  toolCalls?: PromptToolCall[];
  /** A tool message's call: its id and the tool's name. */
  toolCallId?: string;
  toolName?: string;
}

/** A function the model may call, with its parameters as a JSON Schema object. */
export interface ToolSpec {
  name: string;
  description?: string;
  parameters: Record<string, unknown>;
  strict?: boolean;
}

/** The tools of a turn and how the model may use them (OpenAI's `tools`, `tool_choice`, `parallel_tool_calls`). */
export interface ToolRequest {
  tools: ToolSpec[];
  choice: 'auto' | 'none' | 'required' | { name: string };
  /** Whether the model may call several tools at once; unset, the provider's default. */
  parallel?: boolean;
}

/** A JSON reply: any JSON (`schema` unset) or JSON valid against a schema (OpenAI's `response_format`). */
export interface OutputRequest {
  type: 'json';
  schema?: Record<string, unknown>;
  name?: string;
  description?: string;
  strict?: boolean;
}

/** How the caller wants the reply sampled (the OpenAI-compatible API's parameters); unset means the provider's default. */
export interface GenerationSettings {
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  stopSequences?: string[];
  seed?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  /** The caller's end-user id, passed to providers that take one for abuse monitoring. */
  user?: string;
}

/** What one provider attempt is asked to do. */
export interface ProviderRequest {
  personaId: string;
  model: string;
  system: string;
  messages: PromptMessage[];
  settings?: GenerationSettings;
  /** Tools the model may call (only sent to providers with `tools`). */
  tools?: ToolRequest;
  /** The reply must be JSON (only sent to providers with `structuredOutput`). */
  output?: OutputRequest;
  /** Aborted when the user stops, the client disconnects, or the attempt timed out. */
  signal: AbortSignal;
}

/** Why a reply ended: it was complete, it reached `maxOutputTokens`, or the model called tools. */
export type FinishReason = 'stop' | 'length' | 'tool_calls';

/**
 * A piece of a streamed reply: text as it comes, tool calls as they come (a start with the call's id and tool, then
 * pieces of its arguments; `tool-call` when it is complete), then (optionally) the usage the provider reported.
 * Before any of them, a provider that answers requests in turn (the local model) may say the request's place in its
 * queue (`queued`, 1 = next), each change of it, and `position: 0` when its turn comes.
 */
export type ProviderChunk =
  | { type: 'queued'; position: number }
  | { type: 'text'; text: string }
  | { type: 'tool-call-start'; id: string; name: string }
  | { type: 'tool-call-delta'; id: string; arguments: string }
  | { type: 'tool-call'; id: string; name: string; arguments: string }
  | { type: 'usage'; inputTokens?: number; outputTokens?: number; finishReason?: FinishReason };

/** Anything that can stream a reply: a Vercel AI SDK model, or the built-in offline provider. */
export interface ChatProvider {
  /** The name in CHAT_PROVIDERS (or 'offline'). */
  readonly name: string;
  /** The model this provider uses for a persona (per-persona override, else the provider's default). */
  modelFor(personaId: string): string;
  /**
   * True when the provider itself honours `settings.maxOutputTokens` and reports `finishReason`; for other providers
   * the chain cuts the reply at the estimated token count.
   */
  readonly honoursSettings?: boolean;
  /** True when the provider's models take images (`<PREFIX>_VISION`); the offline provider does not. */
  readonly vision?: boolean;
  /** True when the provider can call tools (function calling); the offline provider cannot. */
  readonly tools?: boolean;
  /** True when the provider can be asked for a JSON reply (`response_format`); the offline provider cannot. */
  readonly structuredOutput?: boolean;
  stream(request: ProviderRequest): AsyncIterable<ProviderChunk>;
}

/** How one attempt ended. */
export type AttemptOutcome =
  | 'ok'
  | 'timeout'
  | 'rate_limited'
  | 'server_error'
  | 'client_error'
  | 'network_error'
  | 'stream_error'
  | 'circuit_open'
  | 'aborted';

/**
 * What an attempt's passed deadline says (first token, idle gap between chunks, or total), in the kit's
 * DeadlineExceededError; it is the attempt's `detail`.
 */
export function timeoutMessage(phase: 'first-token' | 'idle' | 'total', ms: number): string {
  return `provider ${phase === 'first-token' ? 'sent no first token' : phase === 'idle' ? 'stalled' : 'took too long'} within ${ms} ms`;
}

/** Sorts a failure into an outcome for the attempt log; the status code is read from the AI SDK's APICallError. */
export function classifyFailure(err: unknown): { outcome: AttemptOutcome; detail: string } {
  if (err instanceof DeadlineExceededError) return { outcome: 'timeout', detail: err.message };
  const e = err as { statusCode?: number; code?: string; name?: string; message?: string; cause?: unknown };
  const status = typeof e?.statusCode === 'number' ? e.statusCode : undefined;
  if (e?.code === 'EOPENBREAKER') return { outcome: 'circuit_open', detail: 'circuit breaker open' };
  if (status === 429) return { outcome: 'rate_limited', detail: 'HTTP 429' };
  if (status !== undefined && status >= 500) return { outcome: 'server_error', detail: `HTTP ${status}` };
  if (status !== undefined && status >= 400) return { outcome: 'client_error', detail: `HTTP ${status}` };
  const text = `${e?.name ?? ''} ${e?.message ?? ''}`.slice(0, 200);
  if (
    /fetch failed|ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|socket|network/i.test(text) &&
    !/terminated/i.test(text)
  )
    return { outcome: 'network_error', detail: text.trim() };
  return { outcome: 'stream_error', detail: text.trim() || 'unknown error' };
}

/** A rough token count (≈ 4 characters a token) for budgets and for providers that report no usage. */
export const CHARS_PER_TOKEN = 4;
export const estimateTokens = (text: string): number => Math.ceil(text.length / CHARS_PER_TOKEN);
