import CircuitBreaker from 'opossum';
import type { Logger } from '../logger';
import { CallerAbortError, abortReason, withDeadline, type Deadline, type DeadlineOptions } from './deadline';

/** When a guarded callee's circuit opens, and for how long. */
export interface BreakerSettings {
  /** Failures (percent of calls in the window) that open the circuit. */
  errorThresholdPercentage: number;
  /** Calls in the window before the circuit may open at all. */
  volumeThreshold: number;
  /** How long an open circuit refuses calls before it lets one through (half-open). */
  resetTimeoutMs: number;
  /** The rolling window the failures are counted over (10 buckets); default 60 000 ms. */
  windowMs?: number;
}

export interface CallGuardOptions extends BreakerSettings {
  logger: Logger;
  /** What the guarded callees are (e.g. `speech`), in the breakers' names and logs; omitted when not given. */
  kind?: string;
}

export type CircuitState = 'closed' | 'open' | 'half-open';

/** Options of one guarded call: its deadline and the caller's signal (see withDeadline). */
export type GuardedCallOptions = DeadlineOptions;

type Run = () => Promise<unknown>;

/**
 * Guarded calls to remote callees (AI providers, speech engines): each call runs under a deadline (withDeadline),
 * and each callee has its own opossum circuit breaker, so that a callee that keeps failing is skipped at once (and
 * tried again after `resetTimeoutMs`) rather than costing every request its timeout. The caller's own abort (a
 * CallerAbortError, or a subclass of it) never counts against a breaker. An open circuit rejects with opossum's
 * error, whose `code` is `EOPENBREAKER` (see isOpenCircuit).
 *
 * @example
 * const guard = new CallGuard({ errorThresholdPercentage: 50, volumeThreshold: 5, resetTimeoutMs: 30_000, logger });
 * const text = await guard.run('deepl', { timeoutMs: 5_000, signal: req.signal }, ({ signal }) => translate(signal));
 */
export class CallGuard {
  private readonly breakers = new Map<string, CircuitBreaker<[Run], unknown>>();

  constructor(private readonly options: CallGuardOptions) {}

  /** Runs `call` for `callee` through its breaker and under the deadline of `options`. */
  async run<T>(callee: string, options: GuardedCallOptions, call: (deadline: Deadline) => Promise<T>): Promise<T> {
    // Aborted before it started: the caller's own reason, and nothing counted against the breaker.
    if (options.signal?.aborted) throw abortReason(options);
    return (await this.breaker(callee).fire(() => withDeadline(options, call))) as T;
  }

  /** The breaker state of `callee` (closed for one never called), for status endpoints and heartbeats. */
  circuit(callee: string): CircuitState {
    const cb = this.breakers.get(callee);
    return cb?.halfOpen ? 'half-open' : cb?.opened ? 'open' : 'closed';
  }

  /** Drops `callee`'s breaker (its settings changed: a new key or address starts with a closed circuit). */
  forget(callee: string): void {
    this.breakers.get(callee)?.shutdown();
    this.breakers.delete(callee);
  }

  /** Stops the breakers' timers (tests and shutdown). */
  shutdown(): void {
    for (const cb of this.breakers.values()) cb.shutdown();
  }

  private breaker(callee: string) {
    let cb = this.breakers.get(callee);
    if (cb) return cb;
    const { logger, kind } = this.options;
    cb = new CircuitBreaker((run: Run) => run(), {
      timeout: false, // each call has its own deadline (withDeadline)
      errorThresholdPercentage: this.options.errorThresholdPercentage,
      volumeThreshold: this.options.volumeThreshold,
      resetTimeout: this.options.resetTimeoutMs,
      rollingCountTimeout: this.options.windowMs ?? 60_000,
      rollingCountBuckets: 10,
      errorFilter: (err: unknown) => err instanceof CallerAbortError,
      name: kind ? `${kind}:${callee}` : callee,
    });
    const fields = kind ? { provider: callee, kind } : { provider: callee };
    cb.on('open', () => logger.warn(fields, 'circuit opened: skipping this provider for now'));
    cb.on('halfOpen', () => logger.info(fields, 'circuit half-open: trying the provider again'));
    cb.on('close', () => logger.info(fields, 'circuit closed'));
    this.breakers.set(callee, cb);
    return cb;
  }
}

/** Whether a failure is a breaker refusing the call (the callee is being skipped for now). */
export const isOpenCircuit = (err: unknown): boolean => (err as { code?: string } | undefined)?.code === 'EOPENBREAKER';
