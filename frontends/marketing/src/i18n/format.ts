import { useMessages, type Locale } from '@kasa/i18n';
import { useMemo } from 'react';

/**
 * The locales Intl is asked for: Twi is written `ak` (Akan) in CLDR, and English keeps the prices the pages have
 * always shown (`$29`). Intl falls back to the browser's default where it lacks a language.
 */
export function intlLocales(locale: Locale): string[] {
  if (locale === 'tw') return ['tw', 'ak'];
  if (locale === 'en') return ['en-US'];
  return [locale];
}

/** The public pages' prices, numbers, lists and language names in one interface language. */
export interface Formats {
  /** A price in US dollars, whole dollars without cents: `$29`, `$0`, `$4.50` in English; `29 $US` in French. */
  price: (amount: number) => string;
  /** An amount in a given currency, cents only when there are some: `$29`, `GH₵350` in English. */
  money: (amount: number, currency: string) => string;
  /** Items as a short list: `Extra API calls, Premium voices`. */
  list: (items: readonly string[]) => string;
  /** A language's name in the interface language (`fr` → `French`); the code itself when Intl does not know it. */
  languageName: (code: string) => string;
}

const formats = new Map<Locale, Formats>();

/** The formats of `locale`, made once per language (Intl's formatters are costly to create). */
export function formatsFor(locale: Locale): Formats {
  let known = formats.get(locale);
  if (!known) {
    const locales = intlLocales(locale);
    const whole = new Intl.NumberFormat(locales, {
      style: 'currency',
      currency: 'USD',
      minimumFractionDigits: 0,
      maximumFractionDigits: 0,
    });
    const cents = new Intl.NumberFormat(locales, { style: 'currency', currency: 'USD', minimumFractionDigits: 2 });
    const list = new Intl.ListFormat(locales, { style: 'short', type: 'unit' });
    const names = new Intl.DisplayNames(locales, { type: 'language', fallback: 'code' });
    const currencies = new Map<string, Intl.NumberFormat>();
    known = {
      price: (amount) => (Number.isInteger(amount) ? whole : cents).format(amount),
      money: (amount, currency) => {
        const isWhole = Number.isInteger(amount);
        const key = `${currency}:${isWhole}`;
        let format = currencies.get(key);
        if (!format) {
          const digits = isWhole ? { minimumFractionDigits: 0, maximumFractionDigits: 0 } : {};
          format = new Intl.NumberFormat(locales, { style: 'currency', currency, ...digits });
          currencies.set(key, format);
        }
        return format.format(amount);
      },
      list: (items) => list.format(items),
      languageName: (code) => {
        try {
          return names.of(code) ?? code;
        } catch {
          // A code Intl cannot read (not BCP 47) is shown as it came.
          return code;
        }
      },
    };
    formats.set(locale, known);
  }
  return known;
}

/** The formats of the current interface language. */
export function useFormats(): Formats {
  const { locale } = useMessages();
  return useMemo(() => formatsFor(locale), [locale]);
}
