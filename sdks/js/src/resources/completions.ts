import { linkedController } from '../abort.js';
import { EventStream, type Decoded } from '../EventStream.js';
import { KasaError, STREAM_ERROR } from '../KasaError.js';
import type { CallOptions, HttpClient } from '../http.js';
import type { ServerSentEvent } from '../sse.js';
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionRequest, ModelList } from '../types.js';

/** A streamed chat completion: `for await` gives OpenAI's chunks until `[DONE]`. */
export type ChatCompletionStream = EventStream<ChatCompletionChunk>;

function decodeChunk(event: ServerSentEvent): Decoded<ChatCompletionChunk> {
  if (event.data === '[DONE]') return { end: true };
  const parsed = JSON.parse(event.data) as ChatCompletionChunk | { error: { message: string; type?: string } };
  if ('error' in parsed) {
    throw new KasaError({ status: 503, code: 'upstream_unavailable', message: parsed.error.message });
  }
  return { item: parsed };
}

/**
 * The OpenAI-compatible API (`/v1`): personas are the models. Existing OpenAI client libraries work against it too;
 * this is the same API without another dependency.
 */
export class CompletionsResource {
  constructor(private readonly http: HttpClient) {}

  /** POST /v1/chat/completions without streaming → the whole completion. */
  create(request: Omit<ChatCompletionRequest, 'stream'>, options?: CallOptions): Promise<ChatCompletion> {
    return this.http.json<ChatCompletion>({
      method: 'POST',
      path: '/v1/chat/completions',
      body: { ...request, stream: false },
      creates: true,
      options,
    });
  }

  /** POST /v1/chat/completions with `stream: true` → the chunks, read with `for await`. */
  async stream(
    request: Omit<ChatCompletionRequest, 'stream'>,
    options: CallOptions = {},
  ): Promise<ChatCompletionStream> {
    const { controller, release } = linkedController(options.signal);
    try {
      const response = await this.http.send({
        method: 'POST',
        path: '/v1/chat/completions',
        body: { ...request, stream: true },
        accept: 'text/event-stream',
        creates: true,
        options: { ...options, signal: controller.signal },
      });
      const endedEarly = () =>
        new KasaError({ status: 0, code: STREAM_ERROR, message: 'The connection closed before the completion ended.' });
      return new EventStream(response, controller, decodeChunk, endedEarly, release);
    } catch (err) {
      release();
      throw err;
    }
  }

  /** GET /v1/models → the personas (and the caller's custom ones) as models. */
  models(options?: CallOptions): Promise<ModelList> {
    return this.http.json<ModelList>({ method: 'GET', path: '/v1/models', options });
  }
}
