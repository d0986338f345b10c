import type { QueryFunction } from '@tanstack/react-query';
import { clearToken, getToken } from './token';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * A non-OK answer from the Kasa API. `message` follows the spec's client format, `<status>: <message>`, or
 * `HTTP error! status: <status>` when the body has no message or is not JSON; `serverMessage` is the body's
 * message alone (undefined when absent), for screens that show it without the status.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    readonly serverMessage: string | undefined,
    readonly body: unknown,
  ) {
    super(serverMessage ? `${status}: ${serverMessage}` : `HTTP error! status: ${status}`);
  }
}

/** True for an ApiError, also when it crossed a bundle boundary (checked by name, not only by prototype). */
export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError || (error instanceof Error && error.name === 'ApiError' && 'status' in error);
}

function authHeaders(): Record<string, string> {
  const token = getToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
}

function messageOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || !('message' in body)) return undefined;
  const { message } = body as { message: unknown };
  return typeof message === 'string' && message.trim() !== '' ? message : undefined;
}

async function toApiError(response: Response): Promise<ApiError> {
  let body: unknown;
  try {
    const text = await response.text();
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined; // not JSON: the message falls back to the status alone
  }
  return new ApiError(response.status, messageOf(body), body);
}

/** Per-call options of `apiRequest`: what to accept (a stream, say) and a signal to cancel the call. */
export interface ApiRequestOptions {
  /** The Accept header; `application/json` by default (`text/event-stream` for a streamed reply). */
  accept?: string;
  /** Aborts the request, and the reading of a streamed body. */
  signal?: AbortSignal;
  /**
   * Gives up after this many milliseconds with an Error named `TimeoutError` (see `isTimeout`), so that a slow
   * back end costs the person a bounded wait instead of the gateway's whole timeout. No limit by default.
   */
  timeoutMs?: number;
}

/** The request's signal: the caller's, the time limit's, or one that aborts on either. */
function signalOf(options: ApiRequestOptions): AbortSignal | undefined {
  const limit = options.timeoutMs === undefined ? undefined : AbortSignal.timeout(options.timeoutMs);
  if (!limit) return options.signal;
  return options.signal ? AbortSignal.any([options.signal, limit]) : limit;
}

/**
 * Calls the Kasa API from the browser: bearer token when one is stored, cookies included, JSON body when given.
 * Resolves with the (OK) Response; rejects with an ApiError otherwise. A 401 also removes the stored token,
 * since the server no longer accepts it.
 */
export async function apiRequest(
  method: HttpMethod,
  url: string,
  body?: unknown,
  options: ApiRequestOptions = {},
): Promise<Response> {
  const headers: Record<string, string> = { Accept: options.accept ?? 'application/json', ...authHeaders() };
  const init: RequestInit = { method, headers, credentials: 'include' };
  const signal = signalOf(options);
  if (signal) init.signal = signal;
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const response = await fetch(url, init);
  if (!response.ok) {
    if (response.status === 401) clearToken();
    throw await toApiError(response);
  }
  return response;
}

/** `apiRequest` plus JSON parsing of the answer, typed by the caller (use a contract type). */
export async function apiJson<T>(
  method: HttpMethod,
  url: string,
  body?: unknown,
  options: Omit<ApiRequestOptions, 'accept'> = {},
): Promise<T> {
  const response = await apiRequest(method, url, body, options);
  return (await response.json()) as T;
}

/** Joins the parts of a query key into a URL: `['/api/chat/sessions', id, 'messages']` → `/api/chat/sessions/<id>/messages`. */
export function queryKeyToUrl(queryKey: readonly unknown[]): string {
  return queryKey
    .map((part) => {
      if (typeof part === 'string' || typeof part === 'number') return String(part);
      throw new TypeError(`query key parts must be strings or numbers to form a URL, got ${typeof part}`);
    })
    .join('/');
}

export type UnauthorizedBehavior = 'returnNull' | 'throw';

/**
 * The default react-query fetcher: GETs the URL made of the query key's parts. On 401 it returns null
 * (`returnNull`) or throws (`throw`); either way the stored token is removed. Other failures throw
 * `Error("<status>: <response text or status text>")`.
 */
export function getQueryFn<T>(options: { on401: UnauthorizedBehavior }): QueryFunction<T | null> {
  return async ({ queryKey, signal }) => {
    const response = await fetch(queryKeyToUrl(queryKey), { headers: authHeaders(), credentials: 'include', signal });
    if (response.status === 401) {
      clearToken();
      if (options.on401 === 'returnNull') return null;
    }
    if (!response.ok) {
      const text = await response.text().catch(() => '');
      throw new Error(`${response.status}: ${text || response.statusText}`);
    }
    return (await response.json()) as T;
  };
}
