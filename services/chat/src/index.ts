import { LanguageDetector } from '@kasa/language-detect';
import { packageVersion, runMain, ServiceRuntime, whenDatabaseAnswers } from '@kasa/service-kit';
import { Redis } from 'ioredis';
import { createApp } from './app';
import { createChatComponents, DB_WRITE_CONCURRENCY, initChatDatabase } from './chatComponents';
import { WriteGate } from './conversations/writeGate';
import { readConfig } from './config';
import { createReplies } from './replies/createReplies';
import { LocalModelEngine } from './providers/local/localModelEngine';
import { LocalModelProvider } from './providers/local/localModelProvider';
import { createLocalModelRouter } from './providers/local/localModelRouter';
import { ModelDownloader } from './providers/local/modelDownloader';

runMain(async () => {
  const config = readConfig();
  const runtime = await ServiceRuntime.create({
    service: 'chat',
    version: packageVersion(__dirname),
    config,
    dbName: config.CHAT_DB_NAME,
  });
  const redis = config.REDIS_URL ? new Redis(config.REDIS_URL, { enableAutoPipelining: true }) : undefined;
  redis?.on('error', (err: Error) => runtime.logger.warn({ err: err.message }, 'redis connection problem'));
  const writes = new WriteGate(DB_WRITE_CONCURRENCY);
  const replies = await createReplies({
    writes,
    db: runtime.db,
    redis,
    maxConcurrentReplies: config.CHAT_MAX_CONCURRENT_REPLIES,
    logger: runtime.logger,
  });
  // The local model: one engine per process (a model loaded once, a few sequences at a time, the rest in line).
  const localEngine = new LocalModelEngine({
    modelsDir: config.CHAT_MODELS_DIR,
    sequences: config.CHAT_LOCAL_SEQUENCES,
    queueLength: config.CHAT_LOCAL_QUEUE_MAX,
    threads: config.CHAT_LOCAL_THREADS,
    maxModelBytes: config.CHAT_LOCAL_MAX_MODEL_BYTES,
    contextTokens: config.CHAT_LOCAL_CONTEXT_TOKENS,
    logger: runtime.logger,
  });
  const modelDownloader = new ModelDownloader({
    modelsDir: config.CHAT_MODELS_DIR,
    maxBytes: config.CHAT_LOCAL_MAX_MODEL_BYTES,
    defaultUrl: config.CHAT_LOCAL_MODEL_URL,
    stallMs: config.CHAT_LOCAL_DOWNLOAD_STALL_MS,
    logger: runtime.logger,
  });
  const chat = createChatComponents({
    db: runtime.db,
    bus: runtime.bus,
    logger: runtime.logger,
    metrics: runtime.metrics,
    settings: config,
    languageDetector: await LanguageDetector.create(),
    replies,
    writes,
    localModels: (settings) => new LocalModelProvider(settings, localEngine),
  });
  // Attachments being read when shutdown starts finish with their requests (HTTP drains first); then the workers stop.
  runtime.onShutdown('attachment workers', () => chat.attachmentProcessor.close());
  runtime.onShutdown('local model', async () => {
    await modelDownloader.cancel();
    await localEngine.close();
  });
  await whenDatabaseAnswers(
    () => Promise.all([chat.personas.seed(), initChatDatabase(runtime.db), chat.providerAdmin.settings.reload(true)]),
    { logger: runtime.logger, what: 'personas, indexes and provider settings' },
  );
  // Operators change the chain in the browser: every replica hears the change (its own broadcast queue) and reloads;
  // the periodic reload catches a change heard by nobody while the broker was away.
  runtime.bus.subscribeBroadcast('chat.providers.changed', () => chat.providerAdmin.settings.reload());
  runtime.every(30_000, 'reload the provider settings', () => chat.providerAdmin.settings.reload());
  runtime.republish(chat.providerAdmin.outbox);
  const chainNames = { providers: chat.chain.describe().map((p) => `${p.name}:${p.model}`) };
  if (chat.chain.list().length) runtime.logger.info(chainNames, 'provider chain ready');
  // Operators learn here (and on the portal's Services tab) what people are only told as "offline mode".
  else
    runtime.logger.warn(
      chainNames,
      'no AI provider configured: answering from the offline knowledge base (an operator connects one at /admin, or set CHAT_PROVIDERS and the provider keys)',
    );
  runtime.logger.info(
    redis ? 'replies shared through Redis' : 'replies kept in this process (set REDIS_URL to run several replicas)',
  );
  // The status page shows each AI provider: its circuit breaker's state travels in every heartbeat.
  runtime.reportInHeartbeat(() =>
    chat.chain.describe().map((p) => ({
      name: `ai:${p.name}`,
      provider: p.name,
      state: p.circuit === 'closed' ? 'operational' : p.circuit === 'half-open' ? 'degraded' : 'down',
    })),
  );
  // A configured local model is loaded now rather than at the first question (a missing file is only logged).
  for (const provider of chat.chain.list())
    if (provider instanceof LocalModelProvider)
      void localEngine
        .warm(provider.modelFor('kasa'))
        .catch((err: unknown) => runtime.logger.warn({ err }, 'the local model could not be loaded yet'));
  const app = createApp({
    ...runtime.appDeps,
    ...chat,
    heartbeatMs: config.CHAT_SSE_HEARTBEAT_MS,
    adminRoutes: [createLocalModelRouter({ downloader: modelDownloader })],
  });
  // A reply whose writer died (a replica crashed mid-stream) stays `streaming`; mark it failed after 10 minutes.
  runtime.every(60_000, 'sweep abandoned replies', () => chat.messages.sweepStale(10 * 60_000));
  // Stored /v1 responses past their 30 days (the embedded database has no TTL index).
  runtime.every(60 * 60_000, 'sweep expired responses', () => chat.responses.sweep());
  await runtime.listen(app, { port: config.CHAT_PORT, host: config.CHAT_HOST });
});
