import { createLogger } from '@kasa/service-kit';
import { QuotaThresholdEvents, thresholdsReached, type QuotaThresholdReached } from './quotaThresholds';

const logger = createLogger({ service: 'quota-thresholds-test', version: 'test', level: 'silent' });

describe('the quota thresholds a count reaches', () => {
  it('is 80 % rounded up and 100 %, each at exactly one count', () => {
    const seen = Array.from({ length: 12 }, (_, i) => [i + 1, thresholdsReached(i + 1, 10)] as const).filter(
      ([, reached]) => reached.length > 0,
    );
    expect(seen).toEqual([
      [8, [80]],
      [10, [100]],
    ]);
    // 80 % of 1,000 is 800; of 5, 4; of 3, 2.4 rounded up to 3, which is also 100 %.
    expect(thresholdsReached(800, 1_000)).toEqual([80]);
    expect(thresholdsReached(4, 5)).toEqual([80]);
    expect(thresholdsReached(3, 3)).toEqual([80, 100]);
    expect(thresholdsReached(1, 1)).toEqual([80, 100]);
    expect(thresholdsReached(1, 0)).toEqual([]);
  });
});

describe('announcing a threshold', () => {
  const reached: QuotaThresholdReached = { userId: 'u1', threshold: 80, used: 800, limit: 1000, period: '2026-07' };

  it('publishes in the background with an id fixed per subject, month, threshold and limit', async () => {
    const published: Array<{ data: QuotaThresholdReached; options: { id: string; requestId?: string } }> = [];
    const events = new QuotaThresholdEvents(logger);
    events.attach({
      publish: async (_type, data, options) => {
        published.push({ data, options });
      },
    });
    events.reached(reached, 'req-1');
    events.reached({ ...reached, limit: 2000, used: 1600 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(published).toEqual([
      { data: reached, options: { id: 'quota-threshold:u1:2026-07:80:1000', requestId: 'req-1' } },
      { data: { ...reached, limit: 2000, used: 1600 }, options: { id: 'quota-threshold:u1:2026-07:80:2000' } },
    ]);
  });

  it('never throws to the request, whatever the bus does', async () => {
    const events = new QuotaThresholdEvents(logger);
    expect(() => events.reached(reached)).not.toThrow(); // not attached yet
    events.attach({ publish: () => Promise.reject(new Error('broker gone')) });
    expect(() => events.reached(reached)).not.toThrow();
    await new Promise((resolve) => setImmediate(resolve));
  });
});
