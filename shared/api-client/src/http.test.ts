import { ApiError, apiRequest, getQueryFn, isApiError, queryKeyToUrl } from './http';
import { TOKEN_STORAGE_KEY, getToken, setToken, subscribeToken } from './token';
import type { QueryFunctionContext } from '@tanstack/react-query';

/** A Map-backed localStorage: Node has none, and the token helpers only need these three calls. */
class MemoryStorage {
  private readonly items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
}

const fetchMock = jest.fn<Promise<Response>, [RequestInfo | URL, RequestInit | undefined]>();

function respond(status: number, body: string | undefined, headers: Record<string, string> = {}): void {
  fetchMock.mockResolvedValueOnce(new Response(body ?? null, { status, headers }));
}

function jsonBody(value: unknown): string {
  return JSON.stringify(value);
}

function lastInit(): RequestInit {
  const call = fetchMock.mock.calls.at(-1);
  if (!call?.[1]) throw new Error('fetch was not called with an init object');
  return call[1];
}

function queryContext(queryKey: readonly unknown[]): QueryFunctionContext {
  return { queryKey, signal: new AbortController().signal, meta: undefined } as unknown as QueryFunctionContext;
}

beforeEach(() => {
  fetchMock.mockReset();
  Object.defineProperty(globalThis, 'fetch', { value: fetchMock, configurable: true, writable: true });
  Object.defineProperty(globalThis, 'localStorage', { value: new MemoryStorage(), configurable: true, writable: true });
});

describe('apiRequest', () => {
  it('sends the stored token as a bearer header and includes credentials', async () => {
    setToken('tok-123');
    respond(200, jsonBody({ ok: true }));

    const response = await apiRequest('GET', '/api/auth/me');

    expect(response.status).toBe(200);
    const init = lastInit();
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/auth/me');
    expect(init.method).toBe('GET');
    expect(init.credentials).toBe('include');
    expect(init.headers).toMatchObject({ Authorization: 'Bearer tok-123' });
    expect(init.body).toBeUndefined();
    expect(init.headers).not.toHaveProperty('Content-Type');
  });

  it('sends no Authorization header when no token is stored', async () => {
    respond(200, jsonBody({}));
    await apiRequest('GET', '/api/personas');
    expect(lastInit().headers).not.toHaveProperty('Authorization');
  });

  it('sends a JSON body with a JSON content type', async () => {
    respond(200, jsonBody({ success: true }));
    await apiRequest('POST', '/api/auth/login', { email: 'a@b.example', password: 'secret1' });
    const init = lastInit();
    expect(init.headers).toMatchObject({ 'Content-Type': 'application/json' });
    expect(init.body).toBe(jsonBody({ email: 'a@b.example', password: 'secret1' }));
  });

  it('sends the Accept header and the abort signal it is given (a streamed reply)', async () => {
    setToken('tok');
    respond(200, 'event: done\ndata: {}\n\n', { 'Content-Type': 'text/event-stream' });
    const controller = new AbortController();

    await apiRequest(
      'POST',
      '/api/chat/sessions/s1/messages',
      { content: 'hi' },
      {
        accept: 'text/event-stream',
        signal: controller.signal,
      },
    );

    const init = lastInit();
    expect(init.headers).toMatchObject({ Accept: 'text/event-stream', Authorization: 'Bearer tok' });
    expect(init.signal).toBe(controller.signal);
  });

  it('throws "<status>: <message>" when the error body has a message', async () => {
    respond(409, jsonBody({ message: 'Email already registered', code: 'conflict', requestId: 'r1' }));

    const error = await apiRequest('POST', '/api/auth/register', {}).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('409: Email already registered');
    expect((error as ApiError).status).toBe(409);
    expect((error as ApiError).serverMessage).toBe('Email already registered');
    expect(isApiError(error)).toBe(true);
  });

  it('throws "HTTP error! status: <status>" when the body is not JSON', async () => {
    respond(502, '<html>Bad gateway</html>', { 'Content-Type': 'text/html' });
    await expect(apiRequest('GET', '/api/status')).rejects.toThrow(new Error('HTTP error! status: 502'));
  });

  it('throws "HTTP error! status: <status>" when the JSON body has no message', async () => {
    respond(500, jsonBody({ code: 'internal_error' }));
    await expect(apiRequest('GET', '/api/status')).rejects.toThrow('HTTP error! status: 500');
  });

  it('throws "HTTP error! status: <status>" when the body is empty', async () => {
    respond(503, undefined);
    await expect(apiRequest('GET', '/api/status')).rejects.toThrow('HTTP error! status: 503');
  });

  it('removes the stored token on 401 and tells subscribers', async () => {
    setToken('expired');
    const listener = jest.fn();
    const unsubscribe = subscribeToken(listener);
    respond(401, jsonBody({ message: 'Invalid or expired token', code: 'unauthenticated' }));

    await expect(apiRequest('GET', '/api/auth/me')).rejects.toThrow('401: Invalid or expired token');

    expect(getToken()).toBeNull();
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    expect(listener).toHaveBeenCalledTimes(1);
    unsubscribe();
  });

  it('keeps the stored token on other errors', async () => {
    setToken('still-good');
    respond(403, jsonBody({ message: 'Forbidden' }));
    await expect(apiRequest('GET', '/api/developer/keys')).rejects.toThrow('403: Forbidden');
    expect(getToken()).toBe('still-good');
  });

  it('lets network failures through unchanged', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    const error = await apiRequest('GET', '/api/status').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(isApiError(error)).toBe(false);
  });
});

describe('getQueryFn', () => {
  it('joins the query key parts with slashes and returns the JSON', async () => {
    setToken('tok');
    respond(200, jsonBody([{ id: 'm1' }]));

    const data = await getQueryFn({ on401: 'throw' })(queryContext(['/api/chat/sessions', 'abc', 'messages']));

    expect(data).toEqual([{ id: 'm1' }]);
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/chat/sessions/abc/messages');
    expect(lastInit().credentials).toBe('include');
    expect(lastInit().headers).toMatchObject({ Authorization: 'Bearer tok' });
  });

  it('returns null on 401 with returnNull, and removes the token', async () => {
    setToken('expired');
    respond(401, jsonBody({ message: 'unauthenticated' }));
    await expect(getQueryFn({ on401: 'returnNull' })(queryContext(['/api/auth/me']))).resolves.toBeNull();
    expect(getToken()).toBeNull();
  });

  it('throws "<status>: <response text>" on 401 with throw, and removes the token', async () => {
    setToken('expired');
    respond(401, 'Unauthorized request');
    await expect(getQueryFn({ on401: 'throw' })(queryContext(['/api/auth/me']))).rejects.toThrow(
      '401: Unauthorized request',
    );
    expect(getToken()).toBeNull();
  });

  it('throws "<status>: <status text>" when the error response has no text', async () => {
    fetchMock.mockResolvedValueOnce(new Response(null, { status: 404, statusText: 'Not Found' }));
    await expect(getQueryFn({ on401: 'throw' })(queryContext(['/api/personas']))).rejects.toThrow('404: Not Found');
  });
});

describe('queryKeyToUrl', () => {
  it('accepts numbers and rejects objects', () => {
    expect(queryKeyToUrl(['/api/items', 3])).toBe('/api/items/3');
    expect(() => queryKeyToUrl(['/api/items', { page: 1 }])).toThrow(TypeError);
  });
});
