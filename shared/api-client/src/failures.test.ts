import { ApiError, apiJson, getQueryFn } from './http';
import { describeFailure, failureKind, isTimeout, NETWORK_FAILURE_MESSAGE, TIMEOUT_FAILURE_MESSAGE } from './failures';
import type { QueryFunctionContext } from '@tanstack/react-query';

const fetchMock = jest.fn<Promise<Response>, [RequestInfo | URL, RequestInit | undefined]>();

beforeEach(() => {
  fetchMock.mockReset();
  Object.defineProperty(globalThis, 'fetch', { value: fetchMock, configurable: true, writable: true });
});

const gatewayAnswer = (status: number, message = 'The status service did not answer in time') =>
  new Response(JSON.stringify({ message, code: 'upstream_timeout', requestId: 'r1' }), {
    status,
    headers: { 'content-type': 'application/json' },
  });

async function failureOf(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  throw new Error('the call did not fail');
}

describe('describeFailure', () => {
  it.each([502, 503, 504])(
    'says a %i from the gateway is the service being slow or unavailable, never the connection',
    async (status) => {
      fetchMock.mockResolvedValueOnce(gatewayAnswer(status));
      const error = await failureOf(() => apiJson('GET', '/api/developer/analytics'));
      expect(failureKind(error)).toBe('unavailable');
      expect(describeFailure(error)).toBe(
        `${status}: The status service did not answer in time. Try again in a moment.`,
      );
      expect(describeFailure(error, { withStatus: false })).toBe(
        'The status service did not answer in time. Try again in a moment.',
      );

      fetchMock.mockResolvedValueOnce(new Response('<html>Bad gateway</html>', { status }));
      const bare = await failureOf(() => apiJson('GET', '/api/developer/analytics'));
      expect(describeFailure(bare)).toBe(
        `The service is slow or unavailable right now (${status}). Try again in a moment.`,
      );
      for (const text of [describeFailure(error), describeFailure(bare)]) expect(text).not.toMatch(/connection/i);
    },
  );

  it('keeps the gateway’s own "try again" advice without repeating it', async () => {
    fetchMock.mockResolvedValueOnce(gatewayAnswer(504, 'Chat service took too long to answer. Please try again.'));
    const error = await failureOf(() => apiJson('GET', '/api/chat/sessions'));
    expect(describeFailure(error)).toBe('504: Chat service took too long to answer. Please try again.');
  });

  it('says the same for the default fetcher’s "504: …" errors', async () => {
    fetchMock.mockResolvedValueOnce(new Response('Gateway Timeout', { status: 504 }));
    const queryFn = getQueryFn({ on401: 'throw' });
    const error = await failureOf(async () =>
      queryFn({ queryKey: ['/api/status'], signal: new AbortController().signal } as unknown as QueryFunctionContext),
    );
    expect(describeFailure(error)).toMatch(/^The service is slow or unavailable right now \(504\)/);
  });

  it('mentions the connection only when the request never got an answer (fetch threw)', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    const error = await failureOf(() => apiJson('GET', '/api/personas'));
    expect(failureKind(error)).toBe('network');
    expect(describeFailure(error)).toBe(NETWORK_FAILURE_MESSAGE);
    expect(NETWORK_FAILURE_MESSAGE).toMatch(/connection/);
  });

  it('keeps the spec’s "<status>: <message>" for other API errors, ending as a sentence', () => {
    const conflict = new ApiError(409, 'You already have 25 active API keys; revoke one first.', undefined);
    expect(describeFailure(conflict)).toBe('409: You already have 25 active API keys; revoke one first.');
    expect(describeFailure(new ApiError(500, 'Analytics store failed', undefined))).toBe(
      '500: Analytics store failed.',
    );
    expect(describeFailure(new ApiError(500, 'Analytics store failed', undefined), { withStatus: false })).toBe(
      'Analytics store failed.',
    );
    expect(describeFailure(new ApiError(418, undefined, undefined))).toBe('HTTP error! status: 418.');
    expect(describeFailure('???')).toBe('Something went wrong. Try again.');
  });
});

describe('the time limit of a call', () => {
  /** A fetch that answers only when aborted, like a back end that never replies. */
  function hangUntilAborted() {
    fetchMock.mockImplementationOnce(
      (_url, init) =>
        new Promise((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(init.signal!.reason));
        }),
    );
  }

  it('gives up after timeoutMs with a TimeoutError, described as the service taking too long', async () => {
    hangUntilAborted();
    const started = Date.now();
    const error = await failureOf(() => apiJson('GET', '/api/developer/analytics', undefined, { timeoutMs: 50 }));
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(isTimeout(error)).toBe(true);
    expect(failureKind(error)).toBe('timeout');
    expect(describeFailure(error)).toBe(TIMEOUT_FAILURE_MESSAGE);
    expect(describeFailure(error)).not.toMatch(/connection/i);
  });

  it('still honours the caller’s own signal alongside the limit', async () => {
    hangUntilAborted();
    const controller = new AbortController();
    const pending = failureOf(() =>
      apiJson('GET', '/api/chat/sessions', undefined, { timeoutMs: 60_000, signal: controller.signal }),
    );
    controller.abort(new DOMException('stopped', 'AbortError'));
    const error = await pending;
    expect((error as Error).name).toBe('AbortError');
    expect(isTimeout(error)).toBe(false);
  });
});
