import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createSpanRecorder, packageVersion, ServiceMetrics, type Logger } from '@kasa/service-kit';
import { ApiKeyVerifier } from './auth/apiKeyVerifier';
import { createJwtPolicy } from './auth/jwtPolicy';
import { startRevocationFeed, type RevocationFeed } from './auth/revocationFeed';
import { RevocationList } from './auth/revocationList';
import { SuspendedPeople } from './auth/suspendedPeople';
import { TokenVerifier } from './auth/tokenVerifier';
import type { GatewayConfig } from './config';
import { egRequire, runExpressGateway } from './eg/expressGateway';
import { startGatewayHeartbeat } from './events/gatewayHeartbeat';
import { RequestEventBuffer, type CompletedRequest } from './events/requestEventBuffer';
import { jsonErrorHandler } from './errorHandlerMiddleware';
import { routeEgLogsThroughPino } from './eg/logging';
import { adoptExpressPrototypes, stableEgContexts } from './eg/performance';
import { providePolicies } from './eg/runtime';
import type { EgPolicy } from './eg/types';
import { createIdempotencyPolicy } from './idempotency/idempotencyPolicy';
import { MemoryIdempotencyStore, type IdempotencyStore } from './idempotency/idempotencyStore';
import { RedisIdempotencyStore, type IdempotencyRedis } from './idempotency/redisIdempotencyStore';
import { startAdminServer, type AdminServer } from './metrics/adminServer';
import { createMetricsPolicy } from './metrics/metricsPolicy';
import { createProxyPolicy } from './proxy/proxyPolicy';
import { MemoryQuotaCounter, RedisQuotaCounter, type QuotaCounter, type ScriptingRedis } from './quota/quotaCounter';
import { createQuotaPolicy, extraCallsKey, extraCallsTtlMs } from './quota/quotaPolicy';
import { QuotaThresholdEvents } from './quota/quotaThresholds';
import { Upstreams } from './proxy/upstreams';
import { createRateLimitPolicy } from './rateLimit/rateLimitPolicy';
import { requestIdPolicy } from './requestId/requestIdPolicy';
import { createOpenApiPolicy } from './web/openApiPolicy';
import { notFoundPolicy } from './web/notFoundPolicy';
import { createStaticPolicy } from './web/staticPolicy';

/** gateway/config: gateway.config.yml, system.config.yml and the models EG insists on (from src/ and dist/ alike). */
export const DEFAULT_CONFIG_DIR = path.resolve(__dirname, '..', 'config');

/** Per-address counters kept in memory at most (about 30 MB); beyond it the oldest windows are forgotten. */
const MAX_TRACKED_ADDRESS_WINDOWS = 200_000;

/**
 * Idempotency keys kept in memory at most (without REDIS_URL): 10,000 keys and 64 MB of recorded answers; beyond
 * either, the least recently used keys are forgotten.
 */
const MEMORY_IDEMPOTENCY_LIMITS = { maxEntries: 10_000, maxBytes: 64 * 1024 * 1024 };

/** The gateway's release (its package.json), in its heartbeat and spans. */
const GATEWAY_VERSION = packageVersion(__dirname);

/** The issuer and audience the auth service puts in every access token. */
export const TOKEN_ISSUER = 'kasa-auth';
export const TOKEN_AUDIENCE = 'kasa';

export interface RunningGateway {
  /** The public port (useful when GATEWAY_PORT=0 picked a free one). */
  port: number;
  adminPort: number;
  server: Server;
  revocations: RevocationList;
  /** Whether the token-revocation feed is connected to RabbitMQ. */
  revocationFeedConnected(): boolean;
  /** Drains in-flight requests (up to SHUTDOWN_TIMEOUT_MS), then closes connections, pools and the broker link. */
  stop(): Promise<void>;
}

/**
 * Publishes the validated settings under the variable names that gateway.config.yml and system.config.yml template
 * (`${GATEWAY_PORT:-8080}`...), so EG reads the same values as the zod schema (defaults applied, lists normalised),
 * plus the few that only the gateway derives (the plugin's path, the Redis settings from REDIS_URL).
 */
function publishConfigToEnv(config: GatewayConfig): void {
  const env = process.env;
  env.GATEWAY_PORT = String(config.GATEWAY_PORT);
  env.GATEWAY_HOST = config.GATEWAY_HOST;
  env.AUTH_SERVICE_URL = config.AUTH_SERVICE_URL;
  env.CHAT_SERVICE_URL = config.CHAT_SERVICE_URL;
  env.VOICE_SERVICE_URL = config.VOICE_SERVICE_URL;
  env.STATUS_SERVICE_URL = config.STATUS_SERVICE_URL;
  env.WEB_ORIGIN = config.WEB_ORIGIN.join(',');
  // The CORS policy needs a list; JSON is a YAML flow sequence, and keeps the file valid YAML before templating.
  env.KASA_CORS_ORIGINS = JSON.stringify(config.WEB_ORIGIN);
  env.AUTH_RATE_LIMIT_MAX = String(config.AUTH_RATE_LIMIT_MAX);
  env.AUTH_RATE_LIMIT_WINDOW_MS = String(config.AUTH_RATE_LIMIT_WINDOW_MS);
  env.PUBLIC_RATE_LIMIT_MAX = String(config.PUBLIC_RATE_LIMIT_MAX);
  env.PUBLIC_RATE_LIMIT_WINDOW_MS = String(config.PUBLIC_RATE_LIMIT_WINDOW_MS);
  env.ANONYMOUS_SYNTHESIS_RATE_LIMIT_MAX = String(config.ANONYMOUS_SYNTHESIS_RATE_LIMIT_MAX);
  env.ANONYMOUS_SYNTHESIS_RATE_LIMIT_WINDOW_MS = String(config.ANONYMOUS_SYNTHESIS_RATE_LIMIT_WINDOW_MS);
  // JSON: a YAML double-quoted string, whatever characters the path holds.
  env.KASA_GATEWAY_PLUGIN = JSON.stringify(require.resolve('./eg/plugin'));

  const redis = config.REDIS_URL ? new URL(config.REDIS_URL) : undefined;
  env.KASA_REDIS_EMULATE = redis ? 'false' : 'true';
  env.KASA_REDIS_HOST = redis?.hostname || '127.0.0.1';
  env.KASA_REDIS_PORT = redis?.port || '6379';
  env.KASA_REDIS_DB = redis?.pathname.replace('/', '') || '0';
  // An empty value becomes YAML null: no password.
  env.KASA_REDIS_PASSWORD = redis?.password ? decodeURIComponent(redis.password) : '';
  env.KASA_REDIS_USERNAME = redis?.username ? decodeURIComponent(redis.username) : '';

  // EG would otherwise watch its config files and hot-reload them, re-running plugin init (one gateway per process).
  env.EG_DISABLE_CONFIG_WATCH ??= 'true';
}

/**
 * Wires the gateway together and starts it: the policies and what they share (token verifier, revocation list,
 * upstream pools, metrics), express-gateway with Kasa's plugin on the public port, the admin port, and the
 * revocation feed. Neither the auth service nor RabbitMQ needs to be up: the gateway serves and keeps retrying.
 */
export async function startGateway(
  config: GatewayConfig,
  options: { logger: Logger; configDir?: string },
): Promise<RunningGateway> {
  const { logger } = options;
  publishConfigToEnv(config);
  routeEgLogsThroughPino(logger, config.LOG_LEVEL);
  stableEgContexts(logger);

  const metrics = new ServiceMetrics('gateway');
  const spans = createSpanRecorder({
    service: 'gateway',
    version: GATEWAY_VERSION,
    endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
  });
  const revocations = new RevocationList().startPruning();
  const verifier = new TokenVerifier({
    jwksUri: `${config.AUTH_SERVICE_URL}/.well-known/jwks.json`,
    issuer: TOKEN_ISSUER,
    audience: TOKEN_AUDIENCE,
    logger,
  });
  const apiKeys = new ApiKeyVerifier({
    authServiceUrl: config.AUTH_SERVICE_URL,
    logger,
    ttlMs: config.API_KEY_CACHE_TTL_MS,
  });
  const suspended = new SuspendedPeople();
  // With REDIS_URL the counters live in Redis (EG's connection, so one per instance) and every instance shares them.
  const quotaCounter: QuotaCounter = config.REDIS_URL
    ? new RedisQuotaCounter(() => egRequire<ScriptingRedis>('db'))
    : new MemoryQuotaCounter();
  // The per-address limits count the same way, in Redis or in a map of their own: client addresses are not bounded
  // like accounts are, so that map is (and the month's quota counters must never be evicted to make room).
  const rateLimitCounter: QuotaCounter = config.REDIS_URL
    ? quotaCounter
    : new MemoryQuotaCounter(Date.now, { maxEntries: MAX_TRACKED_ADDRESS_WINDOWS });
  // Idempotency keys: in Redis (EG's connection) and shared by every instance, or in a bounded LRU of this process.
  const idempotencyStore: IdempotencyStore = config.REDIS_URL
    ? new RedisIdempotencyStore(() => egRequire<IdempotencyRedis>('db'))
    : new MemoryIdempotencyStore(MEMORY_IDEMPOTENCY_LIMITS);
  const upstreams = new Upstreams({
    connectTimeoutMs: config.UPSTREAM_CONNECT_TIMEOUT_MS,
    headersTimeoutMs: config.UPSTREAM_TIMEOUT_MS,
  });

  // Answered requests wait here for the revocation feed's connection (made below), then go out in batches. The
  // metrics policy must be built before EG starts and the feed after, hence a binding that is filled in later.
  // eslint-disable-next-line prefer-const
  let requestEvents: RequestEventBuffer | undefined;
  const recordRequest = (request: CompletedRequest) => requestEvents?.record(request);
  // Quota thresholds (80 %, 100 %) go out on the same connection, attached once it is made.
  const quotaThresholds = new QuotaThresholdEvents(logger);

  const policies: EgPolicy<never>[] = [
    requestIdPolicy,
    createMetricsPolicy(metrics, logger, recordRequest, spans),
    // EG's data store reads system.config.yml when first required: only once EG has loaded it.
    createRateLimitPolicy({ getCounter: () => rateLimitCounter, logger }),
    createJwtPolicy({ verifier, revocations, apiKeys, suspended }),
    createQuotaPolicy({
      getCounter: () => quotaCounter,
      limits: {
        monthly: {
          free: config.PLAN_FREE_MONTHLY_CALLS,
          pro: config.PLAN_PRO_MONTHLY_CALLS,
          enterprise: config.PLAN_ENTERPRISE_MONTHLY_CALLS,
        },
        perMinute: config.API_RATE_LIMIT_PER_MINUTE,
      },
      logger,
      onThresholdReached: (reached, requestId) => quotaThresholds.reached(reached, requestId),
    }),
    createIdempotencyPolicy({
      getStore: () => idempotencyStore,
      logger,
      maxBodyBytes: config.GATEWAY_MAX_BODY_BYTES,
      options: { waitMs: config.IDEMPOTENCY_WAIT_MS },
    }),
    createProxyPolicy({
      upstreams,
      logger,
      maxBodyBytes: config.GATEWAY_MAX_BODY_BYTES,
      headersTimeoutMs: config.UPSTREAM_TIMEOUT_MS,
    }),
    createOpenApiPolicy(),
    notFoundPolicy,
    createStaticPolicy({ webDistDir: config.WEB_DIST_DIR }),
  ] as EgPolicy<never>[];
  providePolicies(policies);

  const server = await runExpressGateway(options.configDir ?? DEFAULT_CONFIG_DIR);
  adoptExpressPrototypes(server, logger);
  const app = server.listeners('request')[0] as
    { set?: (name: string, value: unknown) => void; use?: (handler: unknown) => void } | undefined;
  app?.set?.('trust proxy', config.GATEWAY_TRUST_PROXY);
  // Express announces itself on every answer unless told not to; attackers need not know what serves Kasa.
  app?.set?.('x-powered-by', false);
  // Appended after EG's pipelines, so it sees what they pass on with next(err).
  app?.use?.(jsonErrorHandler(logger));
  // Streams (Server-Sent Events) stay open for minutes: no request timeout; idle keep-alive sockets live 65 s
  // (longer than a typical load balancer's 60 s, so the balancer closes first and never reuses a closed socket).
  server.requestTimeout = 0;
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  const port = (server.address() as AddressInfo).port;

  verifier.warmUp();
  const feed: RevocationFeed = startRevocationFeed({
    amqpUrl: config.AMQP_URL,
    logger,
    revocations,
    apiKeys,
    suspended,
    // Extra calls bought (add-on packs) raise the person's month at once: in Redis when shared, else in each
    // instance's memory (every instance hears the event on its own broadcast queue).
    onCallsAdded: ({ userId, month, monthCalls }) =>
      quotaCounter.raise(extraCallsKey(userId, month), monthCalls, extraCallsTtlMs(month, Date.now())),
  });
  quotaThresholds.attach(feed);
  // Auth's list of suspended accounts, at start and every SUSPENSIONS_REFRESH_MS: events missed while the broker was
  // away are caught up with (a newly found suspension drops the person's cached keys too).
  suspended.startRefreshing({
    authServiceUrl: config.AUTH_SERVICE_URL,
    refreshMs: config.SUSPENSIONS_REFRESH_MS,
    logger,
    onSuspended: (userId) => apiKeys.evictUser(userId),
  });
  requestEvents = new RequestEventBuffer({
    publisher: feed,
    logger,
    registry: metrics.registry,
    flushIntervalMs: config.REQUEST_EVENTS_FLUSH_MS,
    maxBuffered: config.REQUEST_EVENTS_MAX_BUFFERED,
    deployment: config.KASA_DEPLOYMENT,
  });

  let shuttingDown = false;
  const stopHeartbeat = startGatewayHeartbeat({
    publisher: feed,
    intervalMs: config.HEARTBEAT_INTERVAL_MS,
    version: GATEWAY_VERSION,
    deployment: config.KASA_DEPLOYMENT,
    checks: async () => ({ jwks: await verifier.isReady(), broker: feed.isConnected() }),
    isShuttingDown: () => shuttingDown,
    logger,
  });
  let admin: AdminServer;
  try {
    admin = await startAdminServer({
      port: config.GATEWAY_ADMIN_PORT,
      host: config.GATEWAY_ADMIN_HOST,
      metrics,
      checks: { jwks: () => verifier.isReady() },
      info: () => ({
        revocationFeed: feed.isConnected() ? 'connected' : 'disconnected',
        revokedTokens: revocations.size,
        suspendedAccounts: suspended.size,
        cachedApiKeys: apiKeys.size,
      }),
      isShuttingDown: () => shuttingDown,
      logger,
    });
  } catch (err) {
    server.close();
    server.closeAllConnections();
    stopHeartbeat();
    await suspended.stop();
    await requestEvents.close().catch(() => undefined);
    await Promise.allSettled([
      upstreams.close(0),
      feed.close(),
      apiKeys.close(),
      quotaCounter.close(),
      rateLimitCounter.close(),
      idempotencyStore.close(),
    ]);
    throw err;
  }
  logger.info({ port, host: config.GATEWAY_HOST, adminPort: admin.port }, 'gateway listening');

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      shuttingDown = true;
      logger.info('gateway shutting down: draining requests');
      await closeServer(server, config.SHUTDOWN_TIMEOUT_MS);
      verifier.stop();
      revocations.stop();
      await suspended.stop();
      stopHeartbeat();
      // The last batch goes out before the broker link closes (bounded: publish waits at most for the confirm).
      await requestEvents?.close().catch((err: unknown) => logger.warn({ err }, 'last request events not sent'));
      const results = await Promise.allSettled([
        upstreams.close(1_000),
        feed.close(),
        admin.close(),
        apiKeys.close(),
        quotaCounter.close(),
        rateLimitCounter.close(),
        idempotencyStore.close(),
        closeEgStore(),
        spans?.shutdown(),
      ]);
      for (const result of results)
        if (result.status === 'rejected') logger.warn({ err: result.reason }, 'close failed');
      logger.info('gateway shut down');
    })();
    return stopping;
  };

  return {
    port,
    adminPort: admin.port,
    server,
    revocations,
    revocationFeedConnected: () => feed.isConnected(),
    stop,
  };
}

/** Stops accepting connections, lets requests in flight finish for up to `timeoutMs`, then cuts the rest. */
async function closeServer(server: Server, timeoutMs: number): Promise<void> {
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      server.closeAllConnections();
      resolve();
    }, timeoutMs).unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}

/** Disconnects EG's data store (real Redis when REDIS_URL is set; a no-op for the in-process emulation). */
async function closeEgStore(): Promise<void> {
  const db = egRequire<{ quit?: () => Promise<unknown>; disconnect?: () => void }>('db');
  // quit() needs a live connection; while Redis is unreachable, disconnect() ends the reconnect attempts.
  if (process.env.KASA_REDIS_EMULATE === 'false') await db.quit?.().catch(() => db.disconnect?.());
  else db.disconnect?.();
}
