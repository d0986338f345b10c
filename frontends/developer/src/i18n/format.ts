import { useMessages, type Locale } from '@kasa/i18n';
import { useMemo } from 'react';
import { useT, type Translate } from './useT';

/** What the portal shows where a figure is missing or not a number. */
export const NONE = '–';

/**
 * The locales Intl is asked for: Twi is written `ak` (Akan) in CLDR, and English keeps the day-month order of dates
 * the portal has always shown (`24 Nov 2026`). Intl falls back to the browser's default where it lacks a language.
 */
export function intlLocales(locale: Locale): string[] {
  if (locale === 'tw') return ['tw', 'ak'];
  if (locale === 'en') return ['en-GB'];
  return [locale];
}

/** The portal's figures, dates and lists in one interface language. */
export interface Formats {
  /** 1234567 → `1,234,567` in English, `1 234 567` in French; `–` when not a number. */
  count: (value: number | null | undefined) => string;
  /** A percentage with at most two decimals: 99.95 → `99.95%` (`99,95 %` in French); `–` when not a number. */
  percent: (value: number | null | undefined) => string;
  /** A ratio with exactly one decimal: `3.3`. */
  oneDecimal: (value: number) => string;
  /** A response time as people read it: `820 ms`, `1.2 s`; `–` when not a number. */
  duration: (ms: number | null | undefined) => string;
  /** A whole number of milliseconds without grouping, as the tester times a call: `1234`. */
  milliseconds: (ms: number) => string;
  /** An ISO time as a short date and time; `never` (or the given word) without one; unreadable text as it came. */
  dateTime: (iso: string | null | undefined, never?: string) => string;
  /** A calendar day (`2026-11-23`, UTC) as day and short month: `23 Nov`. */
  shortDate: (day: string) => string;
  /** A month (`2026-11`) with its year: `November 2026`. */
  month: (month: string) => string;
  /** Items as a list: `chat, speak, listen`. */
  list: (items: readonly string[]) => string;
}

interface IntlSet {
  count: Intl.NumberFormat;
  percent: Intl.NumberFormat;
  oneDecimal: Intl.NumberFormat;
  plain: Intl.NumberFormat;
  dateTime: Intl.DateTimeFormat;
  shortDate: Intl.DateTimeFormat;
  month: Intl.DateTimeFormat;
  list: Intl.ListFormat;
}

const intlSets = new Map<Locale, IntlSet>();
function intlFor(locale: Locale): IntlSet {
  let set = intlSets.get(locale);
  if (!set) {
    const locales = intlLocales(locale);
    set = {
      count: new Intl.NumberFormat(locales),
      percent: new Intl.NumberFormat(locales, { style: 'percent', maximumFractionDigits: 2 }),
      oneDecimal: new Intl.NumberFormat(locales, { minimumFractionDigits: 1, maximumFractionDigits: 1 }),
      plain: new Intl.NumberFormat(locales, { useGrouping: false, maximumFractionDigits: 0 }),
      dateTime: new Intl.DateTimeFormat(locales, { dateStyle: 'medium', timeStyle: 'short' }),
      shortDate: new Intl.DateTimeFormat(locales, { day: 'numeric', month: 'short', timeZone: 'UTC' }),
      month: new Intl.DateTimeFormat(locales, { month: 'long', year: 'numeric', timeZone: 'UTC' }),
      list: new Intl.ListFormat(locales, { style: 'short', type: 'unit' }),
    };
    intlSets.set(locale, set);
  }
  return set;
}

const finite = (value: number | null | undefined): value is number =>
  typeof value === 'number' && Number.isFinite(value);

/** The portal's formats in `locale`; `t` gives the words (units, `never`). */
export function formatsFor(locale: Locale, t: Translate): Formats {
  const intl = intlFor(locale);
  return {
    count: (value) => (finite(value) ? intl.count.format(value) : NONE),
    percent: (value) => (finite(value) ? intl.percent.format(value / 100) : NONE),
    oneDecimal: (value) => intl.oneDecimal.format(value),
    duration: (ms) => {
      if (!finite(ms)) return NONE;
      return ms < 1000
        ? t('format.milliseconds', { value: Math.round(ms) })
        : t('format.seconds', { value: Number((ms / 1000).toFixed(1)) });
    },
    milliseconds: (ms) => intl.plain.format(ms),
    dateTime: (iso, never) => {
      if (!iso) return never ?? t('common.never');
      const date = new Date(iso);
      return Number.isNaN(date.getTime()) ? iso : intl.dateTime.format(date);
    },
    shortDate: (day) => intl.shortDate.format(new Date(`${day}T00:00:00Z`)),
    month: (month) => intl.month.format(new Date(`${month}-01T00:00:00Z`)),
    list: (items) => intl.list.format(items),
  };
}

/** The current language's formats. */
export function useFormats(): Formats {
  const { locale } = useMessages();
  const t = useT();
  return useMemo(() => formatsFor(locale, t), [locale, t]);
}
