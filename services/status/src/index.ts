import { createMongoProcessedEventStore, runMain, ServiceRuntime } from '@kasa/service-kit';
import { AnalyticsService } from './analytics/analyticsService';
import { KeyOwnership } from './analytics/keyOwnership';
import { createApp } from './app';
import { ChatActivityStore } from './chatActivity/chatActivityStore';
import { readConfig } from './config';
import { subscribeStatusEvents } from './events/subscriptions';
import { HeartbeatStore } from './heartbeats/heartbeatStore';
import { ServicesStatus } from './health/servicesStatus';
import { DashboardHealth } from './queries/queryLimits';
import { RequestStore } from './requests/requestStore';
import { cleanUp } from './retention';
import { ensureIndexes, statusCollections } from './rollups/collections';
import { RollupWriter } from './rollups/rollupWriter';

runMain(async () => {
  const config = readConfig();
  const runtime = await ServiceRuntime.create({
    service: 'status',
    version: '0.1.0',
    config,
    dbName: config.STATUS_DB_NAME,
    consumerName: config.STATUS_CONSUMER_NAME,
  });
  const collections = statusCollections(runtime.db);
  const writer = new RollupWriter();
  const stores = {
    heartbeats: new HeartbeatStore(runtime.db, writer),
    requests: new RequestStore(collections, writer),
    chat: new ChatActivityStore(collections, writer),
  };
  await Promise.all([...Object.values(runtime.db.models).map((model) => model.init()), ensureIndexes(collections)]);
  subscribeStatusEvents(runtime.bus, stores, { deployment: config.KASA_DEPLOYMENT });

  const health = new DashboardHealth();
  const servicesStatus = new ServicesStatus({
    heartbeats: stores.heartbeats,
    requests: stores.requests,
    probeUrls: {
      gateway: config.GATEWAY_ADMIN_URL,
      auth: config.AUTH_SERVICE_URL,
      chat: config.CHAT_SERVICE_URL,
      voice: config.VOICE_SERVICE_URL,
    },
    voiceUrl: config.VOICE_SERVICE_URL,
    probeTimeoutMs: config.PROBE_TIMEOUT_MS,
    heartbeatIntervalMs: config.HEARTBEAT_INTERVAL_MS,
    errorRateDegradedPercent: config.ERROR_RATE_DEGRADED_PERCENT,
    errorRateMinRequests: config.ERROR_RATE_MIN_REQUESTS,
    queryTimeoutMs: config.STATUS_QUERY_TIMEOUT_MS,
    health,
  });
  const analytics = new AnalyticsService({
    requests: stores.requests,
    chat: stores.chat,
    keys: new KeyOwnership({ authServiceUrl: config.AUTH_SERVICE_URL, timeoutMs: config.PROBE_TIMEOUT_MS }),
    monthlyCalls: {
      free: config.PLAN_FREE_MONTHLY_CALLS,
      pro: config.PLAN_PRO_MONTHLY_CALLS,
      enterprise: config.PLAN_ENTERPRISE_MONTHLY_CALLS,
    },
  });
  const processedEvents = createMongoProcessedEventStore(runtime.db);
  runtime.every(config.STATUS_CLEANUP_INTERVAL_MS, 'clean up old status data', () =>
    cleanUp(
      { ...stores, processedEvents },
      {
        retentionDays: config.STATUS_RETENTION_DAYS,
        rawRetentionDays: config.STATUS_RAW_RETENTION_DAYS,
        logger: runtime.logger,
      },
    ),
  );
  // The status page is served from memory; this keeps it current (a refresh still running is shared, not repeated).
  runtime.every(config.STATUS_SNAPSHOT_INTERVAL_MS, 'refresh the service status snapshot', () =>
    servicesStatus.refresh(),
  );

  const app = createApp({
    ...runtime.appDeps,
    services: { auth: config.AUTH_SERVICE_URL, chat: config.CHAT_SERVICE_URL, voice: config.VOICE_SERVICE_URL },
    probeTimeoutMs: config.PROBE_TIMEOUT_MS,
    servicesStatus,
    analytics,
    queryTimeoutMs: config.STATUS_QUERY_TIMEOUT_MS,
    health,
  });
  await runtime.listen(app, { port: config.STATUS_PORT, host: config.STATUS_HOST });
});
