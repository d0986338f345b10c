/** A fixed counting window: `id` names it in counter keys; it covers [startMs, endMs). */
export interface CountingWindow {
  id: string;
  startMs: number;
  endMs: number;
}

const MINUTE_MS = 60_000;

/** The calendar minute (UTC) holding `nowMs`, e.g. id `29384756` (minutes since the epoch). */
export function minuteWindow(nowMs: number): CountingWindow {
  const index = Math.floor(nowMs / MINUTE_MS);
  return { id: String(index), startMs: index * MINUTE_MS, endMs: (index + 1) * MINUTE_MS };
}

/** The calendar month (UTC) holding `nowMs`, e.g. id `2026-07`: quotas reset at 00:00 UTC on the 1st. */
export function monthWindow(nowMs: number): CountingWindow {
  const date = new Date(nowMs);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  return {
    id: `${year}-${String(month + 1).padStart(2, '0')}`,
    startMs: Date.UTC(year, month, 1),
    endMs: Date.UTC(year, month + 1, 1),
  };
}

/** `monthWindow`, computed once a month rather than on every request. */
export function cachedMonthWindow(): (nowMs: number) => CountingWindow {
  let current = monthWindow(Date.now());
  return (nowMs) => {
    if (nowMs < current.startMs || nowMs >= current.endMs) current = monthWindow(nowMs);
    return current;
  };
}
