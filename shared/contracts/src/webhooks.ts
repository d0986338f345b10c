import { SubscriptionTier } from './auth';
import { z } from './zod';

/**
 * Developer webhooks (the status service): endpoints a developer registers, the events each subscribes to, and the
 * log of deliveries. Messages are signed per the Standard Webhooks specification (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature: v1,<base64>`).
 */

/** The events a developer can subscribe an endpoint to. */
export const WEBHOOK_EVENT_TYPES = [
  'video.completed',
  'video.failed',
  'plan.changed',
  'key.revoked',
  'quota.threshold_reached',
] as const;
export const WebhookEventType = z.enum(WEBHOOK_EVENT_TYPES).openapi('WebhookEventType');
export type WebhookEventType = z.infer<typeof WebhookEventType>;

/** The type of the message `POST /api/developer/webhooks/{id}/test` sends; nobody subscribes to it. */
export const WEBHOOK_TEST_EVENT_TYPE = 'webhook.test';
/** The type a delivery carries: a subscribable event, or the test message. */
export const WebhookDeliveryEventType = z.enum([...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT_TYPE]);
export type WebhookDeliveryEventType = z.infer<typeof WebhookDeliveryEventType>;

/** The bounds of the webhook API. */
export const WEBHOOK_LIMITS = {
  urlChars: 2_048,
  descriptionChars: 200,
  /** Deliveries in one page of the log: at most 100, 25 unless asked. */
  deliveriesPage: 100,
  deliveriesPageDefault: 25,
  /** How long the delivery log keeps a delivery. */
  deliveryRetentionDays: 30,
} as const;

/** The error codes of the webhook API, beside the shared ones (ErrorCode). */
export const WebhookErrorCode = {
  /** 403: the plan's number of endpoints is reached (`details.limit`, `details.plan`). */
  limitReached: 'webhook_limit_reached',
  /** 400: the URL is not https://, or its host is private, loopback, link-local or otherwise internal. */
  urlNotAllowed: 'webhook_url_not_allowed',
} as const;

/**
 * Where deliveries go: an https:// URL (http:// is accepted by the server only when its operator allows private
 * networks), without a user name or password in it.
 */
export const WebhookUrl = z
  .string({ error: 'url is required' })
  .trim()
  .max(WEBHOOK_LIMITS.urlChars, `url must be at most ${WEBHOOK_LIMITS.urlChars} characters`)
  .pipe(z.url({ protocol: /^https?$/, error: 'url must be an https:// URL' }))
  .refine((value) => {
    const url = new URL(value);
    return url.username === '' && url.password === '';
  }, 'url must not contain a user name or password');

const WebhookDescription = z
  .string({ error: 'description must be text' })
  .trim()
  .max(WEBHOOK_LIMITS.descriptionChars, `description must be at most ${WEBHOOK_LIMITS.descriptionChars} characters`)
  .regex(/^[^\p{Cc}]*$/u, 'description must not contain control characters');

const WebhookEvents = z
  .array(WebhookEventType, { error: `events must be a list of: ${WEBHOOK_EVENT_TYPES.join(', ')}` })
  .min(1, 'events must name at least one event')
  .max(WEBHOOK_EVENT_TYPES.length)
  .refine((events) => new Set(events).size === events.length, 'events must not repeat an event');

export const CreateWebhookEndpointRequest = z
  .object({
    url: WebhookUrl,
    description: WebhookDescription.optional(),
    events: WebhookEvents,
  })
  .strict()
  .openapi('CreateWebhookEndpointRequest');
export type CreateWebhookEndpointRequest = z.infer<typeof CreateWebhookEndpointRequest>;

export const UpdateWebhookEndpointRequest = z
  .object({
    url: WebhookUrl.optional(),
    description: WebhookDescription.optional(),
    events: WebhookEvents.optional(),
    /** false: no new deliveries are made for it, and those waiting are not sent. */
    enabled: z.boolean({ error: 'enabled must be true or false' }).optional(),
  })
  .strict()
  .openapi('UpdateWebhookEndpointRequest');
export type UpdateWebhookEndpointRequest = z.infer<typeof UpdateWebhookEndpointRequest>;

/** An endpoint as its owner sees it: never its signing secret. */
export const WebhookEndpoint = z
  .object({
    id: z.string(),
    url: z.string(),
    /** Empty when none was given. */
    description: z.string(),
    events: z.array(WebhookEventType),
    enabled: z.boolean(),
    createdAt: z.string().datetime(),
    updatedAt: z.string().datetime(),
  })
  .openapi('WebhookEndpoint');
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

export const WebhookEndpointList = z
  .object({
    endpoints: z.array(WebhookEndpoint),
    /** How many endpoints the caller's plan allows. */
    limit: z.number().int().nonnegative(),
  })
  .openapi('WebhookEndpointList');
export type WebhookEndpointList = z.infer<typeof WebhookEndpointList>;

/** A signing secret: `whsec_` and the base64 of 32 random bytes, as Standard Webhooks' libraries take it. */
export const WebhookSecret = z.string().regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/);

export const CreateWebhookEndpointResponse = z
  .object({
    endpoint: WebhookEndpoint,
    /** The signing secret, shown in this response only. */
    secret: WebhookSecret,
  })
  .openapi('CreateWebhookEndpointResponse');
export type CreateWebhookEndpointResponse = z.infer<typeof CreateWebhookEndpointResponse>;

export const WebhookEndpointResponse = z.object({ endpoint: WebhookEndpoint }).openapi('WebhookEndpointResponse');
export type WebhookEndpointResponse = z.infer<typeof WebhookEndpointResponse>;

export const WebhookSecretResponse = z
  .object({
    /** The new signing secret, shown in this response only; the old one no longer signs. */
    secret: WebhookSecret,
  })
  .openapi('WebhookSecretResponse');
export type WebhookSecretResponse = z.infer<typeof WebhookSecretResponse>;

/** `pending`: waiting for its next attempt; `delivered`: answered 2xx; `failed`: every retry used up. */
export const WebhookDeliveryStatus = z.enum(['pending', 'delivered', 'failed']);
export type WebhookDeliveryStatus = z.infer<typeof WebhookDeliveryStatus>;

export const WebhookDelivery = z
  .object({
    id: z.string(),
    /** The message's `webhook-id`: the same on every retry and replay. */
    eventId: z.string(),
    eventType: WebhookDeliveryEventType,
    status: WebhookDeliveryStatus,
    attempts: z.number().int().nonnegative(),
    lastStatusCode: z.number().int().nullable(),
    /** Why the last attempt failed, in a few words (`timeout`, `HTTP 500`, `address not allowed`). */
    lastError: z.string().nullable(),
    nextAttemptAt: z.string().datetime().nullable(),
    createdAt: z.string().datetime(),
    deliveredAt: z.string().datetime().nullable(),
    /** The delivery this one replays. */
    replayOf: z.string().nullable(),
  })
  .openapi('WebhookDelivery');
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveryResponse = z.object({ delivery: WebhookDelivery }).openapi('WebhookDeliveryResponse');
export type WebhookDeliveryResponse = z.infer<typeof WebhookDeliveryResponse>;

export const WebhookDeliveryList = z
  .object({
    deliveries: z.array(WebhookDelivery),
    /** Pass as `before` for the next (older) page; null on the last page. */
    nextCursor: z.string().nullable(),
  })
  .openapi('WebhookDeliveryList');
export type WebhookDeliveryList = z.infer<typeof WebhookDeliveryList>;

export const WebhookDeliveriesQuery = z.object({
  /** Deliveries per page, newest first (1–100, default 25). */
  limit: z.coerce
    .number({ error: 'limit must be a whole number from 1 to 100' })
    .int('limit must be a whole number from 1 to 100')
    .min(1, 'limit must be a whole number from 1 to 100')
    .max(WEBHOOK_LIMITS.deliveriesPage, 'limit must be a whole number from 1 to 100')
    .default(WEBHOOK_LIMITS.deliveriesPageDefault),
  /** The `nextCursor` of the page before. */
  before: z.string().min(1).max(100).optional(),
});
export type WebhookDeliveriesQuery = z.infer<typeof WebhookDeliveriesQuery>;

/* What an endpoint receives: the JSON body of each message, by type. */

export const VideoWebhookData = z.object({ jobId: z.string(), status: z.enum(['succeeded', 'failed']) });
export const PlanChangedWebhookData = z.object({ from: SubscriptionTier, to: SubscriptionTier });
export const KeyRevokedWebhookData = z.object({
  keyId: z.string(),
  /** The key's first eight characters (`ksk_ab12`), never the key. */
  prefix: z.string(),
});
export const QuotaThresholdWebhookData = z.object({
  /** Percent of the month's calls used: 80, or 100 (the quota is used up). */
  threshold: z.union([z.literal(80), z.literal(100)]),
  used: z.number().int().nonnegative(),
  limit: z.number().int().positive(),
  /** The calendar month (UTC), `YYYY-MM`. */
  period: z.string().regex(/^\d{4}-\d{2}$/),
});
export const TestWebhookData = z.object({ endpointId: z.string() });

const message = <T extends string, D extends z.ZodType>(type: T, data: D) =>
  z.object({ type: z.literal(type), timestamp: z.string().datetime(), data });

/** The body of a webhook message (`content-type: application/json`). */
export const WebhookMessage = z
  .discriminatedUnion('type', [
    message('video.completed', VideoWebhookData),
    message('video.failed', VideoWebhookData),
    message('plan.changed', PlanChangedWebhookData),
    message('key.revoked', KeyRevokedWebhookData),
    message('quota.threshold_reached', QuotaThresholdWebhookData),
    message(WEBHOOK_TEST_EVENT_TYPE, TestWebhookData),
  ])
  .openapi('WebhookMessage');
export type WebhookMessage = z.infer<typeof WebhookMessage>;
export type WebhookMessageData<T extends WebhookDeliveryEventType> = Extract<WebhookMessage, { type: T }>['data'];
