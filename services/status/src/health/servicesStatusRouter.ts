import type { ServicesStatusResponse } from '@kasa/contracts';
import { requireIdentity } from '@kasa/service-kit';
import { Router } from 'express';
import type { ServicesStatus } from './servicesStatus';

/** GET /api/developer/services/status: the developer portal's service status panel (signed in, or an API key). */
export function createServicesStatusRouter(status: ServicesStatus): Router {
  const router = Router();
  router.get('/api/developer/services/status', requireIdentity(), async (_req, res) => {
    const body: ServicesStatusResponse = { data: await status.read() };
    res.set('Cache-Control', 'no-store').json(body);
  });
  return router;
}
