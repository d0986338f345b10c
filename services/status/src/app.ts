import { BODY_LIMITS } from '@kasa/contracts';
import { createServiceApp, type RuntimeAppDeps } from '@kasa/service-kit';
import type { Express } from 'express';
import { createAdminHealthRouter, type AdminRoutesDeps } from './admin/adminRouter';
import { createAnalyticsRouter } from './analytics/analyticsRouter';
import type { AnalyticsService } from './analytics/analyticsService';
import { createServicesStatusRouter } from './health/servicesStatusRouter';
import type { ServicesStatus } from './health/servicesStatus';
import { createStatusRouter } from './probes/statusRouter';
import type { DashboardHealth } from './queries/queryLimits';
import { createWebhookRouter, type WebhookRouterDeps } from './webhooks/webhookRouter';

export interface StatusAppDeps extends RuntimeAppDeps {
  services: Record<string, string>;
  probeTimeoutMs: number;
  servicesStatus: ServicesStatus;
  analytics: AnalyticsService;
  /** Time limit of one dashboard answer's reads; over it the answer is 503 with Retry-After. */
  queryTimeoutMs: number;
  health: DashboardHealth;
  /** The operators' health and usage (`/api/admin/health`, `/api/admin/usage`), when given. */
  admin?: AdminRoutesDeps;
  /** The developer webhooks' routes, when given. */
  webhooks?: WebhookRouterDeps;
}

export function createApp(deps: StatusAppDeps): Express {
  const dashboards = { queryTimeoutMs: deps.queryTimeoutMs, health: deps.health };
  return createServiceApp({
    ...deps,
    // The same limit as the gateway's status routes (BODY_LIMITS in @kasa/contracts).
    bodyLimit: BODY_LIMITS.status,
    routes: [
      createStatusRouter(deps),
      createServicesStatusRouter(deps.servicesStatus, dashboards),
      createAnalyticsRouter(deps.analytics, dashboards),
      ...(deps.admin ? [createAdminHealthRouter(deps.admin, dashboards)] : []),
      ...(deps.webhooks ? [createWebhookRouter(deps.webhooks)] : []),
    ],
  });
}
