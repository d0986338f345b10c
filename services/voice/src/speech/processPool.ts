import { ErrorCode } from '@kasa/contracts';
import { HttpError, type Logger } from '@kasa/service-kit';

/** How long a client is told to wait when the pool and its queue are full. */
export const POOL_RETRY_AFTER_SECONDS = 5;

/**
 * 503: every process place is taken and the queue is full. It is the server's state, not the caller's doing, so it
 * says when to try again (`Retry-After`, set by the routes that can meet it: see `retryAfterOf`).
 */
export class ProcessPoolBusyError extends HttpError {
  readonly retryAfterSeconds = POOL_RETRY_AFTER_SECONDS;
  constructor(what: string) {
    super(
      503,
      ErrorCode.upstreamUnavailable,
      `${what[0]!.toUpperCase()}${what.slice(1)} is busy on the server right now. Please try again in a few seconds.`,
      { retryAfter: POOL_RETRY_AFTER_SECONDS },
    );
  }
}

/** A process ran past its time limit: it was stopped (SIGTERM, then SIGKILL after a grace). */
export class ProcessTimeLimitError extends Error {
  constructor(
    readonly what: string,
    readonly limitMs: number,
  ) {
    super(`The ${what} process took longer than ${Math.round(limitMs / 100) / 10} s and was stopped`);
    this.name = 'ProcessTimeLimitError';
  }
}

/** The `Retry-After` seconds an error asks for, if it is one that says so. */
export function retryAfterOf(err: unknown): number | undefined {
  return err instanceof ProcessPoolBusyError ? err.retryAfterSeconds : undefined;
}

export interface ProcessPoolOptions {
  /** How many processes run at once. */
  size: number;
  /** How many more may wait for a place; one more is refused at once (ProcessPoolBusyError). */
  maxQueued: number;
  /**
   * How long a task may take to settle after its time limit (its process is sent SIGTERM, then SIGKILL after a
   * grace): past that its place is given back anyway, so that one stuck task cannot shrink the pool for good.
   */
  settleGraceMs?: number;
  logger?: Pick<Logger, 'warn'>;
}

export interface PoolTaskOptions {
  /** What the process does, in errors and logs: `speech synthesis`, `video encoding`. */
  what: string;
  /** The longest the process may run once it has its place (waiting in the queue does not count). */
  timeoutMs: number;
  /** The caller's own end (the client went away, the job was stopped): leaves the queue, or stops the process. */
  signal?: AbortSignal;
}

/**
 * A task that runs one child process: it starts the process when called and stops it (SIGTERM, then SIGKILL) when
 * the signal aborts; its promise settles once the process is gone, which is when its place is given back.
 */
export type PoolTask<T> = (signal: AbortSignal) => Promise<T>;

interface Waiting {
  start(): void;
}

const noop = () => undefined;

function abortError(signal: AbortSignal): Error {
  return Object.assign(new Error('The operation was aborted', { cause: signal.reason }), { name: 'AbortError' });
}

/**
 * The bounded pool every heavy child process of the voice service goes through (eSpeak NG per chunk of text, ffmpeg
 * making a video): at most `size` run at once, at most `maxQueued` wait in order (first come, first served), and
 * each runs under a time limit. A caller hears of its time limit at once; the place is given back only once the
 * process has exited, so the bound counts processes that really exist.
 *
 * Fairness comes from the callers taking one place at a time: a synthesis asks for its chunks one after the other,
 * and a video worker renders one video, so a person with two synthesis slots holds at most two places and someone
 * else always finds one free, or waits behind at most the one that ends first.
 */
export class ProcessPool {
  readonly size: number;
  readonly maxQueued: number;
  private active = 0;
  private readonly waiting: Waiting[] = [];
  private readonly settleGraceMs: number;

  constructor(private readonly options: ProcessPoolOptions) {
    if (!Number.isInteger(options.size) || options.size < 1) throw new RangeError('size must be at least 1');
    if (!Number.isInteger(options.maxQueued) || options.maxQueued < 0) throw new RangeError('maxQueued must be ≥ 0');
    this.size = options.size;
    this.maxQueued = options.maxQueued;
    this.settleGraceMs = options.settleGraceMs ?? 10_000;
  }

  /** Processes running now. */
  get running(): number {
    return this.active;
  }

  /** Tasks waiting for a place. */
  get queued(): number {
    return this.waiting.length;
  }

  /**
   * Runs the task when a place is free (at once, or after those queued before it). Rejects with
   * ProcessPoolBusyError when the queue is full, with an AbortError when the caller's signal aborts, and with
   * ProcessTimeLimitError when the process passes its time limit.
   */
  run<T>(task: PoolTask<T>, options: PoolTaskOptions): Promise<T> {
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(abortError(signal));
    if (this.active < this.size) return this.start(task, options);
    if (this.waiting.length >= this.maxQueued) return Promise.reject(new ProcessPoolBusyError(options.what));
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        const at = this.waiting.indexOf(entry);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(abortError(signal!));
      };
      const entry: Waiting = {
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          this.start(task, options).then(resolve, reject);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(entry);
    });
  }

  private start<T>(task: PoolTask<T>, { what, timeoutMs, signal }: PoolTaskOptions): Promise<T> {
    this.active += 1;
    const limit = new AbortController();
    const timer = setTimeout(() => limit.abort(new ProcessTimeLimitError(what, timeoutMs)), timeoutMs);
    const taskSignal = signal ? AbortSignal.any([signal, limit.signal]) : limit.signal;
    let work: Promise<T>;
    try {
      work = task(taskSignal);
    } catch (err) {
      work = Promise.reject(err);
    }

    let released = false;
    let forced: NodeJS.Timeout | undefined;
    const release = () => {
      if (released) return;
      released = true;
      clearTimeout(timer);
      clearTimeout(forced);
      this.active -= 1;
      this.next();
    };
    work.then(release, release);
    // Past its limit and its grace the task is given up on: its place goes back (a replaced worker, in effect).
    limit.signal.addEventListener(
      'abort',
      () => {
        forced = setTimeout(() => {
          if (released) return;
          this.options.logger?.warn({ what, timeoutMs }, 'a pooled process did not end after its time limit');
          release();
        }, this.settleGraceMs);
        forced.unref();
      },
      { once: true },
    );

    // The caller hears of the time limit at once, not when the process is finally gone.
    let onLimit: (() => void) | undefined;
    const timedOut = new Promise<never>((_resolve, reject) => {
      onLimit = () => reject(limit.signal.reason as Error);
      limit.signal.addEventListener('abort', onLimit, { once: true });
    });
    timedOut.catch(noop);
    return Promise.race([work, timedOut]).finally(() => limit.signal.removeEventListener('abort', onLimit!));
  }

  private next(): void {
    while (this.active < this.size && this.waiting.length > 0) this.waiting.shift()!.start();
  }
}
