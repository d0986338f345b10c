import type { ServicesStatusResponse } from '@kasa/contracts';
import { requireIdentity } from '@kasa/service-kit';
import { Router } from 'express';
import { dashboardRead, type DashboardReadOptions } from '../analytics/analyticsRouter';
import type { ServicesStatus } from './servicesStatus';

/**
 * GET /api/developer/services/status: the developer portal's service status panel (signed in, or an API key), from
 * the snapshot in memory.
 */
export function createServicesStatusRouter(status: ServicesStatus, options: DashboardReadOptions): Router {
  const router = Router();
  router.get(
    '/api/developer/services/status',
    requireIdentity(),
    (_req, res, next) => {
      res.set('Cache-Control', 'no-store');
      next();
    },
    dashboardRead(options, async (): Promise<ServicesStatusResponse> => ({ data: await status.read() })),
  );
  return router;
}
