import { WEBHOOK_LIMITS } from '@kasa/contracts';
import type { Logger } from '@kasa/service-kit';
import type { ChatActivityStore } from './chatActivity/chatActivityStore';
import type { HeartbeatStore } from './heartbeats/heartbeatStore';
import type { RequestStore } from './requests/requestStore';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** How long each grain is kept (the day grain and raw records by configuration). */
export const RETENTION = {
  /** Service minute buckets: the error rate looks back 6 minutes. */
  minutesMs: 2 * HOUR_MS,
  /** Service hour buckets and heartbeat hours: the status page looks back 24 hours. */
  hoursMs: 2 * DAY_MS,
  /** Handled event ids: longer than any redelivery takes. */
  eventIdsMs: 7 * DAY_MS,
  /** The time limit of one clean-up deletion. */
  cleanUpQueryMs: 60_000,
} as const;

/**
 * One clean-up pass (the embedded database has no TTL indexes): month documents of day buckets once all their days
 * are older than `retentionDays`, service minute buckets after 2 hours, service hour buckets, heartbeat counts and
 * silent processes after 2 days, raw records (counted batch, message and session ids) after `rawRetentionDays`,
 * handled event ids after a week, webhook deliveries after WEBHOOK_LIMITS.deliveryRetentionDays (30).
 */
export async function cleanUp(
  stores: {
    requests: RequestStore;
    chat: ChatActivityStore;
    heartbeats: HeartbeatStore;
    processedEvents: { prune(olderThan: Date): Promise<number> };
    webhookDeliveries?: { deleteOlderThan(before: Date, limits: { maxTimeMS: number }): Promise<number> };
  },
  options: { retentionDays: number; rawRetentionDays: number; logger: Logger; now?: Date },
): Promise<void> {
  const now = (options.now ?? new Date()).getTime();
  const rawBefore = new Date(now - options.rawRetentionDays * DAY_MS);
  const [rollups, markers, heartbeats, events, webhookDeliveries] = await Promise.all([
    stores.requests.deleteOlderThan({
      daysBefore: new Date(now - options.retentionDays * DAY_MS),
      minutesBefore: new Date(now - RETENTION.minutesMs),
      hoursBefore: new Date(now - RETENTION.hoursMs),
      rawBefore,
    }),
    stores.chat.deleteOlderThan(rawBefore),
    stores.heartbeats.deleteOlderThan(new Date(now - RETENTION.hoursMs)),
    stores.processedEvents.prune(new Date(now - RETENTION.eventIdsMs)),
    stores.webhookDeliveries?.deleteOlderThan(new Date(now - WEBHOOK_LIMITS.deliveryRetentionDays * DAY_MS), {
      maxTimeMS: RETENTION.cleanUpQueryMs,
    }) ?? 0,
  ]);
  options.logger.info({ ...rollups, markers, heartbeats, events, webhookDeliveries }, 'old status data deleted');
}
