import { KasaError, NETWORK_ERROR, errorFromResponse } from './KasaError';
import { backoffDelay, parseRetryAfter, sleep, type RetryPolicy } from './retry';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Options every SDK call takes as its last argument. */
export interface CallOptions {
  /** Cancels the call (and, for a stream, the reading of it); the call rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Overrides the client's `maxRetries` for this call. */
  maxRetries?: number;
  /** Extra headers for this call. */
  headers?: Record<string, string>;
}

export type QueryValue = string | number | boolean | undefined;

export interface RequestSpec {
  method: HttpMethod;
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** The Accept header; `application/json` by default. */
  accept?: string;
  options?: CallOptions | undefined;
}

export interface HttpClientConfig {
  baseUrl: string;
  fetch: typeof fetch;
  /** The bearer credential to send now (an access token or an API key), read on every call. */
  credential: () => string | undefined;
  retry: RetryPolicy;
  headers: Record<string, string>;
}

/** Calls a network failure may be retried on: repeating them cannot do anything twice. */
const IDEMPOTENT: ReadonlySet<HttpMethod> = new Set(['GET', 'PUT', 'DELETE']);

/**
 * The transport under every SDK call: JSON in and out, the bearer credential, Kasa's error body turned into a
 * KasaError, and bounded retries — on 429 for any call (the API refused it before doing anything), waiting as long as
 * Retry-After says, and on network errors for idempotent calls only.
 */
export class HttpClient {
  constructor(private readonly config: HttpClientConfig) {}

  url(path: string, query?: Record<string, QueryValue>): string {
    const base = this.config.baseUrl.replace(/\/+$/, '');
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) params.set(key, String(value));
    const search = params.toString();
    return `${base}${path}${search ? `?${search}` : ''}`;
  }

  /** Sends the request and resolves with the OK response (its body unread); rejects with a KasaError otherwise. */
  async send(spec: RequestSpec): Promise<Response> {
    const url = this.url(spec.path, spec.query);
    const signal = spec.options?.signal;
    const policy = this.config.retry;
    const maxRetries = spec.options?.maxRetries ?? policy.maxRetries;
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await this.config.fetch(url, this.init(spec));
      } catch (err) {
        if (signal?.aborted) throw signal.reason ?? err;
        if (!IDEMPOTENT.has(spec.method) || attempt >= maxRetries) throw networkError(this.config.baseUrl, err);
        await sleep(backoffDelay(attempt, policy), signal);
        continue;
      }
      if (response.ok) return response;
      if (response.status === 429 && attempt < maxRetries) {
        const wait = parseRetryAfter(response.headers.get('retry-after')) ?? backoffDelay(attempt, policy);
        if (wait <= policy.maxRetryDelayMs) {
          await response.body?.cancel().catch(() => undefined);
          await sleep(wait, signal);
          continue;
        }
      }
      throw await errorFromResponse(response);
    }
  }

  /** `send` plus the JSON body; undefined for an empty answer (204). */
  async json<T>(spec: RequestSpec): Promise<T> {
    const response = await this.send(spec);
    const text = await response.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  private init(spec: RequestSpec): RequestInit {
    const headers: Record<string, string> = {
      Accept: spec.accept ?? 'application/json',
      ...this.config.headers,
      ...spec.options?.headers,
    };
    const credential = this.config.credential();
    if (credential) headers.Authorization = `Bearer ${credential}`;
    const init: RequestInit = { method: spec.method, headers };
    if (spec.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(spec.body);
    }
    if (spec.options?.signal) init.signal = spec.options.signal;
    return init;
  }
}

function networkError(baseUrl: string, cause: unknown): KasaError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new KasaError({
    status: 0,
    code: NETWORK_ERROR,
    message: `Could not reach the Kasa API at ${baseUrl || 'this origin'}: ${reason}`,
    cause,
  });
}
