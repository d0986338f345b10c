import type { KasaEvent, WebhookDeliveryEventType, WebhookEventType, WebhookMessageData } from '@kasa/contracts';
import type { ReadLimits } from '../queries/queryLimits';
import type { WebhookDeliveryStore } from './deliveryStore';
import type { WebhookEndpointStore } from './endpointStore';

/** The body of a message, as every attempt sends it: `{ type, timestamp, data }`. */
export function messageBody<T extends WebhookDeliveryEventType>(
  type: T,
  timestamp: string,
  data: WebhookMessageData<T>,
): string {
  return JSON.stringify({ type, timestamp, data });
}

/**
 * Turns the platform's events into webhook deliveries: for the event's owner, one pending delivery per enabled
 * endpoint subscribed to its type (an event heard twice makes no second one: see WebhookDeliveryStore.enqueue).
 * Nothing is sent here; the worker sends, so a slow endpoint never holds up the event (`delivered()` wakes it).
 *
 * - `voice.video.completed` → `video.completed` or `video.failed` `{ jobId, status }`
 * - `auth.user.plan_changed` → `plan.changed` `{ from, to }`
 * - `auth.apikey.revoked` → `key.revoked` `{ keyId, prefix }`
 * - `gateway.quota.threshold_reached` → `quota.threshold_reached` `{ threshold, used, limit, period }`
 */
export class WebhookEvents {
  private readonly limits: ReadLimits;

  constructor(
    private readonly deps: {
      endpoints: WebhookEndpointStore;
      deliveries: WebhookDeliveryStore;
      queryTimeoutMs: number;
      /** Called once deliveries were made (the worker takes them at once). */
      delivered?: () => void;
    },
  ) {
    this.limits = { maxTimeMS: deps.queryTimeoutMs };
  }

  video(event: KasaEvent<'voice.video.completed'>): Promise<void> {
    const { jobId, status, userId } = event.data;
    const type = status === 'succeeded' ? 'video.completed' : 'video.failed';
    return this.deliver(userId, type, event, { jobId, status });
  }

  planChanged(event: KasaEvent<'auth.user.plan_changed'>): Promise<void> {
    const { userId, from, to } = event.data;
    return this.deliver(userId, 'plan.changed', event, { from, to });
  }

  keyRevoked(event: KasaEvent<'auth.apikey.revoked'>): Promise<void> {
    const { userId, keyId, prefix } = event.data;
    return this.deliver(userId, 'key.revoked', event, { keyId, prefix });
  }

  quotaThreshold(event: KasaEvent<'gateway.quota.threshold_reached'>): Promise<void> {
    const { userId, threshold, used, limit, period } = event.data;
    return this.deliver(userId, 'quota.threshold_reached', event, { threshold, used, limit, period });
  }

  private async deliver<T extends WebhookEventType>(
    userId: string,
    type: T,
    event: Pick<KasaEvent, 'id' | 'time'>,
    data: WebhookMessageData<T>,
  ): Promise<void> {
    const endpointIds = await this.deps.endpoints.subscribers(userId, type, this.limits);
    if (endpointIds.length === 0) return;
    const body = messageBody(type, event.time, data);
    await Promise.all(
      endpointIds.map((endpointId) =>
        this.deps.deliveries.enqueue({ endpointId, userId, eventId: event.id, eventType: type, body }, this.limits),
      ),
    );
    this.deps.delivered?.();
  }
}
