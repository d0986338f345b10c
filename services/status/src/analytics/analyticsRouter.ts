import {
  AnalyticsSessionsQuery,
  UsageQuery,
  type AnalyticsResponse,
  type AnalyticsSessionsResponse,
  type UsageResponse,
} from '@kasa/contracts';
import { identityOf, parseInput, requireIdentity } from '@kasa/service-kit';
import { Router, type NextFunction, type Request, type Response } from 'express';
import {
  ClientGoneError,
  DashboardTimeoutError,
  clientSignal,
  withinTimeLimit,
  type DashboardHealth,
  type ReadLimits,
} from '../queries/queryLimits';
import type { AnalyticsService } from './analyticsService';

export interface DashboardReadOptions {
  /** Time limit of one dashboard answer's reads (each query's maxTimeMS too). */
  queryTimeoutMs: number;
  health?: DashboardHealth;
}

/**
 * Runs a dashboard handler's reads within the time limit and with the request's abort signal: out of time → 503 with
 * Retry-After; client gone → the reads stop and nothing is sent.
 */
export function dashboardRead<T>(
  options: DashboardReadOptions,
  read: (req: Request, res: Response, limits: ReadLimits) => Promise<T>,
) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      const body = await withinTimeLimit((limits) => read(req, res, limits), {
        timeoutMs: options.queryTimeoutMs,
        signal: clientSignal(req, res),
        health: options.health,
      });
      res.json(body);
    } catch (err) {
      if (err instanceof ClientGoneError) return;
      if (err instanceof DashboardTimeoutError) res.set('Retry-After', String(err.retryAfterSeconds));
      next(err);
    }
  };
}

/**
 * The caller's own analytics (the gateway lets tokens and API keys with the `analytics` scope through and forwards
 * who the caller is): GET /api/developer/analytics, /api/analytics/sessions and /api/analytics/usage.
 */
export function createAnalyticsRouter(analytics: AnalyticsService, options: DashboardReadOptions): Router {
  const router = Router();
  router.use(['/api/developer/analytics', '/api/analytics'], requireIdentity(), (_req, res, next) => {
    res.set('Cache-Control', 'private, no-store');
    next();
  });

  router.get(
    '/api/developer/analytics',
    dashboardRead(options, async (_req, res, limits): Promise<AnalyticsResponse> => ({
      data: await analytics.overview(identityOf(res), limits),
    })),
  );

  router.get(
    '/api/analytics/sessions',
    dashboardRead(options, async (req, res, limits): Promise<AnalyticsSessionsResponse> => {
      const { limit } = parseInput(AnalyticsSessionsQuery, req.query, 'query');
      return { data: await analytics.sessions(identityOf(res), limit, limits) };
    }),
  );

  router.get(
    '/api/analytics/usage',
    dashboardRead(options, async (req, res, limits): Promise<UsageResponse> => {
      const query = parseInput(UsageQuery, req.query, 'query');
      return { data: await analytics.usage(identityOf(res), query, limits) };
    }),
  );

  return router;
}
