import { useMessages, type Locale } from '@kasa/i18n';
import { useMemo } from 'react';
import { formatBytes } from '@kasa/ui/aiProviders';

/** What the console shows where a figure or a date is missing. */
export const NONE = '–';

/**
 * The locales Intl is asked for: Twi is written `ak` (Akan) in CLDR, and English keeps the day-month order of dates
 * the web app shows (`24 Nov 2026`). Intl falls back to the browser's default where it lacks a language.
 */
export function intlLocales(locale: Locale): string[] {
  if (locale === 'tw') return ['tw', 'ak'];
  if (locale === 'en') return ['en-GB'];
  return [locale];
}

/** The console's figures and dates in one interface language. */
export interface Formats {
  /** 1234567 → `1,234,567`; `–` when not a number. */
  count: (value: number | null | undefined) => string;
  /** An ISO time as a short date and time (`24 Nov 2026, 10:05`); `–` without one; unreadable text as it came. */
  dateTime: (iso: string | null | undefined) => string;
  /** An ISO time as a date alone (`24 Nov 2026`), in UTC; `–` without one. */
  date: (iso: string | null | undefined) => string;
  /** A share from 0 to 1 as a whole percent (`0.125` → `13%`, `13 %` in French). */
  percent: (ratio: number) => string;
  /** A size in bytes (`1.25 GB`). */
  bytes: (bytes: number) => string;
  /** A percent from 0 to 100 with up to two decimals (`99.95%`); `–` when not a number. */
  uptime: (percent: number | null | undefined) => string;
  /** A duration in milliseconds (`12.5 ms`); `–` when not a number. */
  ms: (value: number | null | undefined) => string;
  /** A UTC month `YYYY-MM` as its name and year (`March 2026`); the text as it came when it is not one. */
  month: (month: string) => string;
}

const finite = (value: number | null | undefined): value is number =>
  typeof value === 'number' && Number.isFinite(value);

/** The console's formats in `locale`. */
export function formatsFor(locale: Locale): Formats {
  const locales = intlLocales(locale);
  const count = new Intl.NumberFormat(locales);
  const dateTime = new Intl.DateTimeFormat(locales, { dateStyle: 'medium', timeStyle: 'short' });
  const date = new Intl.DateTimeFormat(locales, { dateStyle: 'medium', timeZone: 'UTC' });
  const percent = new Intl.NumberFormat(locales, { style: 'percent', maximumFractionDigits: 0 });
  const uptime = new Intl.NumberFormat(locales, { style: 'percent', maximumFractionDigits: 2 });
  const ms = new Intl.NumberFormat(locales, { style: 'unit', unit: 'millisecond', maximumFractionDigits: 1 });
  const month = new Intl.DateTimeFormat(locales, { month: 'long', year: 'numeric', timeZone: 'UTC' });
  const readable = (iso: string | null | undefined, format: Intl.DateTimeFormat) => {
    if (!iso) return NONE;
    const value = new Date(iso);
    return Number.isNaN(value.getTime()) ? iso : format.format(value);
  };
  return {
    count: (value) => (finite(value) ? count.format(value) : NONE),
    dateTime: (iso) => readable(iso, dateTime),
    date: (iso) => readable(iso, date),
    percent: (ratio) => percent.format(finite(ratio) ? ratio : 0),
    bytes: (bytes) => formatBytes(bytes, locales),
    uptime: (value) => (finite(value) ? uptime.format(value / 100) : NONE),
    ms: (value) => (finite(value) ? ms.format(value) : NONE),
    month: (value) => {
      const match = /^(\d{4})-(\d{2})$/.exec(value);
      return match ? month.format(new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1))) : value;
    },
  };
}

/** The current language's formats. */
export function useFormats(): Formats {
  const { locale } = useMessages();
  return useMemo(() => formatsFor(locale), [locale]);
}
