import { RecentAttempts } from './recentAttempts';

describe('RecentAttempts', () => {
  it('counts attempts and failures per provider over the last 15 minutes, not stops', () => {
    let now = 1_000 * 60_000;
    const recent = new RecentAttempts(() => now);
    recent.observe({ provider: 'a', outcome: 'ok' });
    recent.observe({ provider: 'a', outcome: 'server_error' });
    recent.observe({ provider: 'a', outcome: 'aborted' });
    recent.observe({ provider: 'b', outcome: 'timeout' });
    expect(recent.of('a')).toEqual({ attempts: 2, failures: 1, errorRate: 0.5 });
    expect(recent.of('b')).toEqual({ attempts: 1, failures: 1, errorRate: 1 });
    expect(recent.of('never')).toEqual({ attempts: 0, failures: 0, errorRate: 0 });
    now += 10 * 60_000;
    recent.observe({ provider: 'a', outcome: 'ok' });
    expect(recent.of('a').attempts).toBe(3);
    now += 6 * 60_000;
    expect(recent.of('a')).toEqual({ attempts: 1, failures: 0, errorRate: 0 });
  });
});
