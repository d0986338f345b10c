/**
 * When a webhook is tried again: the first attempt goes at once, and each failed attempt waits the next delay of the
 * schedule, as Standard Webhooks suggests (`5s,5m,30m,2h,5h,10h,10h`: eight attempts over about 28 hours). When the
 * delays are used up, the delivery has failed.
 */
export const DEFAULT_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,10h';

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const MAX_DELAYS = 20;
const MAX_DELAY_MS = 7 * UNIT_MS.d;

/**
 * The delays of a schedule written as `5s,5m,30m,2h` (units ms, s, m, h, d), in milliseconds; throws a readable
 * error for anything else (at most 20 delays, each at most 7 days).
 */
export function parseRetrySchedule(text: string): number[] {
  const parts = text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  if (parts.length === 0) throw new Error('must list at least one delay, e.g. 5s,5m,30m');
  if (parts.length > MAX_DELAYS) throw new Error(`must list at most ${MAX_DELAYS} delays`);
  return parts.map((part) => {
    const match = /^(\d+)(ms|s|m|h|d)$/.exec(part);
    if (!match) throw new Error(`"${part}" is not a delay such as 500ms, 5s, 5m, 2h or 1d`);
    const ms = Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
    if (ms < 1 || ms > MAX_DELAY_MS) throw new Error(`"${part}" must be from 1ms to 7d`);
    return ms;
  });
}

/**
 * After a failed attempt, how long until the next one; null when it was the last (the delivery has failed).
 * `attempts` counts the attempts made, the failed one included.
 */
export function nextRetryDelay(schedule: readonly number[], attempts: number): number | null {
  return attempts >= 1 && attempts <= schedule.length ? schedule[attempts - 1]! : null;
}
