import { backoffDelay, DEFAULT_RETRY_POLICY, parseRetryAfter, retryDelay, sleep } from './retry';

describe('parseRetryAfter', () => {
  it('reads delta-seconds', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter('0.5')).toBe(500);
  });

  it('reads an HTTP date relative to now, never negative', () => {
    const now = Date.parse('2026-11-23T10:00:00Z');
    expect(parseRetryAfter('Mon, 23 Nov 2026 10:00:07 GMT', now)).toBe(7000);
    expect(parseRetryAfter('Mon, 23 Nov 2026 09:00:00 GMT', now)).toBe(0);
  });

  it('gives undefined when absent or unreadable', () => {
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter('-1')).toBeUndefined();
  });
});

describe('backoffDelay', () => {
  it('doubles per attempt within jitter and stays under the cap', () => {
    const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxRetryDelayMs: 1000 };
    for (let i = 0; i < 50; i++) {
      expect(backoffDelay(0, policy)).toBeGreaterThanOrEqual(50);
      expect(backoffDelay(0, policy)).toBeLessThanOrEqual(100);
      expect(backoffDelay(2, policy)).toBeGreaterThanOrEqual(200);
      expect(backoffDelay(2, policy)).toBeLessThanOrEqual(400);
      expect(backoffDelay(10, policy)).toBeLessThanOrEqual(1000);
    }
  });
});

describe('retryDelay', () => {
  const answer = (status: number, code: string, headers: Record<string, string> = {}) => ({
    status,
    code,
    headers: new Headers(headers),
  });

  it('retries 429, 502, 503 and 504 after the wait they name, retry-after-ms first', () => {
    for (const status of [429, 502, 503, 504]) {
      expect(retryDelay(answer(status, 'x', { 'retry-after': '2' }), 0, DEFAULT_RETRY_POLICY)).toBe(2000);
    }
    const both = answer(503, 'x', { 'retry-after': '2', 'retry-after-ms': '150' });
    expect(retryDelay(both, 0, DEFAULT_RETRY_POLICY)).toBe(150);
  });

  it('backs off between half and all of 0.5 s doubling, capped at 8 s, when no wait is named', () => {
    for (let i = 0; i < 50; i++) {
      const first = retryDelay(answer(503, 'x'), 0, DEFAULT_RETRY_POLICY)!;
      expect(first).toBeGreaterThanOrEqual(250);
      expect(first).toBeLessThanOrEqual(500);
      const late = retryDelay(answer(503, 'x'), 8, { ...DEFAULT_RETRY_POLICY, maxRetries: 10 })!;
      expect(late).toBeGreaterThanOrEqual(4000);
      expect(late).toBeLessThanOrEqual(8000);
    }
  });

  it('does not retry other statuses, a spent quota, x-should-retry: false, a long wait or past maxRetries', () => {
    expect(retryDelay(answer(400, 'validation_failed'), 0, DEFAULT_RETRY_POLICY)).toBeUndefined();
    expect(retryDelay(answer(500, 'internal'), 0, DEFAULT_RETRY_POLICY)).toBeUndefined();
    expect(retryDelay(answer(429, 'quota_exceeded'), 0, DEFAULT_RETRY_POLICY)).toBeUndefined();
    expect(retryDelay(answer(503, 'x', { 'x-should-retry': 'false' }), 0, DEFAULT_RETRY_POLICY)).toBeUndefined();
    expect(retryDelay(answer(429, 'rate_limited', { 'retry-after': '3600' }), 0, DEFAULT_RETRY_POLICY)).toBeUndefined();
    expect(retryDelay(answer(503, 'x'), 2, DEFAULT_RETRY_POLICY)).toBeUndefined();
  });

  it('retries whatever the server marks x-should-retry: true', () => {
    expect(retryDelay(answer(500, 'internal', { 'x-should-retry': 'true' }), 0, DEFAULT_RETRY_POLICY)).toEqual(
      expect.any(Number),
    );
  });
});

describe('sleep', () => {
  it('rejects with the signal’s reason as soon as it aborts', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const waiting = sleep(10_000, controller.signal);
    setTimeout(() => controller.abort(new Error('stop waiting')), 20);
    await expect(waiting).rejects.toThrow('stop waiting');
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
