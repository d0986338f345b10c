/** How the client retries: bounded, and never longer than the caller is willing to wait. */
export interface RetryPolicy {
  /** Retries after the first attempt (default 2). 0 turns retrying off. */
  maxRetries: number;
  /**
   * The longest single wait (default 60 000 ms). A 429 whose Retry-After asks for more (a monthly quota that is used
   * up, say) is not retried: the error is thrown at once, since waiting that long is rarely what a caller wants.
   */
  maxRetryDelayMs: number;
  /** First back-off after a network error (default 500 ms); it doubles with each attempt, with jitter. */
  baseDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 2, maxRetryDelayMs: 60_000, baseDelayMs: 500 };

/**
 * Milliseconds a `Retry-After` header asks to wait: delta-seconds or an HTTP date. Undefined when absent or
 * unreadable.
 */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  // An HTTP date names its day and month ("Wed, 21 Oct 2026 07:28:00 GMT"); a bare number such as -1 is not one.
  const date = /[a-z]/i.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** Exponential back-off with full jitter for the `attempt`-th retry (0-based). */
export function backoffDelay(attempt: number, policy: RetryPolicy): number {
  const ceiling = Math.min(policy.maxRetryDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
