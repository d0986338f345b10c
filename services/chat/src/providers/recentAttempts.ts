import type { AttemptRecord } from './providerChain';

const MINUTE_MS = 60_000;
/** The window operators see a provider's error rate over. */
export const RECENT_WINDOW_MINUTES = 15;

interface Bucket {
  minute: number;
  attempts: number;
  failures: number;
}

/**
 * Each provider's attempts and failures over the last 15 minutes on this replica, in one-minute buckets: what the
 * operators' provider list shows next to the circuit breaker's state. Counted in memory as attempts finish, so the
 * list never scans the attempts' history. A stop by the person is neither.
 */
export class RecentAttempts {
  private readonly buckets = new Map<string, Bucket[]>();

  constructor(private readonly now: () => number = Date.now) {}

  observe(attempt: Pick<AttemptRecord, 'provider' | 'outcome'>): void {
    if (attempt.outcome === 'aborted') return;
    const minute = Math.floor(this.now() / MINUTE_MS);
    const buckets = this.fresh(attempt.provider, minute);
    let bucket = buckets[buckets.length - 1];
    if (bucket?.minute !== minute) {
      bucket = { minute, attempts: 0, failures: 0 };
      buckets.push(bucket);
    }
    bucket.attempts += 1;
    if (attempt.outcome !== 'ok') bucket.failures += 1;
  }

  of(provider: string): { attempts: number; failures: number; errorRate: number } {
    const buckets = this.fresh(provider, Math.floor(this.now() / MINUTE_MS));
    const attempts = buckets.reduce((sum, b) => sum + b.attempts, 0);
    const failures = buckets.reduce((sum, b) => sum + b.failures, 0);
    return { attempts, failures, errorRate: attempts === 0 ? 0 : failures / attempts };
  }

  /** The provider's buckets of the window, older ones dropped. */
  private fresh(provider: string, minute: number): Bucket[] {
    const kept = (this.buckets.get(provider) ?? []).filter((b) => b.minute > minute - RECENT_WINDOW_MINUTES);
    this.buckets.set(provider, kept);
    return kept;
  }
}
