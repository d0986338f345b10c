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

export const AnalyticsResponse = z
  .object({
    data: z.object({
      usage: z.object({ breakdown: z.record(z.string(), z.number()) }),
      performance: z.object({ averageResponseTime: z.number(), uptime: z.number(), errorRate: z.number() }),
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
