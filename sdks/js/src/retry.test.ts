import { backoffDelay, DEFAULT_RETRY_POLICY, parseRetryAfter, sleep } from './retry';

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
