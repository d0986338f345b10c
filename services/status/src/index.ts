import { packageVersion, runMain, ServiceRuntime } from '@kasa/service-kit';
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
  subscribeStatusEvents(runtime.bus, status.stores, { deployment: config.KASA_DEPLOYMENT });
  runtime.every(config.STATUS_CLEANUP_INTERVAL_MS, 'clean up old status data', () =>
    cleanUp(
      // The runtime's record of handled event ids (its bus skips them), pruned with the rest.
      { ...status.stores, processedEvents: runtime.processedEvents },
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

  const app = createApp({
    ...runtime.appDeps,
    services: { auth: config.AUTH_SERVICE_URL, chat: config.CHAT_SERVICE_URL, voice: config.VOICE_SERVICE_URL },
    probeTimeoutMs: config.PROBE_TIMEOUT_MS,
    servicesStatus: status.servicesStatus,
    analytics: status.analytics,
    queryTimeoutMs: config.STATUS_QUERY_TIMEOUT_MS,
    health: status.health,
  });
  await runtime.listen(app, { port: config.STATUS_PORT, host: config.STATUS_HOST });
});
