import type { Logger } from '@kasa/service-kit';
import type { ChatActivityStore } from './chatActivity/chatActivityStore';
import type { HeartbeatStore } from './heartbeats/heartbeatStore';
import type { RequestStore } from './requests/requestStore';

const DAY_MS = 86_400_000;

/**
 * One clean-up pass (the embedded database has no TTL indexes): gateway requests and chat messages older than
 * `retentionDays`, processes silent and heartbeat counts older than two days (uptime looks back one), handled event
 * ids older than a week (longer than any redelivery takes).
 */
export async function cleanUp(
  stores: {
    requests: RequestStore;
    chat: ChatActivityStore;
    heartbeats: HeartbeatStore;
    processedEvents: { prune(olderThan: Date): Promise<number> };
  },
  options: { retentionDays: number; logger: Logger; now?: Date },
): Promise<void> {
  const now = (options.now ?? new Date()).getTime();
  const [requests, messages, heartbeats, events] = await Promise.all([
    stores.requests.deleteOlderThan(new Date(now - options.retentionDays * DAY_MS)),
    stores.chat.deleteOlderThan(new Date(now - options.retentionDays * DAY_MS)),
    stores.heartbeats.deleteOlderThan(new Date(now - 2 * DAY_MS)),
    stores.processedEvents.prune(new Date(now - 7 * DAY_MS)),
  ]);
  options.logger.info({ requests, messages, heartbeats, events }, 'old status data deleted');
}
