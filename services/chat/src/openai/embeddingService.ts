import { embeddingModelFor, embeddingModelIdOf, hasEmbeddings } from '@kasa/ai-providers';
import { KASA_EMBEDDING_MODEL, OpenAIParamCode, type OpenAIEmbeddingRequest } from '@kasa/contracts';
import { CallerAbortError, CallGuard, HttpError, InputError, type Logger } from '@kasa/service-kit';
import { embedMany } from 'ai';
import type { ChainSettings } from '../providers/settings/chainSettings';

/** What one embedding call gave: a vector per text, in order, and whose model made them. */
export interface Embeddings {
  vectors: number[][];
  provider: string;
  model: string;
  tokens: number;
}

/** How long one provider may take to embed a request's texts before the next is tried. */
export const EMBEDDING_TIMEOUT_MS = 30_000;

/**
 * POST /v1/embeddings: the request's texts embedded by the first connected provider that has embeddings, in chain
 * order (set by variables or by operators in the browser), each behind its own circuit breaker; a failure falls over
 * to the next. `kasa-embedding` asks for each provider's default embedding model; any other model name is passed on.
 */
export class EmbeddingService {
  private readonly guard: CallGuard;

  constructor(private readonly deps: { settings: Pick<ChainSettings, 'list'>; logger: Logger; timeoutMs?: number }) {
    this.guard = new CallGuard({
      errorThresholdPercentage: 50,
      volumeThreshold: 5,
      resetTimeoutMs: 30_000,
      logger: deps.logger,
      kind: 'embeddings',
    });
  }

  async embed(request: OpenAIEmbeddingRequest, signal: AbortSignal): Promise<Embeddings> {
    const texts = typeof request.input === 'string' ? [request.input] : request.input;
    const candidates = this.deps.settings
      .list()
      .filter((entry) => entry.enabled && hasEmbeddings(entry.settings))
      .flatMap((entry) => {
        const model = request.model === KASA_EMBEDDING_MODEL ? embeddingModelIdOf(entry.settings) : request.model;
        return model ? [{ settings: entry.settings, model }] : [];
      });
    if (candidates.length === 0)
      throw new InputError(
        request.model === KASA_EMBEDDING_MODEL
          ? 'No AI provider with embeddings is connected to this server (OpenAI, Mistral, Google, Cohere, Ollama...): ' +
              'an operator can connect one in the operators’ console, under AI providers.'
          : `No connected AI provider has embeddings for the model '${request.model}'.`,
        [{ path: 'model', message: 'no provider with embeddings' }],
        OpenAIParamCode.unsupportedValue,
      );
    let lastError: unknown;
    for (const { settings, model } of candidates) {
      if (signal.aborted) break;
      const embeddingModel = embeddingModelFor(settings, model);
      if (!embeddingModel) continue;
      try {
        const result = await this.guard.run(
          settings.name,
          { signal, timeoutMs: this.deps.timeoutMs ?? EMBEDDING_TIMEOUT_MS, what: 'embedding' },
          ({ signal: attempt }) =>
            embedMany({
              model: embeddingModel,
              values: texts,
              maxRetries: 0,
              abortSignal: attempt,
              // OpenAI's and the OpenAI-compatible servers' option (under the provider's own name for the latter).
              ...(request.dimensions
                ? {
                    providerOptions: {
                      openai: { dimensions: request.dimensions },
                      openaiCompatible: { dimensions: request.dimensions },
                      [settings.name]: { dimensions: request.dimensions },
                    },
                  }
                : {}),
            }),
        );
        return {
          vectors: result.embeddings,
          provider: settings.name,
          model,
          tokens: result.usage?.tokens ?? Math.ceil(texts.reduce((sum, t) => sum + t.length, 0) / 4),
        };
      } catch (err) {
        if (signal.aborted || err instanceof CallerAbortError) throw err;
        lastError = err;
        this.deps.logger.warn(
          { provider: settings.name, model, err: (err as Error).message },
          'embedding attempt failed; trying the next provider',
        );
      }
    }
    this.deps.logger.warn({ err: (lastError as Error | undefined)?.message }, 'no provider could embed the texts');
    throw new HttpError(503, 'upstream_unavailable', 'No AI provider could embed the texts. Please try again.');
  }

  shutdown(): void {
    this.guard.shutdown();
  }
}

/** A vector as OpenAI's `base64` encoding: its float32 values, little-endian, in base64. */
export function base64Of(vector: number[]): string {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((value, i) => bytes.writeFloatLE(value, i * 4));
  return bytes.toString('base64');
}
