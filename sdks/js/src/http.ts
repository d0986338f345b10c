import { newIdempotencyKey } from './idempotency.js';
import { linkedController } from './abort.js';
import {
  KasaConnectionError,
  KasaError,
  KasaTimeoutError,
  NETWORK_ERROR,
  REQUEST_TIMEOUT,
  errorFromResponse,
} from './KasaError.js';
import { backoffDelay, retryDelay, sleep, type RetryPolicy } from './retry.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Options every SDK call takes as its last argument. */
export interface CallOptions {
  /** Cancels the call (and, for a stream, the reading of it); the call rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Overrides the client's `maxRetries` for this call. */
  maxRetries?: number;
  /** Overrides the client's `timeoutMs` for this call (each attempt's wait for the answer to start; 0: for ever). */
  timeoutMs?: number;
  /** Extra headers for this call. */
  headers?: Record<string, string>;
  /**
   * The Idempotency-Key of a creating call (`chat.sessions.create`, `chat.messages.send` and `stream`,
   * `completions.create` and `stream`, `apiKeys.create`, `voice.synthesize`, `video.create`, `auth.register`). Left
   * out, the client makes a new one per call (unless `idempotencyKeys: false`); pass your own to tie a retry in
   * another process to the first attempt. Kasa answers a repeated key with the first answer
   * (`Idempotent-Replayed: true`).
   */
  idempotencyKey?: string;
}

export type QueryValue = string | number | boolean | undefined;

export interface RequestSpec {
  method: HttpMethod;
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** A body sent as it is instead of JSON (a file's bytes), with its Content-Type. */
  rawBody?: { data: Blob | ArrayBuffer | Uint8Array; contentType: string };
  /** The Accept header; `application/json` by default. */
  accept?: string;
  /** A call that creates something: it carries an Idempotency-Key (which makes it safe to repeat). */
  creates?: boolean;
  /** A POST or PATCH that is safe to repeat as it is (signing in, renaming, stopping, detecting a language). */
  idempotent?: boolean;
  /** Sent without the client's credential (a public address, such as a finished video's). */
  anonymous?: boolean;
  options?: CallOptions | undefined;
}

export interface HttpClientConfig {
  baseUrl: string;
  fetch: typeof fetch;
  /** The bearer credential to send now (an access token or an API key), read on every call. */
  credential: () => string | undefined;
  retry: RetryPolicy;
  headers: Record<string, string>;
  /** Whether creating calls get an automatic Idempotency-Key (without one they are never retried). */
  idempotencyKeys: boolean;
  /** How long each attempt waits for the answer to start, in ms (0: for ever). */
  timeoutMs: number;
}

/** Methods that are safe to repeat: doing them twice has the effect of doing them once. */
const IDEMPOTENT_METHODS: ReadonlySet<HttpMethod> = new Set(['GET', 'PUT', 'DELETE']);

/**
 * The transport under every SDK call: JSON in and out, the bearer credential, Kasa's error body turned into a
 * KasaError, Idempotency-Keys on creating calls, and bounded retries of the calls that are safe to repeat (see
 * `retryDelay` for which failures, and how long it waits).
 */
export class HttpClient {
  constructor(private readonly config: HttpClientConfig) {}

  url(path: string, query?: Record<string, QueryValue>): string {
    // A full address (a file on another host) is used as it is; a path is the API's.
    const base = /^https?:\/\//i.test(path) ? '' : this.config.baseUrl.replace(/\/+$/, '');
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) params.set(key, String(value));
    const search = params.toString();
    return `${base}${path}${search ? `?${search}` : ''}`;
  }

  /** Sends the request and resolves with the OK response (its body unread); rejects with a KasaError otherwise. */
  async send(spec: RequestSpec): Promise<Response> {
    const url = this.url(spec.path, spec.query);
    const signal = spec.options?.signal;
    const policy = { ...this.config.retry, maxRetries: spec.options?.maxRetries ?? this.config.retry.maxRetries };
    // One key per call, the same on each of its retries: that is what lets the server answer a retry of a call whose
    // answer was lost with the first answer, instead of doing it twice.
    const idempotencyKey = this.idempotencyKey(spec);
    const safeToRepeat =
      IDEMPOTENT_METHODS.has(spec.method) || spec.idempotent === true || idempotencyKey !== undefined;
    const body = requestBody(spec);
    const timeoutMs = spec.options?.timeoutMs ?? this.config.timeoutMs;
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      // Each attempt has a signal of its own that the caller's aborts too, and the timer, until the answer starts.
      // It stays linked to the caller's afterwards, so that aborting still stops the reading of a stream.
      const { controller, release } = linkedController(signal);
      const timer =
        timeoutMs > 0
          ? setTimeout(() => controller.abort(timeoutError(this.config.baseUrl, timeoutMs)), timeoutMs)
          : undefined;
      try {
        response = await this.config.fetch(url, this.init(spec, body, idempotencyKey, controller.signal));
      } catch (err) {
        release();
        if (signal?.aborted) throw signal.reason ?? err;
        const failure = controller.signal.aborted
          ? (controller.signal.reason as KasaError)
          : networkError(this.config.baseUrl, err);
        if (!safeToRepeat || attempt >= policy.maxRetries) throw failure;
        await sleep(backoffDelay(attempt, policy), signal);
        continue;
      } finally {
        clearTimeout(timer);
      }
      if (response.ok) return response;
      release();
      const error = await errorFromResponse(response);
      const wait = safeToRepeat
        ? retryDelay({ status: response.status, code: error.code, headers: response.headers }, attempt, policy)
        : undefined;
      if (wait === undefined) throw error;
      await sleep(wait, signal);
    }
  }

  /** `send` plus the JSON body; undefined for an empty answer (204). */
  async json<T>(spec: RequestSpec): Promise<T> {
    const response = await this.send(spec);
    const text = await response.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** The call's Idempotency-Key: the caller's (option or header), else a new one for a creating call. */
  private idempotencyKey(spec: RequestSpec): string | undefined {
    if (spec.options?.idempotencyKey !== undefined) return spec.options.idempotencyKey;
    const header = Object.entries(spec.options?.headers ?? {}).find(
      ([name]) => name.toLowerCase() === 'idempotency-key',
    );
    if (header) return header[1];
    return spec.creates && this.config.idempotencyKeys ? newIdempotencyKey() : undefined;
  }

  private init(
    spec: RequestSpec,
    body: OutgoingBody | undefined,
    idempotencyKey: string | undefined,
    signal: AbortSignal,
  ): RequestInit {
    const headers: Record<string, string> = {
      Accept: spec.accept ?? 'application/json',
      ...this.config.headers,
      ...spec.options?.headers,
    };
    // The credential is read on every attempt: a sign-in between two tries is used by the second.
    const credential = spec.anonymous ? undefined : this.config.credential();
    if (credential) headers.Authorization = `Bearer ${credential}`;
    if (idempotencyKey !== undefined) {
      for (const name of Object.keys(headers)) if (name.toLowerCase() === 'idempotency-key') delete headers[name];
      headers['Idempotency-Key'] = idempotencyKey;
    }
    const init: RequestInit = { method: spec.method, headers, signal };
    if (body !== undefined) {
      headers['Content-Type'] = body.contentType;
      init.body = body.data;
    }
    return init;
  }
}

/** A request's body as fetch sends it: the same value on every retry (never a stream, which reads only once). */
interface OutgoingBody {
  data: BodyInit;
  contentType: string;
}

function requestBody(spec: RequestSpec): OutgoingBody | undefined {
  if (spec.rawBody) {
    const { data, contentType } = spec.rawBody;
    // A Blob as it is; bytes in a Blob of their own, so that the caller changing their buffer later changes nothing.
    return { data: data instanceof Blob ? data : new Blob([data.slice(0)]), contentType };
  }
  return spec.body === undefined ? undefined : { data: JSON.stringify(spec.body), contentType: 'application/json' };
}

function networkError(baseUrl: string, cause: unknown): KasaError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new KasaConnectionError({
    status: 0,
    code: NETWORK_ERROR,
    message: `Could not reach the Kasa API at ${baseUrl || 'this origin'}: ${reason}`,
    cause,
  });
}

function timeoutError(baseUrl: string, timeoutMs: number): KasaError {
  return new KasaTimeoutError({
    status: 0,
    code: REQUEST_TIMEOUT,
    message: `The Kasa API at ${baseUrl || 'this origin'} did not start answering within ${timeoutMs} ms`,
  });
}
