import { ApiError } from '@kasa/api-client';
import type { WebhookDelivery } from '@kasa/contracts';
import panelsEnglish from '../i18n/panels/en.json';
import {
  DELIVERY_STATUS_TEXT,
  EVENT_TEXT,
  WEBHOOK_EVENT_TYPES,
  atLimit,
  deliveriesOf,
  draftProblems,
  lastResponse,
  refusalOf,
  refusalReason,
  toggledEvents,
} from './webhookRules';

const delivery = (id: string, overrides: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
  id,
  eventId: `evt_${id}`,
  eventType: 'webhook.test',
  status: 'pending',
  attempts: 0,
  lastStatusCode: null,
  lastError: null,
  nextAttemptAt: null,
  createdAt: '2026-12-01T10:00:00.000Z',
  deliveredAt: null,
  replayOf: null,
  ...overrides,
});

describe('the add form’s checks', () => {
  const valid = { url: 'https://example.com/hooks/kasa', description: '', events: ['video.completed'] as const };

  it('accepts a web address with at least one event', () => {
    expect(draftProblems(valid)).toEqual({});
    expect(draftProblems({ ...valid, url: '  http://127.0.0.1:8123/hook  ' })).toEqual({});
  });

  it('asks for a web address within 2048 characters, without a user name or password', () => {
    expect(draftProblems({ ...valid, url: '  ' }).url).toBe('webhooks.problem.urlRequired');
    expect(draftProblems({ ...valid, url: 'example.com/hook' }).url).toBe('webhooks.problem.urlInvalid');
    expect(draftProblems({ ...valid, url: 'ftp://example.com/hook' }).url).toBe('webhooks.problem.urlInvalid');
    expect(draftProblems({ ...valid, url: 'javascript:alert(1)' }).url).toBe('webhooks.problem.urlInvalid');
    expect(draftProblems({ ...valid, url: 'https://ama:secret@example.com/hook' }).url).toBe(
      'webhooks.problem.urlCredentials',
    );
    const long = `https://example.com/${'a'.repeat(2048)}`;
    expect(draftProblems({ ...valid, url: long }).url).toBe('webhooks.problem.urlTooLong');
  });

  it('asks for at least one event and a description within 200 characters', () => {
    expect(draftProblems({ ...valid, events: [] })).toEqual({ events: 'webhooks.problem.eventsRequired' });
    expect(draftProblems({ ...valid, description: 'x'.repeat(200) })).toEqual({});
    expect(draftProblems({ ...valid, description: 'x'.repeat(201) }).description).toBe(
      'webhooks.problem.descriptionTooLong',
    );
  });

  it('keeps the chosen events in the API’s order, each once', () => {
    expect(toggledEvents(['key.revoked'], 'video.completed', true)).toEqual(['video.completed', 'key.revoked']);
    expect(toggledEvents(['video.completed', 'key.revoked'], 'video.completed', true)).toEqual([
      'video.completed',
      'key.revoked',
    ]);
    expect(toggledEvents(['video.completed', 'key.revoked'], 'video.completed', false)).toEqual(['key.revoked']);
  });
});

describe('the API’s refusals', () => {
  it('tells a private address and the plan’s limit by their codes', () => {
    const notAllowed = new ApiError(400, 'url is not allowed', { code: 'webhook_url_not_allowed' });
    const limit = new ApiError(403, 'limit', { code: 'webhook_limit_reached' });
    expect(refusalOf(notAllowed)).toBe('url_not_allowed');
    expect(refusalOf(limit)).toBe('limit_reached');
  });

  it('leaves every other failure to the general wording', () => {
    expect(refusalOf(new ApiError(400, 'url must be a URL', { code: 'validation_error' }))).toBeNull();
    expect(refusalOf(new ApiError(403, 'forbidden', { code: 'webhook_url_not_allowed' }))).toBeNull();
    expect(refusalOf(new ApiError(502, undefined, undefined))).toBeNull();
    expect(refusalOf(new TypeError('Failed to fetch'))).toBeNull();
  });

  it('gives the API’s reason as a sentence', () => {
    const error = new ApiError(400, 'The address 10.0.0.7 is on a private network', {
      code: 'webhook_url_not_allowed',
    });
    expect(refusalReason(error)).toBe('The address 10.0.0.7 is on a private network.');
    expect(refusalReason(new ApiError(400, 'Not allowed.', {}))).toBe('Not allowed.');
    expect(refusalReason(new ApiError(400, undefined, undefined))).toBe('');
  });

  it('counts the plan’s limit as reached once every endpoint is used', () => {
    expect(atLimit(2, 3)).toBe(false);
    expect(atLimit(3, 3)).toBe(true);
    expect(atLimit(0, 0)).toBe(true);
  });
});

describe('the delivery log', () => {
  it('says the HTTP status when the endpoint answered, else the API’s error, else nothing', () => {
    expect(lastResponse({ lastStatusCode: 500, lastError: 'HTTP 500' })).toBe('HTTP 500');
    expect(lastResponse({ lastStatusCode: 204, lastError: null })).toBe('HTTP 204');
    expect(lastResponse({ lastStatusCode: null, lastError: 'timeout' })).toBe('timeout');
    expect(lastResponse({ lastStatusCode: null, lastError: null })).toBeNull();
    expect(lastResponse({ lastStatusCode: null, lastError: ' ' })).toBeNull();
  });

  it('joins the loaded pages, each delivery once, in the order they came', () => {
    const pages = [{ deliveries: [delivery('c'), delivery('b')] }, { deliveries: [delivery('b'), delivery('a')] }];
    expect(deliveriesOf(pages).map((d) => d.id)).toEqual(['c', 'b', 'a']);
    expect(deliveriesOf(undefined)).toEqual([]);
  });
});

describe('the words it needs', () => {
  it('has a line for every event and every status in the catalogue', () => {
    const ids = [...WEBHOOK_EVENT_TYPES.map((event) => EVENT_TEXT[event]), ...Object.values(DELIVERY_STATUS_TEXT)];
    expect(ids.filter((id) => !(id in panelsEnglish))).toEqual([]);
  });
});
