import { CheckoutRequest, PaymentReference, z, type CheckoutResponse } from '@kasa/contracts';
import { identityOf, parseInput, requestIdOf, requireIdentity } from '@kasa/service-kit';
import { Router } from 'express';
import type { TokenService } from '../tokens/tokenService';
import { setSessionCookie } from '../users/authRouter';
import type { BillingService } from './billingService';
import { PLANS_RESPONSE } from './plans';

export interface BillingRouterDeps {
  billing: BillingService;
  tokens: Pick<TokenService, 'issue'>;
  tokenTtlSeconds: number;
  cookieSecure: boolean;
}

const ReferenceParams = z.object({ reference: PaymentReference });

/**
 * /api/billing: the public plans, and for a signed-in person (identity from the gateway) the checkout and their
 * payments. A completed checkout answers with a fresh token carrying the new tier (also put in the session
 * cookie), since the tier travels in the token; the old token keeps working with the old tier until it expires.
 */
export function createBillingRouter(deps: BillingRouterDeps): Router {
  const router = Router();

  router.get('/api/billing/plans', (_req, res) => {
    // The plans change with a deploy only.
    res.set('Cache-Control', 'public, max-age=300').json(PLANS_RESPONSE);
  });

  router.use('/api/billing/checkout', requireIdentity(), (_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });

  router.post('/api/billing/checkout', async (req, res) => {
    const { planId } = parseInput(CheckoutRequest, req.body);
    const result = await deps.billing.checkout(identityOf(res).userId, planId, requestIdOf(req));
    if (result.outcome === 'already_on_plan') {
      res.json(result satisfies CheckoutResponse);
      return;
    }
    if (result.outcome === 'inquiry_received') {
      res.status(202).json(result satisfies CheckoutResponse);
      return;
    }
    let body: CheckoutResponse = result;
    if (result.user) {
      const token = deps.tokens.issue({
        id: result.user.id,
        username: result.user.username,
        tier: result.user.subscriptionTier,
      });
      setSessionCookie(res, token, deps);
      body = { ...result, token };
    }
    res.status(201).json(body);
  });

  router.get('/api/billing/checkout/:reference', async (req, res) => {
    const { reference } = parseInput(ReferenceParams, req.params, 'reference');
    res.json(await deps.billing.getPayment(identityOf(res).userId, reference));
  });

  return router;
}
