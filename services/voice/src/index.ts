import { runMain, ServiceRuntime } from '@kasa/service-kit';
import { createApp } from './app';
import { readConfig } from './config';

runMain(async () => {
  const config = readConfig();
  const runtime = await ServiceRuntime.create({
    service: 'voice',
    version: '0.1.0',
    config,
    dbName: config.VOICE_DB_NAME,
  });
  await runtime.listen(createApp(runtime.appDeps), { port: config.VOICE_PORT, host: config.VOICE_HOST });
});
