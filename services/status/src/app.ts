import { createServiceApp, type RuntimeAppDeps } from '@kasa/service-kit';
import type { Express } from 'express';
import { createAnalyticsRouter } from './analytics/analyticsRouter';
import type { AnalyticsService } from './analytics/analyticsService';
import { createServicesStatusRouter } from './health/servicesStatusRouter';
import type { ServicesStatus } from './health/servicesStatus';
import { createStatusRouter } from './probes/statusRouter';

export interface StatusAppDeps extends RuntimeAppDeps {
  services: Record<string, string>;
  probeTimeoutMs: number;
  servicesStatus: ServicesStatus;
  analytics: AnalyticsService;
}

export function createApp(deps: StatusAppDeps): Express {
  return createServiceApp({
    ...deps,
    routes: [
      createStatusRouter(deps),
      createServicesStatusRouter(deps.servicesStatus),
      createAnalyticsRouter(deps.analytics),
    ],
  });
}
