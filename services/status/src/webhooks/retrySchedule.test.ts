import { DEFAULT_RETRY_SCHEDULE, nextRetryDelay, parseRetrySchedule } from './retrySchedule';

describe('the retry schedule of webhook deliveries', () => {
  it('is by default Standard Webhooks’ schedule: seven retries over about a day', () => {
    const schedule = parseRetrySchedule(DEFAULT_RETRY_SCHEDULE);
    expect(schedule).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
    const totalHours = schedule.reduce((sum, ms) => sum + ms, 0) / 3_600_000;
    expect(totalHours).toBeGreaterThan(24);
    expect(totalHours).toBeLessThan(30);
  });

  it('reads every unit, and spaces around the commas', () => {
    expect(parseRetrySchedule('250ms, 1s ,2m,1h,1d')).toEqual([250, 1_000, 120_000, 3_600_000, 86_400_000]);
  });

  it.each(['', ',', '5', '5x', '-5s', '1.5s', '8d', '0s', Array(21).fill('1s').join(',')])(
    'refuses %j with a readable reason',
    (text) => {
      expect(() => parseRetrySchedule(text)).toThrow(/delay|at most|from 1ms/);
    },
  );

  it('waits the next delay after each failed attempt, and stops when the delays are used up', () => {
    const schedule = [1_000, 60_000, 3_600_000];
    expect(nextRetryDelay(schedule, 1)).toBe(1_000);
    expect(nextRetryDelay(schedule, 2)).toBe(60_000);
    expect(nextRetryDelay(schedule, 3)).toBe(3_600_000);
    // The fourth attempt was the last one.
    expect(nextRetryDelay(schedule, 4)).toBeNull();
    expect(nextRetryDelay(schedule, 0)).toBeNull();
  });
});
