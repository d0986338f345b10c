import { Router } from 'express';
import type { OperatorService } from './operatorService';
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

/**
 * `GET /internal/operators/:userId` (other services only, e.g. chat's `/api/admin/providers`): whether the account
 * acts as an operator now — `{ operator: boolean }`, read afresh like auth's own admin routes.
 */
export function createOperatorCheckRouter(operators: Pick<OperatorService, 'isOperator'>): Router {
  const router = Router();
  router.get('/internal/operators/:userId', async (req, res) => {
    const userId = req.params.userId;
    const operator = userId.length <= 64 && (await operators.isOperator(userId));
    res.set('Cache-Control', 'no-store').json({ operator });
  });
  return router;
}
