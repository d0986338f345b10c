import { Router } from 'express';
import type { Suspensions } from './suspensions';

/**
 * `GET /internal/suspensions` (the gateways only; the gateway routes no `/internal` path): the ids of every suspended
 * account. Each gateway reads it at start and every minute, so one that missed `auth.user.suspended` or
 * `auth.user.restored` while cut off from the broker catches up.
 */
export function createSuspensionsRouter(suspensions: Suspensions): Router {
  const router = Router();
  router.get('/internal/suspensions', async (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ userIds: await suspensions.listSuspended() });
  });
  return router;
}
