import { packageVersion, runMain, ServiceRuntime } from '@kasa/service-kit';
import { ADMIN_TIDY_INTERVAL_MS, createAdminComponents, USAGE_LEADERS_INTERVAL_MS } from './admin/adminComponents';
import { createApp } from './app';
import { readConfig } from './config';
import { subscribeStatusEvents } from './events/subscriptions';
import { cleanUp } from './retention';
import { createStatusComponents } from './statusComponents';

runMain(async () => {
  const config = readConfig();
  const runtime = await ServiceRuntime.create({
    service: 'status',
    version: packageVersion(__dirname),
    config,
    dbName: config.STATUS_DB_NAME,
    consumerName: config.STATUS_CONSUMER_NAME,
  });
  const status = await createStatusComponents({ db: runtime.db, settings: config, logger: runtime.logger });
  subscribeStatusEvents(runtime.bus, status.stores, {
    deployment: config.KASA_DEPLOYMENT,
    webhooks: status.webhooks.events,
  });
  runtime.every(config.STATUS_CLEANUP_INTERVAL_MS, 'clean up old status data', () =>
    cleanUp(
      // The runtime's record of handled event ids (its bus skips them), pruned with the rest.
      { ...status.stores, processedEvents: runtime.processedEvents, webhookDeliveries: status.webhooks.deliveries },
      {
        retentionDays: config.STATUS_RETENTION_DAYS,
        rawRetentionDays: config.STATUS_RAW_RETENTION_DAYS,
        logger: runtime.logger,
      },
    ),
  );
  // The status page is served from memory; this keeps it current (a refresh still running is shared, not repeated).
  runtime.every(config.STATUS_SNAPSHOT_INTERVAL_MS, 'refresh the service status snapshot', () =>
    status.servicesStatus.refresh(),
  );

  // The operators' health and usage: the month's top lists and 30 days of uptime, kept up to date off the event path.
  const admin = createAdminComponents({ db: runtime.db, settings: config, status });
  runtime.every(USAGE_LEADERS_INTERVAL_MS, 'update the usage top lists', () => admin.leaders.refresh());
  runtime.every(ADMIN_TIDY_INTERVAL_MS, 'keep 30 days of uptime', () => admin.tidy());

  // Due webhook deliveries (new ones are taken at once too); attempts under way get a moment to finish at shutdown.
  runtime.every(config.WEBHOOKS_POLL_INTERVAL_MS, 'send due webhooks', () => status.webhooks.worker.poll());
  runtime.onShutdown('webhook deliveries', () => status.webhooks.worker.stop(), { immediately: true });

  const app = createApp({
    ...runtime.appDeps,
    services: { auth: config.AUTH_SERVICE_URL, chat: config.CHAT_SERVICE_URL, voice: config.VOICE_SERVICE_URL },
    probeTimeoutMs: config.PROBE_TIMEOUT_MS,
    servicesStatus: status.servicesStatus,
    analytics: status.analytics,
    queryTimeoutMs: config.STATUS_QUERY_TIMEOUT_MS,
    health: status.health,
    admin: admin.routes,
    webhooks: {
      endpoints: status.webhooks.endpoints,
      deliveries: status.webhooks.deliveries,
      allowPrivateNetworks: config.WEBHOOKS_ALLOW_PRIVATE_NETWORKS,
      queryTimeoutMs: config.STATUS_QUERY_TIMEOUT_MS,
      delivered: () => void status.webhooks.worker.poll().catch(() => undefined),
    },
  });
  await runtime.listen(app, { port: config.STATUS_PORT, host: config.STATUS_HOST });
});
