import { ChangePlanRequest, PeopleSearchQuery, RestorePersonRequest, SuspendPersonRequest } from '@kasa/contracts';
import { parseInput, requestIdOf } from '@kasa/service-kit';
import type { Router } from 'express';
import type { AdminRouterDeps } from './adminRouter';
import { actorOf } from './actor';

/**
 * The People part of the operators' API (mounted on the admin router, behind its operator check): search, one
 * person's page, suspend and restore, and a plan change with a reason. Each change is recorded with its actor.
 */
export function registerPeopleRoutes(router: Router, deps: AdminRouterDeps): void {
  router.get('/api/admin/people', async (req, res) => {
    const query = parseInput(PeopleSearchQuery, req.query, 'query');
    res.json(await deps.people.search(query));
  });

  router.get('/api/admin/people/:id', async (req, res) => {
    res.json({ person: await deps.people.detail(req.params.id) });
  });

  router.post('/api/admin/people/:id/suspend', async (req, res) => {
    const { reason } = parseInput(SuspendPersonRequest, req.body ?? {});
    const suspension = await deps.suspensions.suspend(req.params.id, actorOf(req, res), reason, requestIdOf(req));
    res.json({ suspension });
  });

  router.post('/api/admin/people/:id/restore', async (req, res) => {
    const { reason } = parseInput(RestorePersonRequest, req.body ?? {});
    const suspension = await deps.suspensions.restore(req.params.id, actorOf(req, res), reason, requestIdOf(req));
    res.json({ suspension });
  });

  router.post('/api/admin/people/:id/plan', async (req, res) => {
    const change = parseInput(ChangePlanRequest, req.body ?? {});
    const person = await deps.people.detail(req.params.id);
    const done = await deps.billing.changePlanByOperator(person.id, change, actorOf(req, res), requestIdOf(req));
    res.json(done);
  });
}
