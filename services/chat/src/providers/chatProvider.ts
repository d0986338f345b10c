import { DeadlineExceededError } from '@kasa/service-kit';

/** An image sent with a user message: its bytes and media type (an AI SDK image part for vision-capable models). */
export interface PromptImage {
  data: Uint8Array;
  mediaType: string;
}

/** One message of the prompt a provider receives (the system prompt travels separately). */
export interface PromptMessage {
  role: 'user' | 'assistant';
  content: string;
  /**
   * Images the person sent with this message (user messages of the current turn only). Providers that cannot see
   * images never receive them: the chain takes them out and the reply says so (see ProviderChain).
   */
  images?: PromptImage[];
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
  /** Aborted when the user stops, the client disconnects, or the attempt timed out. */
  signal: AbortSignal;
}

/** Why a reply ended: it was complete, or it reached `maxOutputTokens`. */
export type FinishReason = 'stop' | 'length';

/** A piece of a streamed reply: text as it comes, then (optionally) the usage the provider reported. */
export type ProviderChunk =
  | { type: 'text'; text: string }
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
