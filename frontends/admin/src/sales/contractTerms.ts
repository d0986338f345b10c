/** The most seats one contract records (the API's limit). */
export const SEATS_MAX = 100_000;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/** Seats as typed: a whole number from 1 to SEATS_MAX, or null. */
export function parseSeats(text: string): number | null {
  if (!/^\s*\d+\s*$/.test(text)) return null;
  const seats = Number(text);
  return seats >= 1 && seats <= SEATS_MAX ? seats : null;
}

/**
 * The contract's end as the API takes it: the last moment of the chosen day (UTC), so the day itself is included;
 * null for a day that is not a date or is not after today.
 */
export function contractEnd(day: string, now = new Date()): string | null {
  if (!DAY.test(day)) return null;
  const end = new Date(`${day}T23:59:59.999Z`);
  if (Number.isNaN(end.getTime()) || dayOf(end) !== day) return null;
  return day > dayOf(now) ? end.toISOString() : null;
}

/** The first day a contract may end on: tomorrow (UTC). */
export function tomorrow(now = new Date()): string {
  return dayOf(new Date(now.getTime() + 86_400_000));
}

/** What the form proposes: a year from today, the usual length of a contract. */
export function defaultEndDay(now = new Date()): string {
  const next = new Date(now);
  next.setUTCFullYear(next.getUTCFullYear() + 1);
  return dayOf(next);
}
