import { runMain, ServiceRuntime } from '@kasa/service-kit';
import { createApp } from './app';
import { readConfig } from './config';
import { createVoiceComponents } from './voiceComponents';

runMain(async () => {
  const config = readConfig();
  const runtime = await ServiceRuntime.create({
    service: 'voice',
    version: '0.1.0',
    config,
    dbName: config.VOICE_DB_NAME,
  });
  const voice = await createVoiceComponents({
    settings: config,
    db: runtime.db,
    bus: runtime.bus,
    logger: runtime.logger,
  });
  runtime.logger.info(
    { engines: voice.chain.describe(), audio: voice.encoders.format, languages: voice.catalogue.list().length },
    'voice ready',
  );
  // Audio expires (no TTL index: FerretDB has none); shutdown stops this timer with the others.
  runtime.every(15 * 60_000, 'delete expired audio', () =>
    voice.store.deleteOlderThan(new Date(Date.now() - voice.audioTtlMs)),
  );
  process.once('exit', () => voice.close());
  await runtime.listen(createApp({ ...runtime.appDeps, ...voice }), {
    port: config.VOICE_PORT,
    host: config.VOICE_HOST,
  });
});
