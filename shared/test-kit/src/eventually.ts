import { setTimeout as sleep } from 'node:timers/promises';

export interface EventuallyOptions {
  /**
   * Gives up after this long (default 20 s: a state that comes in milliseconds on a quiet machine may take seconds on
   * a loaded CI machine; the wait ends as soon as it is reached, so only a failure waits this long).
   */
  timeoutMs?: number;
  /** Waits this long between two looks (default 25 ms). */
  intervalMs?: number;
  /** Names the awaited state in the error, e.g. 'the reply is stored'. */
  what?: string;
  /** Read only on a timeout and appended to the error, e.g. the last lines a platform logged, to explain the wait. */
  context?: () => string;
}

/**
 * Waits for a state instead of sleeping and hoping: calls `probe` until it returns something other than `undefined`,
 * `null` or `false` (a throw counts as "not yet"), and resolves with that value. Rejects after `timeoutMs` with
 * `what` and the probe's last error, so a failing test says what it was waiting for.
 */
export async function eventually<T>(
  probe: () => T | Promise<T>,
  options: EventuallyOptions | number = {},
): Promise<Exclude<T, undefined | null | false>> {
  const {
    timeoutMs = 20_000,
    intervalMs = 25,
    what = 'the awaited state',
    context,
  } = typeof options === 'number' ? { timeoutMs: options } : options;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== null && value !== false)
        return value as Exclude<T, undefined | null | false>;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      const reason = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`${what}: not reached within ${timeoutMs} ms${reason}${context ? `\n${context()}` : ''}`);
    }
    await sleep(intervalMs);
  }
}
