import { packageVersion, runMain, ServiceRuntime } from '@kasa/service-kit';
import { BrowserProviders } from './aiProviders/browserProviders';
import { createApp } from './app';
import { readConfig } from './config';
import { createVideoComponents } from './video/videoComponents';
import { createVoiceComponents } from './voiceComponents';
import { heartbeatParts, voiceStatus } from './voiceStatus';

runMain(async () => {
  const config = readConfig();
  const runtime = await ServiceRuntime.create({
    service: 'voice',
    version: packageVersion(__dirname),
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
  runtime.onShutdown('speech engines', async () => voice.close());
  // Translation and speech to text also use the AI providers operators add in the browser (chat's list): fetched in
  // the background (readiness does not wait), on every change heard, and every minute as a backstop.
  const browserProviders = new BrowserProviders({
    chatServiceUrl: config.CHAT_SERVICE_URL,
    logger: runtime.logger,
    apply: (providers, version) => voice.useBrowserProviders(providers, version),
  })
    .listen(runtime.bus)
    .start();
  runtime.onShutdown('AI providers of the browser', async () => browserProviders.stop(), { immediately: true });
  // The status page shows each speech engine, transcription and translation: their state travels in every heartbeat.
  runtime.reportInHeartbeat(() => heartbeatParts(voiceStatus(voice)));

  const video = await createVideoComponents({
    settings: config,
    db: runtime.db,
    bus: runtime.bus,
    logger: runtime.logger,
    chain: voice.chain,
    ffmpeg: voice.ffmpeg,
    catalogue: voice.catalogue,
    detector: voice.detector,
    workerId: runtime.instanceId,
    pool: voice.pool,
    limits: voice.limits,
  });
  runtime.logger.info(
    {
      worker: config.VOICE_VIDEO_WORKER,
      renderer: video.offline.available ? 'offline' : 'unavailable',
      ffmpeg: video.offline.ffmpegSource,
      captions: video.offline.captions,
    },
    'video generation ready',
  );
  video.start({ consume: config.VOICE_VIDEO_WORKER });
  // Once at start (jobs a dead instance left running go back to the queue), then every minute.
  const sweep = () => video.sweeper.sweep();
  setTimeout(
    () => void sweep().catch((err: unknown) => runtime.logger.warn({ err }, 'video sweep failed')),
    2_000,
  ).unref();
  runtime.every(60_000, 'video sweep', sweep);
  // Finished jobs' `voice.video.completed` the broker did not confirm in time: published again (same ids).
  runtime.republish(video.completedEvents, 30_000);
  // On shutdown, stop taking jobs at once: the video being made goes back to the queue for another instance.
  runtime.onShutdown('video worker', () => video.close(), { immediately: true });

  const readiness = { ...runtime.appDeps.readiness, videoQueue: () => video.queue.isConnected() };
  await runtime.listen(createApp({ ...runtime.appDeps, readiness, ...voice, video }), {
    port: config.VOICE_PORT,
    host: config.VOICE_HOST,
  });
});
