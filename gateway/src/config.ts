import path from 'node:path';
import { DEFAULT_MONTHLY_API_CALLS } from '@kasa/contracts';
import { envDeployment, envHeartbeatInterval, envPort, loadConfig, serviceUrl } from '@kasa/service-kit';
import { z } from 'zod';

/** Where the built frontends live in this repository: <repo>/frontends (the same from src/ and dist/). */
export const DEFAULT_WEB_DIST_DIR = path.resolve(__dirname, '..', '..', 'frontends');

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** A plan's monthly call quota: a positive whole number, or `unlimited`. Parsed to a number, or null for unlimited. */
const monthlyCalls = (fallback: number | 'unlimited') =>
  z
    .string()
    .default(String(fallback))
    .transform((value, ctx) => {
      const trimmed = value.trim().toLowerCase();
      if (trimmed === 'unlimited') return null;
      if (/^\d+$/.test(trimmed) && Number(trimmed) > 0) return Number(trimmed);
      ctx.addIssue({ code: 'custom', message: 'must be a positive whole number of calls, or "unlimited"' });
      return z.NEVER;
    });

/** A comma-separated list of browser origins, e.g. `http://localhost:8080,http://localhost:3000`. */
const originList = z
  .string()
  .default('http://localhost:8080')
  .transform((value, ctx) => {
    const origins = value
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean);
    for (const origin of origins) {
      let parsed: URL | undefined;
      try {
        parsed = new URL(origin);
      } catch {
        parsed = undefined;
      }
      if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== origin) {
        ctx.addIssue({
          code: 'custom',
          message: `"${origin}" is not an origin like http://localhost:8080 (no path, no trailing slash)`,
        });
      }
    }
    if (origins.length === 0) ctx.addIssue({ code: 'custom', message: 'must name at least one origin' });
    return origins;
  });

/**
 * Express's `trust proxy` setting: `false` (the default: the client is whoever opened the socket), `true`, a hop
 * count, or a list of addresses/subnets such as `loopback, 10.0.0.0/8`. It decides the client IP used by the rate
 * limit and by X-Forwarded-For, so only trust proxies that really sit in front of the gateway.
 */
const trustProxy = z
  .string()
  .default('false')
  .transform((value): boolean | number | string => {
    const trimmed = value.trim();
    if (trimmed === 'false') return false;
    if (trimmed === 'true') return true;
    if (/^\d+$/.test(trimmed)) return Number(trimmed);
    return trimmed;
  });

/** Every setting of the gateway, from the environment (see .env.example). */
export const GatewayEnv = z.object({
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  GATEWAY_PORT: envPort(8080),
  GATEWAY_HOST: z.string().min(1).default('127.0.0.1'),
  GATEWAY_ADMIN_PORT: envPort(9876),
  GATEWAY_ADMIN_HOST: z.string().min(1).default('127.0.0.1'),
  GATEWAY_TRUST_PROXY: trustProxy,
  AUTH_SERVICE_URL: serviceUrl('http://127.0.0.1:4001'),
  CHAT_SERVICE_URL: serviceUrl('http://127.0.0.1:4002'),
  VOICE_SERVICE_URL: serviceUrl('http://127.0.0.1:4003'),
  STATUS_SERVICE_URL: serviceUrl('http://127.0.0.1:4004'),
  WEB_ORIGIN: originList,
  WEB_DIST_DIR: z
    .string()
    .min(1)
    .default(DEFAULT_WEB_DIST_DIR)
    .transform((dir) => path.resolve(dir)),
  AUTH_RATE_LIMIT_MAX: positiveInt(100),
  AUTH_RATE_LIMIT_WINDOW_MS: positiveInt(900_000),
  /** Requests per client address and window on every route that needs no sign-in (catalogues, geo, status...). */
  PUBLIC_RATE_LIMIT_MAX: positiveInt(600),
  PUBLIC_RATE_LIMIT_WINDOW_MS: positiveInt(60_000),
  /** Anonymous speech (the landing page's samples) costs CPU: a stricter allowance per client address. */
  ANONYMOUS_SYNTHESIS_RATE_LIMIT_MAX: positiveInt(30),
  ANONYMOUS_SYNTHESIS_RATE_LIMIT_WINDOW_MS: positiveInt(600_000),
  UPSTREAM_TIMEOUT_MS: positiveInt(30_000),
  UPSTREAM_CONNECT_TIMEOUT_MS: positiveInt(1_000),
  GATEWAY_MAX_BODY_BYTES: positiveInt(1024 * 1024),
  AMQP_URL: z
    .url({ protocol: /^amqps?$/, error: 'must be an amqp:// URL' })
    .default('amqp://guest:guest@127.0.0.1:5672'),
  REDIS_URL: z.url({ protocol: /^redis$/, error: 'must be a redis:// URL' }).optional(),
  SHUTDOWN_TIMEOUT_MS: positiveInt(10_000),
  /** Monthly API calls per plan (spec section 9): Free 1,000, Pro 50,000, Enterprise unlimited. */
  PLAN_FREE_MONTHLY_CALLS: monthlyCalls(DEFAULT_MONTHLY_API_CALLS.free ?? 'unlimited'),
  PLAN_PRO_MONTHLY_CALLS: monthlyCalls(DEFAULT_MONTHLY_API_CALLS.pro ?? 'unlimited'),
  PLAN_ENTERPRISE_MONTHLY_CALLS: monthlyCalls(DEFAULT_MONTHLY_API_CALLS.enterprise ?? 'unlimited'),
  /** Requests per minute per API key (or per person, for calls with an access token) on the public API routes. */
  API_RATE_LIMIT_PER_MINUTE: positiveInt(1_000),
  /** How long a verified API key is trusted without asking the auth service again (0: ask every time). */
  API_KEY_CACHE_TTL_MS: z.coerce.number().int().min(0).max(300_000).default(30_000),
  /** How often the list of suspended accounts is read from auth (events carry each change at once; this catches up). */
  SUSPENSIONS_REFRESH_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(60_000),
  /** How long a duplicate of an idempotent request still running waits for its answer before a 409. */
  IDEMPOTENCY_WAIT_MS: z.coerce.number().int().min(100).max(120_000).default(30_000),
  /** How often the gateway publishes `service.heartbeat` (as every service does). */
  HEARTBEAT_INTERVAL_MS: envHeartbeatInterval(),
  /** Names this deployment in the gateway's events when several share one broker (e.g. test runs). */
  KASA_DEPLOYMENT: envDeployment(),
  /** OTLP/HTTP collector base URL: each request's gateway span is exported to `<url>/v1/traces` when set. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  /** Answered API requests are published in `gateway.request.completed` batches at least this often. */
  REQUEST_EVENTS_FLUSH_MS: z.coerce.number().int().min(50).max(60_000).default(1_000),
  /** Requests waiting for the broker at most; the oldest are dropped beyond it (a counter metric says how many). */
  REQUEST_EVENTS_MAX_BUFFERED: z.coerce.number().int().min(200).max(1_000_000).default(10_000),
});
export type GatewayConfig = z.output<typeof GatewayEnv>;

/** Reads and validates the gateway's environment; throws a ConfigError naming every variable that is wrong. */
export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  return loadConfig(GatewayEnv, env);
}
