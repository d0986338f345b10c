import { identityOf, NotFoundError, parseInput, requestIdOf, requireIdentity } from '@kasa/service-kit';
import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import type { AuditLog } from '../audit/auditLog';
import type { BillingService } from '../billing/billingService';
import { actorOf } from './actor';
import { registerAuditRoutes } from './auditRoutes';
import type { OperatorService } from './operatorService';
import type { PeopleService } from './peopleService';
import { registerPeopleRoutes } from './peopleRoutes';
import type { Suspensions } from './suspensions';

/** What the operators' API reads and changes. */
export interface AdminRouterDeps {
  operators: OperatorService;
  people: PeopleService;
  suspensions: Suspensions;
  billing: Pick<BillingService, 'changePlanByOperator'>;
  audit: AuditLog;
}

const GrantOperatorRequest = z.strictObject({ email: z.email({ error: 'must be an e-mail address' }).max(254) });
const RedeemSetupRequest = z.strictObject({ token: z.string().min(20).max(100) });
const GrantEnterpriseRequest = z.strictObject({
  seats: z.number().int().min(1).max(100_000),
  endsAt: z.iso.datetime({ error: 'must be an ISO 8601 date-time' }),
  /** Per month, as agreed; Enterprise's list price in the currency when left out. */
  amount: z.number().nonnegative().max(10_000_000).optional(),
  currency: z.enum(['USD', 'GHS', 'NGN', 'KES']).optional(),
});
const InquiryQuery = z.strictObject({
  status: z.enum(['open', 'contacted', 'closed']).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  before: z.iso.datetime({ error: 'must be an ISO 8601 date-time' }).optional(),
});

/**
 * Auth's part of the operators' API, `/api/admin/*` for what auth owns (operators, Enterprise inquiries), and the
 * first-run setup link's redemption. Every admin route checks the operator role against the database; to anyone else
 * it does not exist (404, as an unknown path), so the routes are not even revealed.
 */
export function createAdminRouter(deps: AdminRouterDeps): Router {
  const { operators } = deps;
  const router = Router();
  const operatorsOnly: RequestHandler = (_req, res, next) => {
    operators
      .isOperator(identityOf(res).userId)
      .then((yes) => (yes ? next() : next(new NotFoundError())))
      .catch(next);
  };
  router.use('/api/admin', requireIdentity(), operatorsOnly, (_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });

  router.get('/api/admin/operators', async (_req, res) => {
    res.json({ operators: await operators.list() });
  });
  router.post('/api/admin/operators', async (req, res) => {
    const { email } = parseInput(GrantOperatorRequest, req.body);
    res.status(201).json(await operators.grant(email, actorOf(req, res), requestIdOf(req)));
  });
  router.delete('/api/admin/operators/:userId', async (req, res) => {
    await operators.revoke({ userId: req.params.userId }, actorOf(req, res), requestIdOf(req));
    res.status(204).end();
  });

  router.get('/api/admin/inquiries', async (req, res) => {
    const query = parseInput(InquiryQuery, req.query, 'query');
    const inquiries = await operators.inquiries({
      status: query.status,
      limit: query.limit,
      before: query.before ? new Date(query.before) : undefined,
    });
    res.json({ inquiries });
  });

  router.post('/api/admin/inquiries/:id/enterprise', async (req, res) => {
    const terms = parseInput(GrantEnterpriseRequest, req.body);
    const granted = await operators.grantEnterprise(
      { inquiryId: req.params.id },
      { ...terms, endsAt: new Date(terms.endsAt) },
      requestIdOf(req),
      actorOf(req, res),
    );
    res.status(201).json(granted);
  });

  registerPeopleRoutes(router, deps);
  registerAuditRoutes(router, deps.audit);

  router.post('/api/auth/operator-setup', requireIdentity(), async (req, res) => {
    const { token } = parseInput(RedeemSetupRequest, req.body);
    await operators.redeemSetupToken(token, identityOf(res).userId);
    res.set('Cache-Control', 'no-store').json({ operator: true });
  });
  return router;
}
