/**
 * The conversation list's date groups: Today, Yesterday, Previous 7 days, Previous 30 days, then one group per
 * month ("October 2026"), newest first. Days are calendar days in the person's time zone.
 */
export type GroupKind = 'today' | 'yesterday' | 'week' | 'month' | 'older';

export interface DateGroup<T> {
  /** `today`, `yesterday`, `week`, `month`, or `YYYY-MM` for an older month. */
  key: string;
  kind: GroupKind;
  /** The first day of the month, for an `older` group (its heading names the month). */
  month: Date | null;
  items: T[];
}

const DAY_MS = 86_400_000;
const RANK: Record<Exclude<GroupKind, 'older'>, number> = { today: 0, yesterday: 1, week: 2, month: 3 };

const startOfDay = (date: Date) => new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();

/** Calendar days from `date` to `now` (0 the same day, 1 yesterday; negative for a date ahead of this clock). */
export function daysBefore(date: Date, now: Date): number {
  // Rounded: a day with a daylight-saving change is 23 or 25 hours long.
  return Math.round((startOfDay(now) - startOfDay(date)) / DAY_MS);
}

/** Which group a date falls in, seen from `now`. */
export function groupKindOf(date: Date, now: Date): GroupKind {
  const days = daysBefore(date, now);
  if (days <= 0) return 'today';
  if (days === 1) return 'yesterday';
  if (days <= 7) return 'week';
  if (days <= 30) return 'month';
  return 'older';
}

/** Groups items by the date `dateOf` gives, newest group first; items keep their order within a group. */
export function groupByDate<T>(
  items: readonly T[],
  dateOf: (item: T) => string,
  now: Date = new Date(),
): DateGroup<T>[] {
  const groups = new Map<string, DateGroup<T> & { rank: number }>();
  for (const item of items) {
    const date = new Date(dateOf(item));
    if (Number.isNaN(date.getTime())) continue;
    const kind = groupKindOf(date, now);
    const older = kind === 'older';
    const key = older ? `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}` : kind;
    let group = groups.get(key);
    if (!group) {
      const monthsAgo = (now.getFullYear() - date.getFullYear()) * 12 + now.getMonth() - date.getMonth();
      group = {
        key,
        kind,
        month: older ? new Date(date.getFullYear(), date.getMonth(), 1) : null,
        items: [],
        rank: older ? 4 + monthsAgo : RANK[kind as Exclude<GroupKind, 'older'>],
      };
      groups.set(key, group);
    }
    group.items.push(item);
  }
  return [...groups.values()].sort((a, b) => a.rank - b.rank).map(({ rank: _rank, ...group }) => group);
}

/** Intl's name for a language where it differs from Kasa's: Twi is written `ak` (Akan) in CLDR. */
const intlLocale = (locale: string): string[] => (locale === 'tw' ? ['tw', 'ak'] : [locale]);

const formats = new Map<string, Intl.DateTimeFormat>();
function dateFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(intlLocale(locale), options);
    formats.set(key, format);
  }
  return format;
}

/** An older month's heading: "October 2026" in the interface language. */
export const monthHeading = (month: Date, locale: string): string =>
  dateFormat(locale, { month: 'long', year: 'numeric' }).format(month);

/** What an item shows beside its title: the time for today and yesterday, otherwise the date (with the year when
 * it is not this year's). */
export function itemWhen(date: Date, kind: GroupKind, locale: string, now: Date = new Date()): string {
  if (kind === 'today' || kind === 'yesterday')
    return dateFormat(locale, { hour: 'numeric', minute: '2-digit' }).format(date);
  const options: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short' };
  if (date.getFullYear() !== now.getFullYear()) options.year = 'numeric';
  return dateFormat(locale, options).format(date);
}

/** The full date and time, for the hover text of an item's date. */
export const fullWhen = (date: Date, locale: string): string =>
  dateFormat(locale, { dateStyle: 'full', timeStyle: 'short' }).format(date);
