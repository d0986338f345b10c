import {
  AddOnCheckoutRequest,
  BillingHistoryQuery,
  CheckoutRequest,
  PaymentReference,
  z,
  type BillingHistoryResponse,
  type BillingPortalResponse,
  type CheckoutResponse,
  type PlansResponse,
  type SubscriptionResponse,
} from '@kasa/contracts';
import { identityOf, parseInput, requestIdOf, requireIdentity, type Logger } from '@kasa/service-kit';
import { Router, type Request, type Response } from 'express';
import type { TokenService } from '../tokens/tokenService';
import { setSessionCookie } from '../users/authRouter';
import type { BillingService, CheckoutResult } from './billingService';
import { PLANS_RESPONSE } from './plans';

export interface BillingRouterDeps {
  billing: BillingService;
  tokens: Pick<TokenService, 'issue'>;
  tokenTtlSeconds: number;
  cookieSecure: boolean;
  logger: Logger;
}

const ReferenceParams = z.object({ reference: PaymentReference });
const WebhookParams = z.object({ processor: z.enum(['stripe', 'paystack']) });

/** The paths of the processors' webhooks: their bodies reach the router as raw bytes (see app.ts). */
export const BILLING_WEBHOOK_PATH = '/api/billing/webhooks';

/**
 * /api/billing: the public plans; for a signed-in person (identity from the gateway) the checkout, its verification
 * with the processor, their payments and their subscription (the processor's portal, cancel, resume); and the
 * processors' signed webhooks (public, raw body). An answer that changed the tier carries a fresh token with it (also
 * put in the session cookie), since the tier travels in the token; the old token keeps its old tier until it expires.
 */
export function createBillingRouter(deps: BillingRouterDeps): Router {
  const router = Router();

  /** Answers a checkout outcome, with a fresh token when the account was updated. */
  const answerCheckout = (res: Response, result: CheckoutResult, status: number) => {
    let body: CheckoutResponse = result;
    if (result.outcome === 'checkout' && result.user) {
      const token = deps.tokens.issue({
        id: result.user.id,
        username: result.user.username,
        tier: result.user.subscriptionTier,
      });
      setSessionCookie(res, token, deps);
      body = { ...result, token };
    }
    res.status(status).json(body);
  };

  router.get('/api/billing/plans', (_req, res) => {
    // The plans, and whether payments are real, change with a deploy only. `testMode` is public so that the web app
    // shows its test-mode banner to everyone, signed in or not.
    const body: PlansResponse = { ...PLANS_RESPONSE, testMode: deps.billing.testMode };
    res.set('Cache-Control', 'public, max-age=300').json(body);
  });

  router.use(
    [
      '/api/billing/checkout',
      '/api/billing/subscription',
      '/api/billing/portal',
      '/api/billing/add-ons',
      '/api/billing/history',
      '/api/billing/receipts',
    ],
    requireIdentity(),
    (_req, res, next) => {
      res.set('Cache-Control', 'no-store');
      next();
    },
  );

  router.post('/api/billing/checkout', async (req, res) => {
    const { planId, currency, inquiry } = parseInput(CheckoutRequest, req.body);
    const result = await deps.billing.checkout(identityOf(res).userId, planId, requestIdOf(req), currency, inquiry);
    if (result.outcome === 'already_on_plan') {
      res.json(result satisfies CheckoutResponse);
      return;
    }
    if (result.outcome === 'inquiry_received') {
      res.status(202).json(result satisfies CheckoutResponse);
      return;
    }
    answerCheckout(res, result, 201);
  });

  // One pack of an add-on, through the same checkout: pending on the processor's page, or completed at once (the
  // built-in provider). Its calls are added when the payment is verified; the plan and the token do not change.
  router.post('/api/billing/add-ons/checkout', async (req, res) => {
    const { addOnId, currency } = parseInput(AddOnCheckoutRequest, req.body);
    const result = await deps.billing.buyAddOn(identityOf(res).userId, addOnId, requestIdOf(req), currency);
    if (result.outcome !== 'checkout') {
      res.json(result satisfies CheckoutResponse);
      return;
    }
    res.status(201).json(result satisfies CheckoutResponse);
  });

  router.get('/api/billing/history', async (req, res) => {
    const query = parseInput(BillingHistoryQuery, req.query, 'query');
    res.json((await deps.billing.history(identityOf(res).userId, query)) satisfies BillingHistoryResponse);
  });

  // The receipt as a page of its own: nothing in it runs or loads anything (the CSP allows inline styles only).
  router.get('/api/billing/receipts/:reference', async (req, res) => {
    const { reference } = parseInput(ReferenceParams, req.params, 'reference');
    const html = await deps.billing.receiptHtml(identityOf(res).userId, reference);
    res
      .set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'self'")
      .type('html')
      .send(html);
  });

  router.get('/api/billing/receipts/:reference/receipt.pdf', async (req, res) => {
    const { reference } = parseInput(ReferenceParams, req.params, 'reference');
    const pdf = await deps.billing.receiptPdf(identityOf(res).userId, reference);
    res
      .set('Content-Disposition', `attachment; filename="kasa-receipt-${reference}.pdf"`)
      .type('application/pdf')
      .send(pdf);
  });

  router.get('/api/billing/checkout/:reference', async (req, res) => {
    const { reference } = parseInput(ReferenceParams, req.params, 'reference');
    res.json(await deps.billing.getPayment(identityOf(res).userId, reference));
  });

  // The success page's call when the person comes back from the processor: nothing changes unless the processor
  // confirms the payment (GET stays free of effects).
  router.post('/api/billing/checkout/:reference/verify', async (req, res) => {
    const { reference } = parseInput(ReferenceParams, req.params, 'reference');
    answerCheckout(res, await deps.billing.verify(identityOf(res).userId, reference, requestIdOf(req)), 200);
  });

  router.get('/api/billing/subscription', async (_req, res) => {
    res.json((await deps.billing.getSubscription(identityOf(res).userId)) satisfies SubscriptionResponse);
  });

  router.post('/api/billing/portal', async (req, res) => {
    const answer = await deps.billing.portal(identityOf(res).userId, requestIdOf(req));
    res.json(answer satisfies BillingPortalResponse);
  });

  router.post('/api/billing/subscription/cancel', async (req, res) => {
    res.json((await deps.billing.cancel(identityOf(res).userId, requestIdOf(req))) satisfies SubscriptionResponse);
  });

  router.post('/api/billing/subscription/resume', async (req, res) => {
    res.json((await deps.billing.resume(identityOf(res).userId, requestIdOf(req))) satisfies SubscriptionResponse);
  });

  // Server to server: the signature is checked over the raw bytes, the event is stored, the processor gets its 2xx
  // at once, and the event is applied after the answer (and retried from the inbox if it cannot be yet).
  router.post(`${BILLING_WEBHOOK_PATH}/:processor`, async (req: Request, res) => {
    const { processor } = parseInput(WebhookParams, req.params, 'processor');
    // Over the limit or cut off: the kit's error handler answers what the raw reader found (413, 400).
    if (res.locals.rawBodyError) throw res.locals.rawBodyError;
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const { id, outcome } = await deps.billing.receiveWebhook(processor, raw, req.headers);
    res.json({ received: true, duplicate: outcome === 'duplicate' });
    if (outcome === 'queued')
      setImmediate(() => {
        deps.billing
          .processWebhook(id)
          .catch((err: unknown) => deps.logger.warn({ err, eventId: id }, 'webhook not applied; the inbox retries'));
      });
  });

  return router;
}
