import { HttpError, ServiceUnavailableError } from '@kasa/service-kit';
import type { Request, Response } from 'express';

/** What every dashboard read passes to the driver: a server-side time limit and the request's abort signal. */
export interface ReadLimits {
  maxTimeMS: number;
  signal?: AbortSignal;
}

/** A dashboard read that ran out of time: 503 with Retry-After, never a hang. */
export class DashboardTimeoutError extends ServiceUnavailableError {
  readonly retryAfterSeconds = 5;
  constructor() {
    super('These figures are taking too long to load right now. Please try again in a few seconds.');
  }
}

/** The client went away before the answer: nothing is sent, and the reads stop. */
export class ClientGoneError extends Error {}

/**
 * Whether the status service can answer its dashboards: a dashboard read that timed out or failed within the last
 * `windowMs` (default one minute) makes it degraded on /api/status and on the services status page.
 */
export class DashboardHealth {
  private lastFailureAt = -Infinity;
  constructor(
    private readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  recordFailure(): void {
    this.lastFailureAt = this.now();
  }

  isHealthy(): boolean {
    return this.now() - this.lastFailureAt > this.windowMs;
  }
}

/** Aborted when the client goes away before the response is finished. */
export function clientSignal(req: Request, res: Response): AbortSignal {
  const controller = new AbortController();
  const onClose = () => {
    if (!res.writableFinished) controller.abort(new ClientGoneError('client gone'));
  };
  res.once('close', onClose);
  req.once('aborted', onClose);
  return controller.signal;
}

/** MongoDB and FerretDB answer a query over its `maxTimeMS` with code 50 (MaxTimeMSExpired). */
const isMaxTimeExpired = (err: unknown) =>
  (err as { code?: unknown })?.code === 50 || (err as { codeName?: unknown })?.codeName === 'MaxTimeMSExpired';

/**
 * Runs the reads of one dashboard answer within `timeoutMs`: each query gets `maxTimeMS` (the database stops it) and
 * an abort signal that fires when the time is up or the client leaves (the driver stops waiting and closes the
 * cursor). Out of time → DashboardTimeoutError (and the dashboard health notes it); client gone → ClientGoneError.
 */
export async function withinTimeLimit<T>(
  run: (limits: ReadLimits) => Promise<T>,
  options: { timeoutMs: number; signal?: AbortSignal; health?: DashboardHealth },
): Promise<T> {
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  aborted.catch(() => undefined);
  try {
    return await Promise.race([run({ maxTimeMS: options.timeoutMs, signal }), aborted]);
  } catch (err) {
    if (options.signal?.aborted) throw new ClientGoneError('client gone');
    if (deadline.aborted || isMaxTimeExpired(err)) {
      options.health?.recordFailure();
      throw new DashboardTimeoutError();
    }
    // The caller's own mistakes (a key that is not theirs) say nothing about the service's health.
    if (!(err instanceof HttpError && err.status < 500)) options.health?.recordFailure();
    throw err;
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}
