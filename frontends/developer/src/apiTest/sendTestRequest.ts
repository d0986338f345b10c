import type { PanelsTranslate } from '../i18n/panels/usePanelsT';
import type { Method } from '../openapi/operations';

export interface TestRequest {
  method: Method;
  /** A same-origin path with its parameters filled in, query included. */
  url: string;
  /** The key field as typed; empty: the call goes without credentials. */
  apiKey: string;
  /** Sent as typed for methods other than GET (spec section 5: not checked to be JSON). */
  body: string;
}

export interface TestResponse {
  status: number;
  statusText: string;
  timeMs: number;
  headers: Array<[name: string, value: string]>;
  /** Pretty-printed JSON when the body is JSON, else the text as it came; '' for an empty body. */
  body: string;
}

/** Formats a response body: indented JSON when it parses, else the text unchanged. */
export function formatBody(text: string): string {
  if (!text.trim()) return '';
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/**
 * Calls the API the way a developer's program would: the key as a bearer token, the body as typed, no cookies.
 * This is deliberately not the app's api-client: a 401 here is a verdict on the typed key, and must not sign the
 * person out of the portal. Rejects only when no answer arrives (network failure).
 */
export async function sendTestRequest(request: TestRequest, now: () => number = () => performance.now()) {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const key = request.apiKey.trim();
  if (key) headers.Authorization = `Bearer ${key}`;
  const init: RequestInit = { method: request.method, headers, credentials: 'omit', cache: 'no-store' };
  if (request.method !== 'GET' && request.body !== '') {
    headers['Content-Type'] = 'application/json';
    init.body = request.body;
  }
  const started = now();
  const response = await fetch(request.url, init);
  const text = await response.text();
  const result: TestResponse = {
    status: response.status,
    statusText: response.statusText,
    timeMs: Math.round(now() - started),
    headers: [...response.headers.entries()].sort(([a], [b]) => a.localeCompare(b)),
    body: formatBody(text),
  };
  return result;
}

/** Spec section 8: the tester's failure line, 'Error: <message>' (the browser's own message) or 'Unknown error'. */
export function describeTestFailure(t: PanelsTranslate, error: unknown): string {
  return error instanceof Error && error.message
    ? t('apiTest.error', { message: error.message })
    : t('apiTest.unknownError');
}
