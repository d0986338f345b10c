const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` (UTC) of a time. */
export const dayOf = (at: Date | number): string => new Date(at).toISOString().slice(0, 10);
/** `YYYY-MM` of a day. */
export const monthOfDay = (day: string): string => day.slice(0, 7);
/** The day's key inside its month document (`DD`). */
export const dayKey = (day: string): string => day.slice(8, 10);
/** `YYYY-MM-DDTHH:MM` (UTC), the id part of a minute bucket. */
export const minuteOf = (at: Date | number): string => new Date(at).toISOString().slice(0, 16);
/** `YYYY-MM-DDTHH` (UTC), the id part of an hour bucket. */
export const hourOf = (at: Date | number): string => new Date(at).toISOString().slice(0, 13);

/** The `count` UTC days that end with the day of `now`, oldest first. */
export function lastDays(now: Date, count: number): string[] {
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  return Array.from({ length: count }, (_, i) => dayOf(today - (count - 1 - i) * DAY_MS));
}

/** The distinct months of some days, in order. */
export const monthsOf = (days: string[]): string[] => [...new Set(days.map(monthOfDay))];

/**
 * A map key made safe for a field path: `.`, `$`, `%` and `~` are percent-encoded (`~` alone stands for "none", e.g.
 * calls made without an API key), the empty string is `%`.
 */
export function fieldKey(value: string | null): string {
  if (value === null) return '~';
  if (value === '') return '%';
  return value.replace(/[%.$~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/** The value a `fieldKey` stands for. */
export function fromFieldKey(key: string): string | null {
  if (key === '~') return null;
  if (key === '%') return '';
  return decodeURIComponent(key);
}
