import { ErrorCode } from '@kasa/contracts';
import { HttpError } from '@kasa/service-kit';
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
export class SignInThrottledError extends HttpError {
  constructor(readonly retryAfterSeconds: number) {
    super(
      429,
      ErrorCode.rateLimited,
      `Too many failed sign-in attempts for this account. Try again in ${describeWait(retryAfterSeconds)}.`,
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
 * Progressive delays on sign-in per email address (OWASP's "account lockout" without the long lockout): the
 * `threshold`-th wrong password makes the account wait `baseDelayMs`, each further one twice as long as the one
 * before, up to `maxDelayMs`.
 * The count is shared by every client address and every replica (it lives in the database, changed with atomic
 * single-document updates) and forgotten after a quiet `windowMs` or at a successful sign-in. Known and unknown
 * addresses are counted alike, so the answers tell nothing about which addresses have accounts.
 */
export class LoginThrottle {
  private readonly settings: LoginThrottleSettings;
  private readonly now: () => Date;
  /**
   * The writes of one address, one after the other in this process. MongoDB applies `$inc` atomically, but the
   * embedded FerretDB reads, modifies and writes a document (docs/adr/0006-embedded-database-under-load.md), so
   * failures arriving at once would be lost there; across replicas MongoDB is required anyway.
   */
  private readonly lanes = new Map<string, Promise<unknown>>();

  constructor(
    private readonly throttles: Model<LoginThrottleDocument>,
    options: { settings?: Partial<LoginThrottleSettings>; now?: () => Date } = {},
  ) {
    this.settings = { ...DEFAULT_LOGIN_THROTTLE, ...options.settings };
    this.now = options.now ?? (() => new Date());
  }

  /** Throws SignInThrottledError while the address must wait; checked before the password is. */
  async assertMayTry(email: string): Promise<void> {
    const doc = await this.throttles.findById(keyOf(email), { lockedUntil: 1 }).lean();
    const waitMs = doc?.lockedUntil ? doc.lockedUntil.getTime() - this.now().getTime() : 0;
    if (waitMs > 0) throw new SignInThrottledError(Math.ceil(waitMs / 1000));
  }

  /** Counts a wrong password (or an unknown address) and sets the wait it earns. */
  recordFailure(email: string): Promise<FailureOutcome> {
    const key = keyOf(email);
    return this.inLane(key, () => this.countFailure(key));
  }

  /** A successful sign-in forgets the failures. */
  async reset(email: string): Promise<void> {
    const key = keyOf(email);
    await this.inLane(key, () => this.throttles.deleteOne({ _id: key }));
  }

  private async countFailure(key: string): Promise<FailureOutcome> {
    const now = this.now();
    const failures = await this.increment(key, now);
    const { threshold, baseDelayMs, maxDelayMs, windowMs } = this.settings;
    if (failures < threshold) {
      await this.throttles.updateOne({ _id: key }, { $max: { forgetAt: new Date(now.getTime() + windowMs) } });
      return { failures, lockedUntil: null, startedLockout: false };
    }
    const delayMs = Math.min(baseDelayMs * 2 ** Math.min(failures - threshold, 30), maxDelayMs);
    const lockedUntil = new Date(now.getTime() + delayMs);
    // $max: of two failures racing, the longer wait stays.
    await this.throttles.updateOne(
      { _id: key },
      { $max: { lockedUntil, forgetAt: new Date(lockedUntil.getTime() + windowMs) } },
    );
    return { failures, lockedUntil, startedLockout: failures === threshold };
  }

  /** Deletes counts that are forgotten anyway (run periodically; no TTL index on FerretDB). */
  async pruneExpired(): Promise<number> {
    const { deletedCount } = await this.throttles.deleteMany({ forgetAt: { $lte: this.now() } });
    return deletedCount;
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

  /** The failure count after this one: +1 within a live count, else a new count of 1. Atomic per address. */
  private async increment(key: string, now: Date): Promise<number> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const live = await this.throttles
        .findOneAndUpdate({ _id: key, forgetAt: { $gt: now } }, { $inc: { failures: 1 } }, { new: true })
        .lean();
      if (live) return live.failures;
      try {
        const fresh = await this.throttles
          .findOneAndUpdate(
            { _id: key, forgetAt: { $lte: now } },
            { $set: { failures: 1, lockedUntil: null, forgetAt: new Date(now.getTime() + this.settings.windowMs) } },
            { new: true, upsert: true },
          )
          .lean();
        if (fresh) return fresh.failures;
      } catch (err) {
        // Another failure of the same address started the count first: count on it.
        if ((err as { code?: number }).code !== DUPLICATE_KEY) throw err;
      }
    }
    throw new Error('login throttle: the failure count did not settle');
  }
}

function keyOf(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
}
