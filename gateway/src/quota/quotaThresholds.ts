import type { EventData } from '@kasa/contracts';
import type { Logger } from '@kasa/service-kit';

export type QuotaThreshold = 80 | 100;
export type QuotaThresholdReached = EventData<'gateway.quota.threshold_reached'>;

/**
 * The thresholds a month's count reaches with this very call: 80 % of the limit (rounded up) and 100 %. A count is
 * the result of one atomic increment, so exactly one call of the month sees each number (with a limit of 1, the one
 * call sees both).
 */
export function thresholdsReached(count: number, limit: number): QuotaThreshold[] {
  if (limit <= 0) return [];
  const reached: QuotaThreshold[] = [];
  if (count === Math.ceil(limit * 0.8)) reached.push(80);
  if (count === limit) reached.push(100);
  return reached;
}

/** What publishing needs of the event bus (the revocation feed's connection). */
export interface ThresholdPublisher {
  publish(
    type: 'gateway.quota.threshold_reached',
    data: QuotaThresholdReached,
    options: { id: string; requestId?: string },
  ): Promise<unknown>;
}

/**
 * Publishes `gateway.quota.threshold_reached` without ever holding up or failing the request that reached it: the
 * publish runs in the background (while the broker is away the bus sends it after the reconnect), and a failure is a
 * warning. The event id is fixed per subject, month, threshold and limit, so gateways that each count in memory, or
 * a resend, announce a threshold once (consumers skip an id they handled).
 */
export class QuotaThresholdEvents {
  private publisher?: ThresholdPublisher;

  constructor(private readonly logger: Logger) {}

  /** The bus is connected after the policies are built; until then reached thresholds are only logged. */
  attach(publisher: ThresholdPublisher): void {
    this.publisher = publisher;
  }

  reached(data: QuotaThresholdReached, requestId?: string): void {
    const id = `quota-threshold:${data.userId}:${data.period}:${data.threshold}:${data.limit}`;
    if (!this.publisher) {
      this.logger.warn({ threshold: data.threshold, requestId }, 'quota threshold reached before the bus was ready');
      return;
    }
    this.publisher
      .publish('gateway.quota.threshold_reached', data, { id, ...(requestId ? { requestId } : {}) })
      .catch((err: unknown) =>
        this.logger.warn(
          { err: err instanceof Error ? err.message : String(err), threshold: data.threshold, requestId },
          'quota threshold event not published',
        ),
      );
  }
}
