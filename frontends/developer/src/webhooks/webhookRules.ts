// What the Webhooks tab checks and shows, as plain functions: the add form's checks (the API's own limits), the API's
// refusals by their code, and the delivery log's words. No zod here, so that it stays out of the browser bundle.
import { isApiError } from '@kasa/api-client';
import type { WebhookDelivery, WebhookDeliveryStatus, WebhookEventType } from '@kasa/contracts';
import type { PanelsMessageId } from '../i18n/panels/usePanelsT';

/** The events a developer can subscribe to, in the API's order. */
export const WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = [
  'video.completed',
  'video.failed',
  'plan.changed',
  'key.revoked',
  'quota.threshold_reached',
];

/** What each event means, in a line (the event's name is code and stays as it is). */
export const EVENT_TEXT: Record<WebhookEventType, PanelsMessageId> = {
  'video.completed': 'webhooks.event.videoCompleted',
  'video.failed': 'webhooks.event.videoFailed',
  'plan.changed': 'webhooks.event.planChanged',
  'key.revoked': 'webhooks.event.keyRevoked',
  'quota.threshold_reached': 'webhooks.event.quotaThresholdReached',
};

export const DELIVERY_STATUS_TEXT: Record<WebhookDeliveryStatus, PanelsMessageId> = {
  pending: 'webhooks.delivery.pending',
  delivered: 'webhooks.delivery.delivered',
  failed: 'webhooks.delivery.failed',
};

/** Each status has a shape as well as a colour, so it never rests on colour alone. */
export const DELIVERY_STATUS_MARKS: Record<WebhookDeliveryStatus, string> = {
  pending: '○',
  delivered: '●',
  failed: '■',
};

export const DELIVERY_STATUS_COLOURS: Record<WebhookDeliveryStatus, string> = {
  pending: 'var(--kasa-warning)',
  delivered: 'var(--kasa-success)',
  failed: 'var(--kasa-danger)',
};

/** The API's limits on an endpoint's address and description. */
export const URL_MAX = 2048;
export const DESCRIPTION_MAX = 200;

export interface EndpointDraft {
  url: string;
  description: string;
  events: readonly WebhookEventType[];
}

export interface DraftProblems {
  url?: PanelsMessageId;
  description?: PanelsMessageId;
  events?: PanelsMessageId;
}

/**
 * What is wrong with the add form before it is sent: an address that is missing, too long, not a web address or with a
 * user name in it, a description over the limit, no event. Whether the address may be reached at all (https only, no private networks)
 * is the server's to say, by its refusal.
 */
export function draftProblems(draft: EndpointDraft): DraftProblems {
  const problems: DraftProblems = {};
  const url = draft.url.trim();
  if (!url) problems.url = 'webhooks.problem.urlRequired';
  else if (url.length > URL_MAX) problems.url = 'webhooks.problem.urlTooLong';
  else if (!isWebAddress(url)) problems.url = 'webhooks.problem.urlInvalid';
  else if (hasCredentials(url)) problems.url = 'webhooks.problem.urlCredentials';
  if (draft.description.trim().length > DESCRIPTION_MAX) problems.description = 'webhooks.problem.descriptionTooLong';
  if (draft.events.length === 0) problems.events = 'webhooks.problem.eventsRequired';
  return problems;
}

const hasCredentials = (text: string): boolean => {
  const url = new URL(text);
  return url.username !== '' || url.password !== '';
};

function isWebAddress(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** The chosen events in the API's order, each once. */
export function toggledEvents(
  current: readonly WebhookEventType[],
  event: WebhookEventType,
  on: boolean,
): WebhookEventType[] {
  return WEBHOOK_EVENT_TYPES.filter((candidate) => (candidate === event ? on : current.includes(candidate)));
}

/** The refusals the tab words itself (each says what to do), by the API's error code; anything else is null. */
export type EndpointRefusal = 'url_not_allowed' | 'limit_reached';

export function refusalOf(error: unknown): EndpointRefusal | null {
  if (!isApiError(error)) return null;
  const code = (error.body as { code?: unknown } | undefined)?.code;
  if (error.status === 400 && code === 'webhook_url_not_allowed') return 'url_not_allowed';
  if (error.status === 403 && code === 'webhook_limit_reached') return 'limit_reached';
  return null;
}

/** What the API said about a refusal, as a sentence (it names the reason, e.g. the address that is internal). */
export function refusalReason(error: unknown): string {
  const said = isApiError(error) ? (error.serverMessage?.trim() ?? '') : '';
  if (!said) return '';
  return /[.!?]$/.test(said) ? said : `${said}.`;
}

/** Whether the person already has as many endpoints as the plan allows. */
export const atLimit = (count: number, limit: number): boolean => count >= limit;

/**
 * The last answer of a delivery in a few words: the HTTP status (`HTTP 500`) when the endpoint answered, else the
 * API's short error as it came (`timeout`, `address not allowed`); null before the first attempt.
 */
export function lastResponse(delivery: Pick<WebhookDelivery, 'lastStatusCode' | 'lastError'>): string | null {
  if (delivery.lastStatusCode !== null) return `HTTP ${delivery.lastStatusCode}`;
  return delivery.lastError?.trim() ? delivery.lastError : null;
}

/** The loaded pages of a delivery log as one list, each delivery once (newest first, as the API gives them). */
export function deliveriesOf(pages: ReadonlyArray<{ deliveries: readonly WebhookDelivery[] }> | undefined) {
  const seen = new Set<string>();
  const all: WebhookDelivery[] = [];
  for (const page of pages ?? []) {
    for (const delivery of page.deliveries) {
      if (seen.has(delivery.id)) continue;
      seen.add(delivery.id);
      all.push(delivery);
    }
  }
  return all;
}
