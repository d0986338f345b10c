import { TooManyRequestsError } from '@kasa/service-kit';
import type { Model } from 'mongoose';
import { createHash } from 'node:crypto';
import type { LoginThrottleDocument } from './loginThrottleModel';

const DUPLICATE_KEY = 11000;

export interface LoginThrottleSettings {
  /** Failures after which sign-in waits, and after each further one (5). */
  threshold: number;
  /** The first wait; each further failure doubles it (1 s). */
  baseDelayMs: number;
  /** The longest wait (15 minutes): an attacker can delay a person's sign-in by this much at most per failure. */
  maxDelayMs: number;
  /** Failures are forgotten after this long without one, counted from the end of a wait (15 minutes). */
  windowMs: number;
}

export const DEFAULT_LOGIN_THROTTLE: LoginThrottleSettings = {
  threshold: 5,
  baseDelayMs: 1_000,
  maxDelayMs: 15 * 60_000,
  windowMs: 15 * 60_000,
};

/** Sign-in to an account waits (429 with Retry-After); the same answer whether or not the account exists. */
export class SignInThrottledError extends TooManyRequestsError {
  constructor(retryAfterSeconds: number) {
    super(
      `Too many failed sign-in attempts for this account. Try again in ${describeWait(retryAfterSeconds)}.`,
      retryAfterSeconds,
      { retryAfterSeconds },
    );
  }
}

function describeWait(seconds: number): string {
  if (seconds < 60) return seconds === 1 ? '1 second' : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

/** What a failure did: the failure count and, once past the free ones, until when sign-in waits. */
export interface FailureOutcome {
  failures: number;
  lockedUntil: Date | null;
  /** This failure started the waits (once per run of failures: the owner's notice goes out then). */
  startedLockout: boolean;
}

/**
 * One sign-in attempt, counted before its password is checked: its place in the run of attempts (`n`), and whether
 * it holds the address's guard (an attempt past the free ones: nobody else may try until its outcome is known).
 */
export interface SignInAttempt {
  readonly key: string;
  readonly n: number;
  readonly guarded: boolean;
}

/**
 * How long an attempt past the free ones keeps others of the same address waiting while its password is checked; if
 * the process dies mid-check, the address is free again after this.
 */
const CHECK_IN_FLIGHT_MS = 30_000;

/**
 * Progressive delays on sign-in per email address (OWASP's "account lockout" without the long lockout): the
 * `threshold`-th wrong password makes the account wait `baseDelayMs`, each further one twice as long as the one
 * before, up to `maxDelayMs`.
 *
 * Every attempt is counted before its password is checked (`reserve`), with one conditional single-document update:
 * the first `threshold - 1` attempts of a run go ahead at once, and each later one only while no wait is running,
 * setting a short wait of its own until its outcome is known. So N guesses sent at once check at most `threshold`
 * passwords; the others are refused without any password work. A right password ends the run (`succeeded`), a wrong
 * one sets the wait it earns (`failed`).
 * The count is shared by every client address and every replica (it lives in the database) and forgotten after a
 * quiet `windowMs`. Known and unknown addresses are counted alike, so the answers tell nothing about which addresses
 * have accounts.
 */
export class LoginThrottle {
  private readonly settings: LoginThrottleSettings;
  private readonly now: () => Date;
  /**
   * The writes of one address, one after the other in this process. MongoDB applies each update atomically, and so
   * does the embedded FerretDB with its patches (docs/adr/0006-embedded-database-under-load.md); the lane keeps
   * the embedded database from retrying conflicting writes of one document under a burst.
   */
  private readonly lanes = new Map<string, Promise<unknown>>();

  constructor(
    private readonly throttles: Model<LoginThrottleDocument>,
    options: { settings?: Partial<LoginThrottleSettings>; now?: () => Date } = {},
  ) {
    this.settings = { ...DEFAULT_LOGIN_THROTTLE, ...options.settings };
    this.now = options.now ?? (() => new Date());
  }

  /**
   * Counts an attempt for the address before its password is checked; throws SignInThrottledError (and counts
   * nothing) while the address must wait or another attempt's check holds it.
   */
  reserve(email: string): Promise<SignInAttempt> {
    const key = keyOf(email);
    return this.inLane(key, () => this.take(key));
  }

  /** The attempt's password was wrong (or the address unknown): sets the wait the failure earns. */
  failed(attempt: SignInAttempt): Promise<FailureOutcome> {
    return this.inLane(attempt.key, () => this.settle(attempt));
  }

  /** The attempt's password was right: the run of failures is forgotten. */
  async succeeded(attempt: SignInAttempt): Promise<void> {
    await this.inLane(attempt.key, () => this.throttles.deleteOne({ _id: attempt.key }));
  }

  /**
   * The attempt ended without an answer about its password (the check itself failed): it is not counted, and its
   * guard is lifted.
   */
  async abandoned(attempt: SignInAttempt): Promise<void> {
    await this.inLane(attempt.key, () =>
      this.throttles.updateOne(
        { _id: attempt.key, failures: attempt.n },
        { $inc: { failures: -1 }, ...(attempt.guarded ? { $set: { lockedUntil: null } } : {}) },
      ),
    );
  }

  /** Counts a wrong password without a check first (a reservation and its failure in one); for tools and tests. */
  async recordFailure(email: string): Promise<FailureOutcome> {
    return this.failed(await this.reserve(email));
  }

  /** Deletes counts that are forgotten anyway (run periodically; no TTL index on FerretDB). */
  async pruneExpired(): Promise<number> {
    const { deletedCount } = await this.throttles.deleteMany({ forgetAt: { $lte: this.now() } });
    return deletedCount;
  }

  /** The wait that refuses attempts now, in whole seconds (0: none). */
  async waitSeconds(email: string): Promise<number> {
    const doc = await this.throttles.findById(keyOf(email), { lockedUntil: 1, forgetAt: 1 }).lean();
    if (!doc || doc.forgetAt.getTime() <= this.now().getTime()) return 0;
    const waitMs = doc.lockedUntil ? doc.lockedUntil.getTime() - this.now().getTime() : 0;
    return waitMs > 0 ? Math.ceil(waitMs / 1000) : 0;
  }

  private async take(key: string): Promise<SignInAttempt> {
    const now = this.now();
    const { threshold, windowMs } = this.settings;
    const freeBefore = threshold - 1;
    const inFlight = new Date(now.getTime() + CHECK_IN_FLIGHT_MS);
    for (let round = 0; round < 3; round++) {
      // A free attempt of a live run.
      const free = await this.throttles
        .findOneAndUpdate(
          { _id: key, forgetAt: { $gt: now }, failures: { $lt: freeBefore } },
          { $inc: { failures: 1 } },
          { new: true },
        )
        .lean();
      if (free) return { key, n: free.failures, guarded: false };
      // An attempt past the free ones, while no wait runs: it holds the address until its outcome is known.
      const guarded = await this.throttles
        .findOneAndUpdate(
          {
            _id: key,
            forgetAt: { $gt: now },
            failures: { $gte: freeBefore },
            $or: [{ lockedUntil: null }, { lockedUntil: { $lte: now } }],
          },
          { $inc: { failures: 1 }, $set: { lockedUntil: inFlight }, $max: { forgetAt: inFlight } },
          { new: true },
        )
        .lean();
      if (guarded) return { key, n: guarded.failures, guarded: true };
      // The first attempt of a run (no count, or a forgotten one).
      try {
        const first = freeBefore < 1;
        const fresh = await this.throttles
          .findOneAndUpdate(
            { _id: key, forgetAt: { $lte: now } },
            {
              $set: {
                failures: 1,
                lockedUntil: first ? inFlight : null,
                forgetAt: new Date(now.getTime() + windowMs),
              },
            },
            { new: true, upsert: true },
          )
          .lean();
        if (fresh) return { key, n: 1, guarded: first };
      } catch (err) {
        // Another attempt started the run first, or the live run is waiting: look again.
        if ((err as { code?: number }).code !== DUPLICATE_KEY) throw err;
      }
      const doc = await this.throttles.findById(key, { lockedUntil: 1, forgetAt: 1 }).lean();
      const waitMs = doc?.lockedUntil && doc.forgetAt > now ? doc.lockedUntil.getTime() - now.getTime() : 0;
      if (waitMs > 0) throw new SignInThrottledError(Math.ceil(waitMs / 1000));
    }
    throw new Error('login throttle: the attempt count did not settle');
  }

  private async settle(attempt: SignInAttempt): Promise<FailureOutcome> {
    const now = this.now();
    const { threshold, baseDelayMs, maxDelayMs, windowMs } = this.settings;
    if (attempt.n < threshold) {
      await this.throttles.updateOne({ _id: attempt.key }, { $max: { forgetAt: new Date(now.getTime() + windowMs) } });
      return { failures: attempt.n, lockedUntil: null, startedLockout: false };
    }
    const delayMs = Math.min(baseDelayMs * 2 ** Math.min(attempt.n - threshold, 30), maxDelayMs);
    const lockedUntil = new Date(now.getTime() + delayMs);
    // $set, not $max: the wait replaces the attempt's own hold, which may be longer than the first waits.
    await this.throttles.updateOne(
      { _id: attempt.key },
      { $set: { lockedUntil, forgetAt: new Date(lockedUntil.getTime() + windowMs) } },
    );
    return { failures: attempt.n, lockedUntil, startedLockout: attempt.n === threshold };
  }

  /** Runs `work` after the address's earlier writes in this process have settled. */
  private inLane<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.lanes.get(key) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.catch(() => undefined);
    this.lanes.set(key, settled);
    void settled.then(() => {
      if (this.lanes.get(key) === settled) this.lanes.delete(key);
    });
    return next;
  }
}

function keyOf(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
}
