import type { EventBus } from '@kasa/service-kit';
import type { ApiKeyOwners } from '../apiKeys/apiKeyOwners';
import type { ChatActivityStore } from '../chatActivity/chatActivityStore';
import type { HeartbeatStore } from '../heartbeats/heartbeatStore';
import type { RequestStore } from '../requests/requestStore';
import type { VoiceActivityStore } from '../voiceActivity/voiceActivityStore';
import type { WebhookEvents } from '../webhooks/webhookEvents';

/**
 * What the status service listens to on its durable queue `kasa.status`. The bus validates each event against its
 * contract and skips event ids it has already handled; the stores are idempotent as well (a gateway batch counts once
 per event id, a chat message or session once per id, an API key's owner by the key's id, speech once per event id,
 * a video once per job).
 * Heartbeats and request batches count only when their `deployment` is this service's KASA_DEPLOYMENT (both unset
 * in production).
 * With `webhooks`, the events developers can subscribe to also make webhook deliveries (a pending delivery per
 * subscribed endpoint; the worker sends them, never the handler).
 */
export function subscribeStatusEvents(
  bus: EventBus,
  stores: {
    heartbeats: HeartbeatStore;
    requests: RequestStore;
    chat: ChatActivityStore;
    apiKeys: ApiKeyOwners;
    voice: VoiceActivityStore;
  },
  options: { deployment?: string; webhooks?: WebhookEvents } = {},
): void {
  const { webhooks } = options;
  // Heartbeats and request batches of another deployment on the same broker are not this platform's health.
  const ours = (data: { deployment?: string }) => data.deployment === options.deployment;
  bus
    .subscribe('service.heartbeat', async (event) => {
      if (ours(event.data)) await stores.heartbeats.record(event.data);
    })
    .subscribe('gateway.request.completed', async (event) => {
      if (ours(event.data)) await stores.requests.storeBatch(event.id, event.data);
    })
    .subscribe('chat.session.created', (event) => stores.chat.recordSession(event.data, event.time))
    .subscribe('chat.message.created', (event) => stores.chat.recordMessage(event.data, event.time))
    // Whose each API key is, for the usage of one key (see ApiKeyOwners): never asked of auth.
    .subscribe('auth.apikey.created', (event) => stores.apiKeys.recordCreated(event.data))
    .subscribe('auth.apikey.revoked', async (event) => {
      await Promise.all([stores.apiKeys.recordRevoked(event.data, event.time), webhooks?.keyRevoked(event)]);
    })
    // Voice usage on the person's day (see VoiceActivityStore).
    .subscribe('voice.speech.synthesized', (event) => stores.voice.recordSpeech(event.id, event.data, event.time))
    .subscribe('voice.video.completed', async (event) => {
      await Promise.all([stores.voice.recordVideo(event.data, event.time), webhooks?.video(event)]);
    });
  if (webhooks) {
    bus
      .subscribe('auth.user.plan_changed', (event) => webhooks.planChanged(event))
      .subscribe('gateway.quota.threshold_reached', (event) => webhooks.quotaThreshold(event));
  }
}
