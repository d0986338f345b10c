/**
 * How the client retries: only calls that are safe to repeat, only failures worth another try, bounded, and never
 * longer than the caller is willing to wait.
 */
export interface RetryPolicy {
  /** Retries after the first attempt (default 2). 0 turns retrying off. */
  maxRetries: number;
  /**
   * The longest single wait (default 60 000 ms). An answer whose Retry-After asks for more is not retried: the error
   * is thrown at once, since waiting that long inside a call is rarely what a caller wants.
   */
  maxRetryDelayMs: number;
  /** The first back-off when the answer names no wait (default 500 ms); it doubles with each attempt, with jitter. */
  baseDelayMs: number;
  /** The longest back-off the doubling reaches (default 8 000 ms). */
  maxBackoffMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 2,
  maxRetryDelayMs: 60_000,
  baseDelayMs: 500,
  maxBackoffMs: 8_000,
};

/** Statuses worth another try: too many requests, and a gateway or service that is away for now. */
const RETRY_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/** `code` of a 429 whose monthly quota is used up: asking again before the month turns cannot help. */
export const QUOTA_EXCEEDED = 'quota_exceeded';

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

/** The wait an answer asks for: `retry-after-ms` (finer, when a server sends it), else `Retry-After`. */
export function requestedWait(headers: Headers, now: number = Date.now()): number | undefined {
  const millis = headers.get('retry-after-ms')?.trim();
  if (millis && /^\d+(\.\d+)?$/.test(millis)) return Math.round(Number(millis));
  return parseRetryAfter(headers.get('retry-after'), now);
}

/** Exponential back-off with jitter for the `attempt`-th retry (0-based): between half and all of the ceiling. */
export function backoffDelay(attempt: number, policy: RetryPolicy): number {
  const ceiling = Math.min(policy.maxRetryDelayMs, policy.maxBackoffMs, policy.baseDelayMs * 2 ** attempt);
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}

/**
 * How long to wait before repeating a call that is safe to repeat and was answered with `status` and error `code`
 * (the `attempt`-th failure, 0-based), or undefined to throw the error instead. The server has the last word:
 * `x-should-retry: false` is never retried and `x-should-retry: true` always is (within `maxRetries`). Otherwise only
 * 429, 502, 503 and 504 are, and never a used-up monthly quota.
 */
export function retryDelay(
  answer: { status: number; code: string; headers: Headers },
  attempt: number,
  policy: RetryPolicy,
): number | undefined {
  if (attempt >= policy.maxRetries) return undefined;
  const shouldRetry = answer.headers.get('x-should-retry')?.trim().toLowerCase();
  if (shouldRetry === 'false') return undefined;
  if (shouldRetry !== 'true' && (!RETRY_STATUSES.has(answer.status) || answer.code === QUOTA_EXCEEDED)) {
    return undefined;
  }
  const wait = requestedWait(answer.headers) ?? backoffDelay(attempt, policy);
  return wait > policy.maxRetryDelayMs ? undefined : wait;
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
