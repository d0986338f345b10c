import type { Operation } from './openapi';
import {
  CreateWebhookEndpointRequest,
  CreateWebhookEndpointResponse,
  UpdateWebhookEndpointRequest,
  WebhookDeliveriesQuery,
  WebhookDeliveryList,
  WebhookDeliveryResponse,
  WebhookEndpointList,
  WebhookEndpointResponse,
  WebhookSecretResponse,
} from './webhooks';
import { z } from './zod';

const endpointId = { id: z.string() };

/**
 * Developer webhooks (the status service): endpoints that receive Kasa's events as Standard Webhooks messages (POST,
 * JSON body `{type, timestamp, data}`, headers `webhook-id`, `webhook-timestamp`, `webhook-signature`), retried
 * with backoff for about a day, with a log of every delivery. Another person's endpoint or delivery is 404.
 */
export const webhookOperations: Operation[] = [
  {
    method: 'get',
    path: '/api/developer/webhooks',
    summary:
      'The caller’s webhook endpoints, oldest first, and how many the plan allows (Free 1, Pro 10, Enterprise 50)',
    tag: 'Webhooks',
    auth: true,
    response: WebhookEndpointList,
  },
  {
    method: 'post',
    path: '/api/developer/webhooks',
    summary:
      'Register an endpoint for events (video.completed, video.failed, plan.changed, key.revoked, ' +
      'quota.threshold_reached). Answers with its signing secret (`whsec_…`), shown this once. 400 ' +
      '`webhook_url_not_allowed` when the URL is not https:// or its host resolves to a private, loopback, ' +
      'link-local or otherwise internal address; 403 `webhook_limit_reached` over the plan’s number of endpoints; ' +
      '409 when the server cannot store signing secrets',
    tag: 'Webhooks',
    auth: true,
    body: CreateWebhookEndpointRequest,
    response: CreateWebhookEndpointResponse,
    successStatus: 201,
    errors: [403, 409],
  },
  {
    method: 'patch',
    path: '/api/developer/webhooks/{id}',
    summary:
      'Change one of the caller’s endpoints: url (checked as on registration), description, events, or enabled ' +
      '(false: no new deliveries, and those waiting are not sent)',
    tag: 'Webhooks',
    auth: true,
    params: endpointId,
    body: UpdateWebhookEndpointRequest,
    response: WebhookEndpointResponse,
    successStatus: 200,
    errors: [404],
  },
  {
    method: 'delete',
    path: '/api/developer/webhooks/{id}',
    summary: 'Delete one of the caller’s endpoints and its delivery log; deliveries still waiting are not sent',
    tag: 'Webhooks',
    auth: true,
    params: endpointId,
    successStatus: 204,
    responseDescription: 'Deleted',
    errors: [404],
  },
  {
    method: 'post',
    path: '/api/developer/webhooks/{id}/secret',
    summary:
      'A new signing secret for one of the caller’s endpoints, shown this once; the old one stops signing at once ' +
      '(attempts from then on, retries included, are signed with the new one)',
    tag: 'Webhooks',
    auth: true,
    params: endpointId,
    response: WebhookSecretResponse,
    successStatus: 200,
    errors: [404, 409],
  },
  {
    method: 'post',
    path: '/api/developer/webhooks/{id}/test',
    summary:
      'Send a `webhook.test` message (data `{endpointId}`) to one of the caller’s endpoints; 409 while it is disabled',
    tag: 'Webhooks',
    auth: true,
    params: endpointId,
    response: WebhookDeliveryResponse,
    successStatus: 202,
    errors: [404, 409],
  },
  {
    method: 'get',
    path: '/api/developer/webhooks/{id}/deliveries',
    summary:
      'The delivery log of one of the caller’s endpoints, newest first, a page at a time (?limit=1–100, default 25; ' +
      '?before=<nextCursor>): status, attempts, the last answer’s status code or error, the next attempt. Kept 30 days',
    tag: 'Webhooks',
    auth: true,
    params: endpointId,
    query: WebhookDeliveriesQuery,
    response: WebhookDeliveryList,
    errors: [404],
  },
  {
    method: 'post',
    path: '/api/developer/webhooks/{id}/deliveries/{deliveryId}/replay',
    summary:
      'Send a delivery again as a new delivery (`replayOf` names the first): the same event id (`webhook-id`) and ' +
      'body, signed anew; 409 while the endpoint is disabled',
    tag: 'Webhooks',
    auth: true,
    params: { id: z.string(), deliveryId: z.string() },
    response: WebhookDeliveryResponse,
    successStatus: 202,
    errors: [404, 409],
  },
];
