import { WebhookErrorCode, type SubscriptionTier } from '@kasa/contracts';
import { ConflictError, HttpError, InputError, planName } from '@kasa/service-kit';

/** 403 `webhook_limit_reached`: the plan's number of endpoints is registered already. */
export class WebhookLimitError extends HttpError {
  constructor(tier: SubscriptionTier, limit: number) {
    super(
      403,
      WebhookErrorCode.limitReached,
      `The ${planName(tier)} plan allows ${limit} webhook endpoint${limit === 1 ? '' : 's'}. Delete one, or upgrade ` +
        'your plan for more.',
      { limit, plan: tier },
    );
  }
}

/** 400 `webhook_url_not_allowed`: not https://, or the host is internal (or does not resolve). */
export class WebhookUrlError extends InputError {
  constructor(message: string) {
    super(message, undefined, WebhookErrorCode.urlNotAllowed);
  }
}

/** 409: production without STATUS_SECRETS_KEY, where a signing secret could not be kept. */
export class SecretsUnavailableError extends ConflictError {
  constructor() {
    super(
      'Webhook signing secrets cannot be stored on this server: its operator has not set STATUS_SECRETS_KEY. ' +
        'Try again once it is set.',
    );
  }
}

/** 409: a test message or a replay for an endpoint that is switched off. */
export class EndpointDisabledError extends ConflictError {
  constructor() {
    super('This endpoint is disabled: enable it first');
  }
}
