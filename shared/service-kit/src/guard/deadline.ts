/**
 * A guarded call's deadline passed: `what` names the deadline (a provider, or a phase such as `first-token`), `ms`
 * its length. The one timeout error of the kit's guarded calls; services sort failures with `instanceof`.
 */
export class DeadlineExceededError extends Error {
  constructor(
    readonly what: string,
    readonly ms: number,
    message = `${what}: no answer within ${ms} ms`,
  ) {
    super(message);
    this.name = 'DeadlineExceededError';
  }
}

/** The caller went away (its signal aborted); not the callee's fault, so it never counts against a circuit breaker. */
export class CallerAbortError extends Error {
  constructor(message = 'cancelled by the caller') {
    super(message);
    this.name = 'CallerAbortError';
  }
}

/** What a guarded call can do with its deadline while it runs. */
export interface Deadline {
  /** Aborted when the caller aborts (reason a CallerAbortError), a deadline passes (a DeadlineExceededError) or `fail` is called. */
  readonly signal: AbortSignal;
  /**
   * (Re)starts the call's moving deadline: `what` must happen within `ms` from now (e.g. the next chunk of a stream).
   * Replaces the previous moving deadline; the overall one (`timeoutMs`) keeps running.
   */
  arm(what: string, ms: number, message?: string): void;
  /** Ends the call now with `reason` (e.g. the call's own failure, so that the request it started is cancelled). */
  cancel(reason: Error): void;
}

export interface DeadlineOptions {
  /** The caller's signal: its abort ends the call at once with a CallerAbortError. */
  signal?: AbortSignal;
  /** The whole call's deadline; none when omitted. */
  timeoutMs?: number;
  /** Names the overall deadline in its DeadlineExceededError (default 'call'). */
  what?: string;
  /** The overall DeadlineExceededError's message (default `<what>: no answer within <ms> ms`). */
  message?: string;
  /** Makes the caller's abort error (default a CallerAbortError). */
  callerAbort?: () => Error;
}

/**
 * Runs `call` until it settles, its deadline passes or the caller aborts, whichever comes first. A call that ignores
 * its signal while it waits is left behind at once (its promise is then ignored), so a hung library never holds the
 * caller past the deadline. Rejects with the signal's reason: a DeadlineExceededError, the caller's abort error, or
 * the call's own error.
 */
export async function withDeadline<T>(options: DeadlineOptions, call: (deadline: Deadline) => Promise<T>): Promise<T> {
  const callerAbort = options.callerAbort ?? (() => new CallerAbortError());
  if (options.signal?.aborted) throw abortReason(options);
  const controller = new AbortController();
  const abort = (reason: Error) => {
    if (!controller.signal.aborted) controller.abort(reason);
  };
  const total =
    options.timeoutMs === undefined
      ? undefined
      : setTimeout(
          () =>
            abort(new DeadlineExceededError(options.what ?? 'call', options.timeoutMs!, options.message ?? undefined)),
          options.timeoutMs,
        );
  let moving: NodeJS.Timeout | undefined;
  const onCallerAbort = () => abort(callerAbort());
  options.signal?.addEventListener('abort', onCallerAbort, { once: true });
  const deadline: Deadline = {
    signal: controller.signal,
    arm(what, ms, message) {
      clearTimeout(moving);
      moving = setTimeout(() => abort(new DeadlineExceededError(what, ms, message)), ms);
    },
    cancel: abort,
  };
  try {
    return await new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(controller.signal.reason as Error);
      controller.signal.addEventListener('abort', onAbort, { once: true });
      call(deadline).then(
        (value) => {
          controller.signal.removeEventListener('abort', onAbort);
          resolve(value);
        },
        (err: unknown) => {
          controller.signal.removeEventListener('abort', onAbort);
          // A call that failed because it was aborted reports why it was aborted (the deadline, the caller).
          reject(controller.signal.aborted ? (controller.signal.reason as Error) : err);
        },
      );
    });
  } finally {
    clearTimeout(total);
    clearTimeout(moving);
    options.signal?.removeEventListener('abort', onCallerAbort);
  }
}

/** Why a call whose caller had aborted before it started does not run: the signal's reason, else a caller abort. */
export function abortReason(options: DeadlineOptions): Error {
  const reason: unknown = options.signal?.reason;
  return reason instanceof Error ? reason : (options.callerAbort ?? (() => new CallerAbortError()))();
}
