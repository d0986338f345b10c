import { runMain, ServiceRuntime } from '@kasa/service-kit';
import { createApp } from './app';
import { readConfig } from './config';

runMain(async () => {
  const config = readConfig();
  const runtime = await ServiceRuntime.create({
    service: 'status',
    version: '0.1.0',
    config,
    dbName: config.STATUS_DB_NAME,
  });
  const app = createApp({
    ...runtime.appDeps,
    services: { auth: config.AUTH_SERVICE_URL, chat: config.CHAT_SERVICE_URL, voice: config.VOICE_SERVICE_URL },
    probeTimeoutMs: config.PROBE_TIMEOUT_MS,
  });
  await runtime.listen(app, { port: config.STATUS_PORT, host: config.STATUS_HOST });
});
