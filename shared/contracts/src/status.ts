import { z } from './zod';

export const ServiceState = z.enum(['operational', 'degraded', 'down']);
export type ServiceState = z.infer<typeof ServiceState>;

export const ServiceStatus = z
  .object({
    name: z.string(),
    status: z.string(),
    provider: z.string(),
    uptime: z.number(),
    lastResponse: z.string().nullable(),
    requests: z.number().int().nonnegative(),
    errors: z.number().int().nonnegative(),
  })
  .openapi('ServiceStatus');
export type ServiceStatus = z.infer<typeof ServiceStatus>;

export const ServicesStatusResponse = z
  .object({
    data: z.object({
      overall: z.object({
        status: z.string(),
        uptime: z.number(),
        totalRequests: z.number().int().nonnegative(),
        totalErrors: z.number().int().nonnegative(),
        avgResponseTime: z.number().nonnegative(),
      }),
      services: z.array(ServiceStatus),
    }),
  })
  .openapi('ServicesStatusResponse');
export type ServicesStatusResponse = z.infer<typeof ServicesStatusResponse>;

/** The caller's plan quota for the current calendar month (UTC); `limit` is null on unlimited plans. */
export const QuotaUsage = z
  .object({
    period: z.string().regex(/^\d{4}-\d{2}$/),
    used: z.number().int().nonnegative(),
    limit: z.number().int().positive().nullable(),
  })
  .openapi('QuotaUsage');
export type QuotaUsage = z.infer<typeof QuotaUsage>;

/**
 * GET /api/developer/analytics: the caller's own figures, from stored events (gateway requests, chat sessions and
 * messages). `usage.breakdown` maps an API area (chat, voice, auth, analytics...) to its percent of the caller's
 * calls; `personaUsage` counts sessions per persona id and `languageUsage` user messages per language code.
 * `performance` covers the caller's calls over the last 30 days: mean response time in ms, uptime and error rate in
 * percent (error = a 5xx answer). `voice` counts the caller's own speech (clips read aloud and their seconds) and
 * finished video jobs (made, failed) over the same 30 days, from voice's events.
 */
export const AnalyticsResponse = z
  .object({
    data: z.object({
      usage: z.object({
        breakdown: z.record(z.string(), z.number()),
        totalCalls: z.number().int().nonnegative(),
        quota: QuotaUsage,
      }),
      performance: z.object({ averageResponseTime: z.number(), uptime: z.number(), errorRate: z.number() }),
      personaUsage: z.record(z.string(), z.number().int().nonnegative()),
      languageUsage: z.record(z.string(), z.number().int().nonnegative()),
      sessions: z.number().int().nonnegative(),
      messages: z.number().int().nonnegative(),
      voice: z.object({
        speechClips: z.number().int().nonnegative(),
        speechSeconds: z.number().nonnegative(),
        videosMade: z.number().int().nonnegative(),
        videosFailed: z.number().int().nonnegative(),
      }),
    }),
  })
  .openapi('AnalyticsResponse');
export type AnalyticsResponse = z.infer<typeof AnalyticsResponse>;

/** GET /api/status: the platform's health, probed live by the status service. */
export const PlatformStatusResponse = z
  .object({
    status: ServiceState,
    checkedAt: z.string().datetime(),
    services: z.array(
      z.object({ name: z.string(), status: ServiceState, latencyMs: z.number().nonnegative().nullable() }),
    ),
  })
  .openapi('PlatformStatusResponse');
export type PlatformStatusResponse = z.infer<typeof PlatformStatusResponse>;

/** GET /api/analytics/sessions: the caller's chat sessions as the analytics panel lists them, newest first. */
export const AnalyticsSession = z
  .object({
    id: z.string(),
    personaId: z.string(),
    title: z.string(),
    createdAt: z.string().datetime(),
    messageCount: z.number().int().nonnegative(),
    lastMessageAt: z.string().datetime().nullable(),
  })
  .openapi('AnalyticsSession');
export type AnalyticsSession = z.infer<typeof AnalyticsSession>;
/** GET /api/analytics/sessions?limit=: how many of the newest sessions (1–100, default 50). */
export const AnalyticsSessionsQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1, 'limit must be from 1 to 100')
    .max(100, 'limit must be from 1 to 100')
    .default(50),
});
export type AnalyticsSessionsQuery = z.infer<typeof AnalyticsSessionsQuery>;
export const AnalyticsSessionsResponse = z
  .object({ data: z.array(AnalyticsSession) })
  .openapi('AnalyticsSessionsResponse');
export type AnalyticsSessionsResponse = z.infer<typeof AnalyticsSessionsResponse>;

/** GET /api/analytics/usage?days=&keyId=: the caller's API calls over time (days 1–90, default 30). */
export const UsageQuery = z.object({
  days: z.coerce.number().int().min(1, 'days must be from 1 to 90').max(90, 'days must be from 1 to 90').default(30),
  /** Only the calls made with this API key (one of the caller's); absent: every call of the caller. */
  keyId: z.string().min(1).max(64).optional(),
});
export type UsageQuery = z.infer<typeof UsageQuery>;

export const UsageResponse = z
  .object({
    data: z.object({
      from: z.string().datetime(),
      to: z.string().datetime(),
      totalCalls: z.number().int().nonnegative(),
      /** One entry per UTC day of the window, oldest first, days without calls included with zeros. */
      days: z.array(
        z.object({
          date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
          calls: z.number().int().nonnegative(),
          errors: z.number().int().nonnegative(),
        }),
      ),
      /** `endpoint` is `METHOD route`, the route being the gateway's endpoint name (e.g. `GET chat`); most calls first. */
      byEndpoint: z.array(z.object({ endpoint: z.string(), calls: z.number().int().nonnegative() })),
      byStatus: z.array(z.object({ status: z.number().int(), calls: z.number().int().nonnegative() })),
      /** Calls per API key id; calls made with a session token are under `keyId: null`. */
      byKey: z.array(z.object({ keyId: z.string().nullable(), calls: z.number().int().nonnegative() })),
    }),
  })
  .openapi('UsageResponse');
export type UsageResponse = z.infer<typeof UsageResponse>;
