import { latencyBucket, latencyQuantile } from './latency';

describe('the latency histogram of the service rollups', () => {
  it('puts a duration in the bucket of the first bound it does not pass', () => {
    expect(latencyBucket(0)).toBe('le5');
    expect(latencyBucket(5)).toBe('le5');
    expect(latencyBucket(5.1)).toBe('le10');
    expect(latencyBucket(999)).toBe('le1000');
    expect(latencyBucket(60_000)).toBe('le60000');
    expect(latencyBucket(60_001)).toBe('gt60000');
  });

  it('reads a percentile within its bucket, and none without calls', () => {
    expect(latencyQuantile({}, 0.95)).toBeNull();
    // 100 calls: 90 up to 50 ms, 10 between 100 and 250 ms. The 95th is halfway through the second bucket.
    expect(latencyQuantile({ le50: 90, le250: 10 }, 0.95)).toBe(175);
    expect(latencyQuantile({ le50: 100 }, 0.95)).toBe(48.8);
    // Past the last bound, the last bound is all that is known.
    expect(latencyQuantile({ le10: 1, gt60000: 99 }, 0.95)).toBe(60_000);
  });
});
