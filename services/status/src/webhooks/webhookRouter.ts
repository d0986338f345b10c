import {
  CreateWebhookEndpointRequest,
  PLANS,
  UpdateWebhookEndpointRequest,
  WEBHOOK_TEST_EVENT_TYPE,
  WebhookDeliveriesQuery,
  type CreateWebhookEndpointResponse,
  type SubscriptionTier,
  type WebhookDeliveryList,
  type WebhookDeliveryResponse,
  type WebhookEndpointList,
  type WebhookEndpointResponse,
  type WebhookSecretResponse,
} from '@kasa/contracts';
import { NotFoundError, identityOf, parseInput, requireIdentity } from '@kasa/service-kit';
import { Router, type NextFunction, type Request, type Response } from 'express';
import { randomBytes } from 'node:crypto';
import { dashboardRead } from '../analytics/analyticsRouter';
import type { ReadLimits } from '../queries/queryLimits';
import { toWebhookDelivery, type WebhookDeliveryStore } from './deliveryStore';
import { toWebhookEndpoint, type WebhookEndpointStore } from './endpointStore';
import { EndpointDisabledError, SecretsUnavailableError, WebhookUrlError } from './webhookErrors';
import { messageBody } from './webhookEvents';
import { resolveWebhookTarget, WebhookTargetError, type HostLookup } from './webhookTarget';

/** How long checking a URL's host at registration may take. */
const URL_CHECK_TIMEOUT_MS = 5_000;

export interface WebhookRouterDeps {
  endpoints: WebhookEndpointStore;
  deliveries: WebhookDeliveryStore;
  /** WEBHOOKS_ALLOW_PRIVATE_NETWORKS. */
  allowPrivateNetworks: boolean;
  /** Time limit of each query (STATUS_QUERY_TIMEOUT_MS). */
  queryTimeoutMs: number;
  lookup?: HostLookup;
  /** Wakes the delivery worker once a test message or a replay is waiting. */
  delivered?: () => void;
}

/** How many endpoints a plan allows (the plans table). */
export const endpointLimit = (tier: SubscriptionTier): number => PLANS[tier].limits.webhookEndpoints;

const notFound = () => new NotFoundError('No such webhook endpoint');

/**
 * The developer's webhook endpoints and their delivery log (`/api/developer/webhooks*`, through the gateway with a
 * token or an API key with the `analytics` scope). Everything is the caller's own: another person's endpoint or
 * delivery is 404, as is an id that does not exist.
 */
export function createWebhookRouter(deps: WebhookRouterDeps): Router {
  const { endpoints, deliveries } = deps;
  const writeLimits: ReadLimits = { maxTimeMS: deps.queryTimeoutMs };
  const reads = { queryTimeoutMs: deps.queryTimeoutMs };
  const router = Router();
  router.use('/api/developer/webhooks', requireIdentity(), (_req, res, next) => {
    // Secrets are answered here: no cache keeps them.
    res.set('Cache-Control', 'private, no-store');
    next();
  });

  const change =
    (handler: (req: Request, res: Response) => Promise<void>) =>
    async (req: Request, res: Response, next: NextFunction): Promise<void> => {
      try {
        await handler(req, res);
      } catch (err) {
        next(err);
      }
    };

  /** Refuses a URL that is not https:// or whose host is internal or does not resolve (unless allowed). */
  const checkUrl = async (url: string): Promise<void> => {
    const signal = AbortSignal.timeout(URL_CHECK_TIMEOUT_MS);
    try {
      await resolveWebhookTarget(url, { allowPrivateNetworks: deps.allowPrivateNetworks, lookup: deps.lookup, signal });
    } catch (err) {
      if (err instanceof WebhookTargetError) throw new WebhookUrlError(err.message);
      if (signal.aborted) throw new WebhookUrlError(`The host ${new URL(url).hostname} could not be resolved in time`);
      throw err;
    }
  };

  const ownEndpoint = async (res: Response, id: string, limits: ReadLimits) => {
    const endpoint = await endpoints.get(identityOf(res).userId, id, limits);
    if (!endpoint) throw notFound();
    return endpoint;
  };

  router.get(
    '/api/developer/webhooks',
    dashboardRead(reads, async (_req, res, limits): Promise<WebhookEndpointList> => {
      const who = identityOf(res);
      const list = await endpoints.list(who.userId, limits);
      return { endpoints: list.map(toWebhookEndpoint), limit: endpointLimit(who.tier) };
    }),
  );

  router.post(
    '/api/developer/webhooks',
    change(async (req, res) => {
      const who = identityOf(res);
      const input = parseInput(CreateWebhookEndpointRequest, req.body);
      if (!endpoints.secretsStorable) throw new SecretsUnavailableError();
      await checkUrl(input.url);
      const created = await endpoints.create(who, input, endpointLimit(who.tier), writeLimits);
      const body: CreateWebhookEndpointResponse = {
        endpoint: toWebhookEndpoint(created.endpoint),
        secret: created.secret,
      };
      res.status(201).json(body);
    }),
  );

  router.patch(
    '/api/developer/webhooks/:id',
    change(async (req, res) => {
      const patch = parseInput(UpdateWebhookEndpointRequest, req.body ?? {});
      await ownEndpoint(res, String(req.params.id), writeLimits);
      if (patch.url !== undefined) await checkUrl(patch.url);
      const updated = await endpoints.update(identityOf(res).userId, String(req.params.id), patch, writeLimits);
      if (!updated) throw notFound();
      res.json({ endpoint: toWebhookEndpoint(updated) } satisfies WebhookEndpointResponse);
    }),
  );

  router.delete(
    '/api/developer/webhooks/:id',
    change(async (req, res) => {
      const id = String(req.params.id);
      if (!(await endpoints.remove(identityOf(res).userId, id, writeLimits))) throw notFound();
      // Its log goes with it; a delivery being attempted right now finds the endpoint gone and is dropped.
      await deliveries.deleteForEndpoint(id, writeLimits);
      res.status(204).end();
    }),
  );

  router.post(
    '/api/developer/webhooks/:id/secret',
    change(async (req, res) => {
      const id = String(req.params.id);
      await ownEndpoint(res, id, writeLimits);
      const secret = await endpoints.rotateSecret(identityOf(res).userId, id, writeLimits);
      if (!secret) throw notFound();
      res.json({ secret } satisfies WebhookSecretResponse);
    }),
  );

  router.post(
    '/api/developer/webhooks/:id/test',
    change(async (req, res) => {
      const endpoint = await ownEndpoint(res, String(req.params.id), writeLimits);
      if (!endpoint.enabled) throw new EndpointDisabledError();
      const delivery = await deliveries.enqueue(
        {
          endpointId: endpoint._id,
          userId: endpoint.userId,
          // Standard Webhooks' message ids look like this.
          eventId: `msg_${randomBytes(16).toString('base64url')}`,
          eventType: WEBHOOK_TEST_EVENT_TYPE,
          body: messageBody(WEBHOOK_TEST_EVENT_TYPE, new Date().toISOString(), { endpointId: endpoint._id }),
        },
        writeLimits,
      );
      deps.delivered?.();
      res.status(202).json({ delivery: toWebhookDelivery(delivery) } satisfies WebhookDeliveryResponse);
    }),
  );

  router.get(
    '/api/developer/webhooks/:id/deliveries',
    dashboardRead(reads, async (req, res, limits): Promise<WebhookDeliveryList> => {
      const query = parseInput(WebhookDeliveriesQuery, req.query, 'query');
      const endpoint = await ownEndpoint(res, String(req.params.id), limits);
      const page = await deliveries.page(endpoint._id, query, limits);
      return { deliveries: page.deliveries.map(toWebhookDelivery), nextCursor: page.nextCursor };
    }),
  );

  router.post(
    '/api/developer/webhooks/:id/deliveries/:deliveryId/replay',
    change(async (req, res) => {
      const endpoint = await ownEndpoint(res, String(req.params.id), writeLimits);
      const original = await deliveries.get(endpoint._id, String(req.params.deliveryId), writeLimits);
      if (!original) throw new NotFoundError('No such delivery');
      if (!endpoint.enabled) throw new EndpointDisabledError();
      const replay = await deliveries.replay(original, writeLimits);
      deps.delivered?.();
      res.status(202).json({ delivery: toWebhookDelivery(replay) } satisfies WebhookDeliveryResponse);
    }),
  );

  return router;
}
