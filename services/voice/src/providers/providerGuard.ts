import type { Logger } from '@kasa/service-kit';
import CircuitBreaker from 'opossum';

export interface BreakerOptions {
  errorThresholdPercentage: number;
  volumeThreshold: number;
  resetTimeoutMs: number;
}

/** The attempt's own deadline passed. */
export class ProviderTimeoutError extends Error {
  constructor(
    readonly provider: string,
    readonly ms: number,
  ) {
    super(`${provider}: no answer within ${ms} ms`);
    this.name = 'ProviderTimeoutError';
  }
}

/** The caller went away; not the provider's fault, so it never counts against its breaker. */
class CallerAbortError extends Error {
  constructor() {
    super('cancelled by the caller');
    this.name = 'CallerAbortError';
  }
}

type Call<T> = (signal: AbortSignal) => Promise<T>;

/**
 * Guards calls to remote providers, as the chat service's provider chain does: each call has a deadline, and each
 * provider its own opossum circuit breaker, so that a provider that keeps failing is skipped at once (and tried again
 * after the reset time) rather than costing every request its timeout.
 */
export class ProviderGuard {
  private readonly breakers = new Map<string, CircuitBreaker<[() => Promise<unknown>], unknown>>();

  constructor(private readonly options: BreakerOptions & { logger: Logger; kind: string }) {}

  /** Runs `call` for `provider` with a deadline of `timeoutMs`, aborted with `signal` too. */
  async run<T>(provider: string, timeoutMs: number, signal: AbortSignal, call: Call<T>): Promise<T> {
    if (signal.aborted) throw signal.reason ?? new CallerAbortError();
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new ProviderTimeoutError(provider, timeoutMs)), timeoutMs);
    const onAbort = () => controller.abort(new CallerAbortError());
    signal.addEventListener('abort', onAbort, { once: true });
    // A provider library that ignores the signal while it waits is left behind at once.
    const aborted = new Promise<never>((_, reject) =>
      controller.signal.addEventListener('abort', () => reject(controller.signal.reason as Error), { once: true }),
    );
    aborted.catch(() => undefined);
    try {
      return (await this.breaker(provider).fire(() => Promise.race([call(controller.signal), aborted]))) as T;
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    }
  }

  /** Each guarded provider's breaker state, for the status endpoint. */
  circuit(provider: string): 'closed' | 'open' | 'half-open' {
    const cb = this.breakers.get(provider);
    return cb?.halfOpen ? 'half-open' : cb?.opened ? 'open' : 'closed';
  }

  /** Stops the breakers' timers (tests and shutdown). */
  shutdown(): void {
    for (const cb of this.breakers.values()) cb.shutdown();
  }

  private breaker(provider: string) {
    let cb = this.breakers.get(provider);
    if (cb) return cb;
    const { logger, kind } = this.options;
    cb = new CircuitBreaker((call: () => Promise<unknown>) => call(), {
      timeout: false, // run() has its own deadline
      errorThresholdPercentage: this.options.errorThresholdPercentage,
      volumeThreshold: this.options.volumeThreshold,
      resetTimeout: this.options.resetTimeoutMs,
      rollingCountTimeout: 60_000,
      rollingCountBuckets: 10,
      errorFilter: (err: unknown) => err instanceof CallerAbortError,
      name: `${kind}:${provider}`,
    });
    cb.on('open', () => logger.warn({ provider, kind }, 'circuit opened: skipping this provider for now'));
    cb.on('halfOpen', () => logger.info({ provider, kind }, 'circuit half-open: trying the provider again'));
    cb.on('close', () => logger.info({ provider, kind }, 'circuit closed'));
    this.breakers.set(provider, cb);
    return cb;
  }
}

/** Whether a failure is the breaker refusing the call (the provider is being skipped for now). */
export const isOpenCircuit = (err: unknown): boolean => (err as { code?: string })?.code === 'EOPENBREAKER';
