import { initModels, loadSecretBox, whenDatabaseAnswers, type Logger } from '@kasa/service-kit';
import type { Connection } from 'mongoose';
import { AnalyticsService } from './analytics/analyticsService';
import { ApiKeyOwners } from './apiKeys/apiKeyOwners';
import { ChatActivityStore } from './chatActivity/chatActivityStore';
import type { StatusConfig } from './config';
import { HeartbeatStore } from './heartbeats/heartbeatStore';
import { ServicesStatus } from './health/servicesStatus';
import { DashboardHealth } from './queries/queryLimits';
import { RequestStore } from './requests/requestStore';
import { ensureIndexes, mergeLegacyShards, statusCollections } from './rollups/collections';
import { RollupCache } from './rollups/rollupCache';
import { RollupWriter } from './rollups/rollupWriter';
import { VoiceActivityStore } from './voiceActivity/voiceActivityStore';
import { WebhookDeliveryStore } from './webhooks/deliveryStore';
import { WebhookDeliveryWorker } from './webhooks/deliveryWorker';
import { WebhookEndpointStore } from './webhooks/endpointStore';
import { WebhookEvents } from './webhooks/webhookEvents';

/** The longest a rollup document is held in memory without being written (see RollupCache). */
const ROLLUP_CACHE_TTL_MS = 10 * 60_000;

/** Everything the status service is made of, built once over its database. */
export interface StatusComponents {
  stores: {
    heartbeats: HeartbeatStore;
    requests: RequestStore;
    chat: ChatActivityStore;
    apiKeys: ApiKeyOwners;
    voice: VoiceActivityStore;
  };
  servicesStatus: ServicesStatus;
  analytics: AnalyticsService;
  health: DashboardHealth;
  webhooks: {
    endpoints: WebhookEndpointStore;
    deliveries: WebhookDeliveryStore;
    /** Makes deliveries from the platform's events (subscribed in index.ts). */
    events: WebhookEvents;
    worker: WebhookDeliveryWorker;
  };
}

/**
 * The status service's composition root: the rollup stores (all written through one lane, see RollupWriter), the
 * service status snapshot and the analytics over them. `index.ts` subscribes the stores to the events, schedules the
 * clean-up and the snapshot, and hands the rest to `createApp`.
 */
export async function createStatusComponents(deps: {
  db: Connection;
  settings: StatusConfig;
  logger: Logger;
}): Promise<StatusComponents> {
  const { db, settings, logger } = deps;
  const collections = statusCollections(db);
  // Before anything reads or writes a per-person rollup (and before index.ts subscribes to events).
  const moved = await whenDatabaseAnswers(() => mergeLegacyShards(db.db!), { logger, what: 'rollup shards' });
  if (moved > 0) logger.info({ moved }, 'moved rollup documents from the shards of an earlier release');
  const cache =
    settings.STATUS_ROLLUP_CACHE_MB > 0
      ? new RollupCache({ maxBytes: settings.STATUS_ROLLUP_CACHE_MB * 1024 * 1024, ttlMs: ROLLUP_CACHE_TTL_MS })
      : undefined;
  const writer = new RollupWriter({ cache });
  const stores = {
    heartbeats: new HeartbeatStore(db, writer),
    requests: new RequestStore(collections, writer, cache),
    chat: new ChatActivityStore(collections, writer, cache),
    apiKeys: new ApiKeyOwners(collections.apiKeyOwners),
    voice: new VoiceActivityStore(collections, writer),
  };
  const webhooks = createWebhooks(db, settings, logger);
  await whenDatabaseAnswers(() => Promise.all([initModels(...Object.values(db.models)), ensureIndexes(collections)]), {
    logger,
    what: 'indexes',
  });
  const health = new DashboardHealth();
  const servicesStatus = new ServicesStatus({
    heartbeats: stores.heartbeats,
    requests: stores.requests,
    probeUrls: {
      gateway: settings.GATEWAY_ADMIN_URL,
      auth: settings.AUTH_SERVICE_URL,
      chat: settings.CHAT_SERVICE_URL,
      voice: settings.VOICE_SERVICE_URL,
    },
    probeTimeoutMs: settings.PROBE_TIMEOUT_MS,
    heartbeatIntervalMs: settings.HEARTBEAT_INTERVAL_MS,
    errorRateDegradedPercent: settings.ERROR_RATE_DEGRADED_PERCENT,
    errorRateMinRequests: settings.ERROR_RATE_MIN_REQUESTS,
    queryTimeoutMs: settings.STATUS_QUERY_TIMEOUT_MS,
    health,
  });
  const analytics = new AnalyticsService({
    requests: stores.requests,
    chat: stores.chat,
    keys: stores.apiKeys,
    monthlyCalls: {
      free: settings.PLAN_FREE_MONTHLY_CALLS,
      pro: settings.PLAN_PRO_MONTHLY_CALLS,
      enterprise: settings.PLAN_ENTERPRISE_MONTHLY_CALLS,
    },
  });
  return { stores, servicesStatus, analytics, health, webhooks };
}

/**
 * Developer webhooks: endpoints with sealed signing secrets (STATUS_SECRETS_KEY, or outside production a key kept in
 * STATUS_KEYS_DIR; in production without the key, none can be registered), the deliveries, the worker that sends
 * them and the event handlers that make them.
 */
function createWebhooks(db: Connection, settings: StatusConfig, logger: Logger): StatusComponents['webhooks'] {
  const box = loadSecretBox({
    key: settings.STATUS_SECRETS_KEY,
    keysDir: settings.STATUS_KEYS_DIR,
    production: settings.NODE_ENV === 'production',
  });
  if (!box) logger.warn('STATUS_SECRETS_KEY is not set: webhook endpoints cannot be registered');
  const endpoints = new WebhookEndpointStore(db, box);
  const deliveries = new WebhookDeliveryStore(db);
  const worker = new WebhookDeliveryWorker({
    endpoints,
    deliveries,
    schedule: settings.WEBHOOKS_RETRY_SCHEDULE,
    allowPrivateNetworks: settings.WEBHOOKS_ALLOW_PRIVATE_NETWORKS,
    concurrency: settings.WEBHOOKS_CONCURRENCY,
    queryTimeoutMs: settings.STATUS_QUERY_TIMEOUT_MS,
    logger: logger.child({ part: 'webhooks' }),
  });
  const events = new WebhookEvents({
    endpoints,
    deliveries,
    queryTimeoutMs: settings.STATUS_QUERY_TIMEOUT_MS,
    delivered: () => void worker.poll().catch(() => undefined),
  });
  return { endpoints, deliveries, events, worker };
}
