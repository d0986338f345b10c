import { HttpClient } from './http.js';
import { ApiKeysResource } from './resources/apiKeys.js';
import { AttachmentsResource } from './resources/attachments.js';
import { AuthResource } from './resources/auth.js';
import { ChatResource } from './resources/chat.js';
import { CompletionsResource } from './resources/completions.js';
import { GeoResource } from './resources/geo.js';
import { LanguagesResource } from './resources/languages.js';
import { PersonasResource } from './resources/personas.js';
import { VideoResource } from './resources/video.js';
import { VoiceResource } from './resources/voice.js';
import { DEFAULT_RETRY_POLICY } from './retry.js';

/** How long an attempt waits for the API to start answering unless `timeoutMs` says otherwise. */
export const DEFAULT_TIMEOUT_MS = 60_000;

export interface KasaOptions {
  /** Where the Kasa API is, e.g. `https://kasa.example` (`''` in a page served by Kasa itself: same origin). */
  baseUrl: string;
  /** An API key (`ksk_...`) for the chat, voice and analytics APIs. */
  apiKey?: string;
  /** An access token from sign-in. Used instead of `apiKey` when both are set; `auth.login` sets it. */
  token?: string;
  /**
   * Retries after the first attempt of a call that is safe to repeat (idempotent, or sent with an Idempotency-Key),
   * after a 429, 502, 503 or 504 or a failed connection. Default 2; 0 turns them off.
   */
  maxRetries?: number;
  /** The longest wait before a retry, in ms (default 60 000). A longer Retry-After is not waited for. */
  maxRetryDelayMs?: number;
  /**
   * Whether creating calls carry an automatic Idempotency-Key, a new UUID per call kept on its retries (default
   * true). With false they carry one only when the call passes `idempotencyKey`, and are otherwise never retried.
   */
  idempotencyKeys?: boolean;
  /**
   * How long each attempt of a call waits for the API to start answering, in ms (default 60 000, as the Python, Go
   * and Rust SDKs). An attempt that runs out is retried if the call is safe to repeat, else the call rejects with a
   * KasaTimeoutError. A stream's reading, once it has started, is not bounded by it. `0` waits for ever.
   */
  timeoutMs?: number;
  /** The fetch to use; the global one by default (browsers, Node 20+). */
  fetch?: typeof fetch;
  /** Headers sent with every call. */
  headers?: Record<string, string>;
}

/**
 * The Kasa API client. One instance per credential; it is cheap and holds no connection.
 *
 * ```ts
 * const kasa = new Kasa({ baseUrl: 'https://kasa.example', apiKey: process.env.KASA_API_KEY });
 * const session = await kasa.chat.sessions.create({ personaId: 'kasa', title: 'Hello' });
 * const reply = await kasa.chat.messages.stream(session.id, { content: 'Akwaaba!' });
 * for await (const event of reply) if (event.type === 'token') process.stdout.write(event.text);
 * ```
 */
export class Kasa {
  readonly auth: AuthResource;
  readonly personas: PersonasResource;
  readonly chat: ChatResource;
  /** Images and documents to send with chat messages (Pro and Enterprise). */
  readonly attachments: AttachmentsResource;
  readonly completions: CompletionsResource;
  readonly voice: VoiceResource;
  readonly video: VideoResource;
  readonly languages: LanguagesResource;
  readonly geo: GeoResource;
  readonly apiKeys: ApiKeysResource;

  private accessToken: string | undefined;
  private readonly apiKey: string | undefined;

  constructor(options: KasaOptions) {
    if (typeof options?.baseUrl !== 'string') {
      throw new TypeError('new Kasa({ baseUrl }) needs the address of the Kasa API, e.g. "https://kasa.example".');
    }
    const fetchImpl = options.fetch ?? (typeof fetch === 'function' ? fetch.bind(globalThis) : undefined);
    if (!fetchImpl) throw new TypeError('No fetch is available here: pass one as new Kasa({ fetch }).');
    this.accessToken = options.token;
    this.apiKey = options.apiKey;
    const http = new HttpClient({
      baseUrl: options.baseUrl,
      fetch: fetchImpl,
      credential: () => this.accessToken ?? this.apiKey,
      retry: {
        ...DEFAULT_RETRY_POLICY,
        ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
        ...(options.maxRetryDelayMs === undefined ? {} : { maxRetryDelayMs: options.maxRetryDelayMs }),
      },
      headers: { ...options.headers },
      idempotencyKeys: options.idempotencyKeys ?? true,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    });
    this.auth = new AuthResource(http, (token) => this.setToken(token));
    this.personas = new PersonasResource(http);
    this.chat = new ChatResource(http);
    this.attachments = new AttachmentsResource(http);
    this.completions = new CompletionsResource(http);
    this.voice = new VoiceResource(http);
    this.video = new VideoResource(http);
    this.languages = new LanguagesResource(http);
    this.geo = new GeoResource(http);
    this.apiKeys = new ApiKeysResource(http);
  }

  /** The access token the client sends, if any. */
  get token(): string | undefined {
    return this.accessToken;
  }

  /** Signs later calls with `token` (undefined: back to the API key, if any). */
  setToken(token: string | undefined): void {
    this.accessToken = token;
  }
}
