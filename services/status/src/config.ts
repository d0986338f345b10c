import { DEFAULT_MONTHLY_API_CALLS } from '@kasa/contracts';
import { baseServiceEnv, envBoolean, envPort, loadConfig, serviceUrl } from '@kasa/service-kit';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule } from './webhooks/retrySchedule';

/** A plan's monthly call quota, as the gateway reads it: a positive whole number, or `unlimited` (null). */
const monthlyCalls = (fallback: number | null) =>
  z
    .string()
    .default(fallback === null ? 'unlimited' : String(fallback))
    .transform((value, ctx) => {
      const trimmed = value.trim().toLowerCase();
      if (trimmed === 'unlimited') return null;
      if (/^\d+$/.test(trimmed) && Number(trimmed) > 0) return Number(trimmed);
      ctx.addIssue({ code: 'custom', message: 'must be a positive whole number of calls, or "unlimited"' });
      return z.NEVER;
    });

const schema = baseServiceEnv.extend({
  STATUS_PORT: envPort(4004),
  STATUS_HOST: z.string().default('127.0.0.1'),
  STATUS_DB_NAME: z.string().default('kasa_status'),
  /** The durable queue `kasa.<name>` the status service consumes; every replica shares it. */
  STATUS_CONSUMER_NAME: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/, "must be letters, digits, '.', '_' or '-'")
    .default('status'),
  /** Where each service's /readyz is asked when its heartbeats stop; required in production (serviceUrl). */
  AUTH_SERVICE_URL: serviceUrl('http://127.0.0.1:4001'),
  CHAT_SERVICE_URL: serviceUrl('http://127.0.0.1:4002'),
  VOICE_SERVICE_URL: serviceUrl('http://127.0.0.1:4003'),
  /**
   * The gateway's admin port, whose /readyz is asked when the gateway's heartbeats stop. Unset (the default: the admin
   * port listens on loopback, out of other containers' reach), the gateway's heartbeats alone tell its state.
   */
  GATEWAY_ADMIN_URL: z.string().url({ error: 'must be an http(s) URL' }).optional(),
  PROBE_TIMEOUT_MS: z.coerce.number().int().min(100).max(10_000).default(1_500),
  /** A service is degraded when more than this percent of its calls in the last 5 minutes were answered with 5xx. */
  ERROR_RATE_DEGRADED_PERCENT: z.coerce.number().min(0).max(100).default(5),
  /** ...counting only once it has had at least this many calls in those 5 minutes. */
  ERROR_RATE_MIN_REQUESTS: z.coerce.number().int().min(1).default(10),
  /** Day buckets (analytics, usage) are kept this many days; the usage page looks back up to 90. */
  STATUS_RETENTION_DAYS: z.coerce.number().int().min(31).max(3650).default(90),
  /**
   * Raw records are kept this many days: the ids of counted gateway batches, chat messages and sessions, which make
   * a redelivered event count once. Their figures stay in the rollups.
   */
  STATUS_RAW_RETENTION_DAYS: z.coerce.number().int().min(1).max(90).default(7),
  /** The time limit of one dashboard answer's reads (each query's maxTimeMS); over it the answer is 503. */
  STATUS_QUERY_TIMEOUT_MS: z.coerce.number().int().min(50).max(30_000).default(2_000),
  /**
   * Memory (MB) for the rollup documents dashboards read, so that a dashboard asked again reads no database. Exact
   * only while one status replica writes the rollups (the embedded default): set 0 when several replicas run.
   */
  STATUS_ROLLUP_CACHE_MB: z.coerce.number().int().min(0).max(4_096).default(32),
  /** How often the service status snapshot (served from memory) is rebuilt. */
  STATUS_SNAPSHOT_INTERVAL_MS: z.coerce.number().int().min(100).max(60_000).default(1_000),
  /** How often the clean-up runs. */
  STATUS_CLEANUP_INTERVAL_MS: z.coerce.number().int().min(1_000).default(3_600_000),
  /**
   * base64 of 32 random bytes (`openssl rand -base64 32`), the same on every replica: the webhook signing secrets are
   * sealed with it. Outside production, without it, a key is made once and kept in STATUS_KEYS_DIR; in production
   * without it, webhook endpoints cannot be created (409) nor their secrets rotated.
   */
  STATUS_SECRETS_KEY: z
    .string()
    .optional()
    .refine((value) => value === undefined || Buffer.from(value, 'base64').length === 32, {
      error: 'must be base64 of 32 random bytes (openssl rand -base64 32)',
    }),
  STATUS_KEYS_DIR: z.string().default(path.resolve(__dirname, '../../../.data/status')),
  /**
   * Webhooks to http:// URLs and to private, loopback, link-local or otherwise internal addresses: refused unless the
   * operator sets this (an installation whose developers' receivers live on its own network). Default false
   * everywhere.
   */
  WEBHOOKS_ALLOW_PRIVATE_NETWORKS: envBoolean(false),
  /** The delays between a webhook's attempts; once used up, the delivery has failed. */
  WEBHOOKS_RETRY_SCHEDULE: z
    .string()
    .default(DEFAULT_RETRY_SCHEDULE)
    .transform((value, ctx) => {
      try {
        return parseRetrySchedule(value);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
        return z.NEVER;
      }
    }),
  /** How often each replica looks for due webhook deliveries (new ones are taken at once as well). */
  WEBHOOKS_POLL_INTERVAL_MS: z.coerce.number().int().min(100).max(60_000).default(1_000),
  /** Webhook attempts under way at once per replica. */
  WEBHOOKS_CONCURRENCY: z.coerce.number().int().min(1).max(200).default(16),
  PLAN_FREE_MONTHLY_CALLS: monthlyCalls(DEFAULT_MONTHLY_API_CALLS.free),
  PLAN_PRO_MONTHLY_CALLS: monthlyCalls(DEFAULT_MONTHLY_API_CALLS.pro),
  PLAN_ENTERPRISE_MONTHLY_CALLS: monthlyCalls(DEFAULT_MONTHLY_API_CALLS.enterprise),
});

export type StatusConfig = z.output<typeof schema>;
export const readConfig = (env: NodeJS.ProcessEnv = process.env): StatusConfig => loadConfig(schema, env);
