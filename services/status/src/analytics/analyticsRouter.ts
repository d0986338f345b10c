import {
  AnalyticsSessionsQuery,
  UsageQuery,
  type AnalyticsResponse,
  type AnalyticsSessionsResponse,
  type UsageResponse,
} from '@kasa/contracts';
import { identityOf, parseInput, requestIdOf, requireIdentity } from '@kasa/service-kit';
import { Router } from 'express';
import type { AnalyticsService } from './analyticsService';

/**
 * The caller's own analytics (the gateway lets tokens and API keys with the `analytics` scope through and forwards
 * who the caller is): GET /api/developer/analytics, /api/analytics/sessions and /api/analytics/usage.
 */
export function createAnalyticsRouter(analytics: AnalyticsService): Router {
  const router = Router();
  router.use(['/api/developer/analytics', '/api/analytics'], requireIdentity(), (_req, res, next) => {
    res.set('Cache-Control', 'private, no-store');
    next();
  });

  router.get('/api/developer/analytics', async (_req, res) => {
    const body: AnalyticsResponse = { data: await analytics.overview(identityOf(res)) };
    res.json(body);
  });

  router.get('/api/analytics/sessions', async (req, res) => {
    const { limit } = parseInput(AnalyticsSessionsQuery, req.query, 'query');
    const body: AnalyticsSessionsResponse = { data: await analytics.sessions(identityOf(res), limit) };
    res.json(body);
  });

  router.get('/api/analytics/usage', async (req, res) => {
    const query = parseInput(UsageQuery, req.query, 'query');
    const body: UsageResponse = {
      data: await analytics.usage(identityOf(res), query, new Date(), requestIdOf(req)),
    };
    res.json(body);
  });

  return router;
}
