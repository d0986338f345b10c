import { AdminUsageQuery, type AdminHealthResponse, type AdminUsageResponse } from '@kasa/contracts';
import { operatorsOnly, parseInput, type OperatorCheck } from '@kasa/service-kit';
import { Router } from 'express';
import { dashboardRead, type DashboardReadOptions } from '../analytics/analyticsRouter';
import type { AdminHealth } from './adminHealth';

const PATHS = ['/api/admin/health', '/api/admin/usage'];

export interface AdminRoutesDeps {
  figures: AdminHealth;
  /** Asks auth whether a person is an operator. */
  operators: OperatorCheck;
}

/** The current UTC month, `YYYY-MM`. */
const monthOf = (at: Date) => at.toISOString().slice(0, 7);

/**
 * The operators' health and usage: GET /api/admin/health and GET /api/admin/usage?month=YYYY-MM. The role is asked
 * of auth on every call (operatorsOnly); to anyone else the routes do not exist (404). Each answer's reads run within
 * the dashboards' time limit (503 with Retry-After past it).
 */
export function createAdminHealthRouter(deps: AdminRoutesDeps, options: DashboardReadOptions): Router {
  const router = Router();
  router.use(PATHS, ...operatorsOnly(deps.operators));

  router.get(
    '/api/admin/health',
    dashboardRead(options, (_req, _res, limits): Promise<AdminHealthResponse> => deps.figures.health(limits)),
  );

  router.get(
    '/api/admin/usage',
    dashboardRead(options, (req, _res, limits): Promise<AdminUsageResponse> => {
      const { month } = parseInput(AdminUsageQuery, req.query, 'query');
      return deps.figures.usage(month ?? monthOf(new Date()), limits);
    }),
  );

  return router;
}
