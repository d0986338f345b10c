import type { ProviderSettings } from '@kasa/ai-providers';
import { AiProviderKind, AiProviderName } from '@kasa/contracts';
import type { EventBus, Logger } from '@kasa/service-kit';
import { z } from 'zod';

/**
 * One provider as chat's `GET /internal/ai-providers` sends it: @kasa/ai-providers' ProviderSettings, key opened.
 * Each is checked on its own, so that one this version does not know (a kind chat learned later) is left out rather
 * than the whole list.
 */
const BrowserProvider = z.object({
  name: AiProviderName,
  kind: AiProviderKind,
  apiKey: z.string().min(1).max(1_000).optional(),
  baseURL: z
    .url({ protocol: /^https?$/ })
    .max(500)
    .optional(),
  model: z.string().min(1).max(200),
  extra: z.record(z.string(), z.string().max(200)).optional(),
  vision: z.boolean().optional(),
});

/** The answer of `GET /internal/ai-providers`: `version` changes with every change made in the browser. */
const BrowserProvidersAnswer = z.object({
  version: z.number().int().min(0),
  providers: z.array(z.unknown()).max(100),
});

export interface BrowserProvidersOptions {
  /** The chat service (CHAT_SERVICE_URL, without a trailing slash). */
  chatServiceUrl: string;
  logger: Logger;
  /** Called with the enabled providers of each new version, in chain order; not again for the same version. */
  apply: (providers: ProviderSettings[], version: number) => void;
  /** The longest one fetch may take (default 3 s). */
  timeoutMs?: number;
  /** The backstop: a fetch this often whatever is heard (default 60 s). */
  intervalMs?: number;
  /** Retries of the first fetch until chat answers: the first delay, doubled up to the second (default 1 s, 30 s). */
  retryMs?: { initial: number; max: number };
}

/**
 * The AI providers operators add in the browser, as the chat service lists them for other services. Fetched at
 * start in the background (retried until chat answers, readiness never waits for it), whenever
 * `chat.providers.changed` is heard, and every minute as a backstop for a change heard by nobody; a new `version`
 * is handed to `apply`. A failed fetch keeps what is in use, with one warning per run of failures.
 */
export class BrowserProviders {
  private version?: number;
  private failing = false;
  private current?: Promise<boolean>;
  private next?: Promise<boolean>;
  private retryTimer?: NodeJS.Timeout;
  private backstop?: NodeJS.Timeout;
  private stopped = false;

  constructor(private readonly options: BrowserProvidersOptions) {}

  /** The version in use; undefined until chat first answered. */
  get appliedVersion(): number | undefined {
    return this.version;
  }

  /** Hears every change on this instance's broadcast queue (every replica reloads); call before the bus starts. */
  listen(bus: Pick<EventBus, 'subscribeBroadcast'>): this {
    bus.subscribeBroadcast('chat.providers.changed', async () => {
      await this.refresh();
    });
    return this;
  }

  /** Fetches at once, then again with backoff until chat answers; and every `intervalMs` until stop(). */
  start(): this {
    const { initial, max } = this.options.retryMs ?? { initial: 1_000, max: 30_000 };
    let delay = initial;
    const attempt = async () => {
      if (this.stopped || (await this.refresh()) || this.stopped) return;
      this.retryTimer = setTimeout(() => void attempt(), delay);
      this.retryTimer.unref();
      delay = Math.min(delay * 2, max);
    };
    void attempt();
    this.backstop = setInterval(() => void this.refresh(), this.options.intervalMs ?? 60_000);
    this.backstop.unref();
    return this;
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.backstop);
  }

  /**
   * Fetches the list and applies a new version; resolves whether chat answered, never rejects. A call made while a
   * fetch runs waits for one more fetch after it (the change it was told of may be newer than the running answer);
   * any further calls meanwhile share that one.
   */
  refresh(): Promise<boolean> {
    if (this.next) return this.next;
    if (!this.current) {
      this.current = this.fetchOnce().finally(() => {
        this.current = undefined;
      });
      return this.current;
    }
    this.next = this.current.then(() => {
      this.next = undefined;
      return this.refresh();
    });
    return this.next;
  }

  private async fetchOnce(): Promise<boolean> {
    const { chatServiceUrl, logger } = this.options;
    let answer: z.output<typeof BrowserProvidersAnswer>;
    try {
      answer = await this.fetchList();
    } catch (err) {
      if (!this.failing) {
        this.failing = true;
        logger.warn(
          { chat: chatServiceUrl, err: describe(err) },
          'could not read the AI providers added in the browser: keeping those in use, trying again',
        );
      }
      return false;
    }
    if (this.failing) {
      this.failing = false;
      logger.info({ chat: chatServiceUrl }, 'the AI providers added in the browser can be read again');
    }
    if (this.stopped || answer.version === this.version) return true;
    const providers = answer.providers.flatMap((entry): ProviderSettings[] => {
      const parsed = BrowserProvider.safeParse(entry);
      if (parsed.success) return [toSettings(parsed.data)];
      const name = (entry as { name?: unknown } | null)?.name;
      logger.warn(
        { provider: typeof name === 'string' ? name.slice(0, 32) : undefined, version: answer.version },
        'left out an AI provider added in the browser that this service does not understand',
      );
      return [];
    });
    try {
      this.options.apply(providers, answer.version);
      this.version = answer.version;
    } catch (err) {
      // The version stays unapplied: the next fetch tries again.
      logger.error(
        { err: describe(err), version: answer.version },
        'could not use the AI providers added in the browser',
      );
    }
    return true;
  }

  private async fetchList(): Promise<z.output<typeof BrowserProvidersAnswer>> {
    const res = await fetch(`${this.options.chatServiceUrl}/internal/ai-providers`, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(this.options.timeoutMs ?? 3_000),
      redirect: 'error',
    });
    if (!res.ok) {
      await res.body?.cancel().catch(() => undefined);
      throw new Error(`chat answered HTTP ${res.status}`);
    }
    const parsed = BrowserProvidersAnswer.safeParse(await res.json());
    if (!parsed.success) throw new Error('chat answered something other than the list of AI providers');
    return parsed.data;
  }
}

function toSettings(provider: z.output<typeof BrowserProvider>): ProviderSettings {
  return {
    name: provider.name,
    kind: provider.kind,
    ...(provider.apiKey ? { apiKey: provider.apiKey } : {}),
    ...(provider.baseURL ? { baseURL: provider.baseURL } : {}),
    model: provider.model,
    // Personas are chat's business: translation and speech to text use the default model.
    personaModels: {},
    extra: provider.extra ?? {},
    vision: provider.vision ?? false,
  };
}

/** A failure in a few words: the name and message (a refused connection says so in its cause). */
function describe(err: unknown): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string } };
  const cause = e?.cause?.code ? ` (${e.cause.code})` : '';
  return `${e?.name ?? 'Error'}: ${(e?.message ?? '').slice(0, 120)}${cause}`;
}
