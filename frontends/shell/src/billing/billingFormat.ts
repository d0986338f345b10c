import type { Locale } from '@kasa/i18n';

/** The locales Intl is asked for: Twi is written `ak` (Akan) in CLDR; Intl falls back where it lacks a language. */
const intlLocales = (locale: Locale): string[] => (locale === 'tw' ? ['tw', 'ak'] : [locale]);

/** A billing date and an amount of money, in one interface language. */
export interface BillingFormats {
  /** A day as people write it: `April 10, 2026` in English, `10 avril 2026` in French. */
  date: (date: Date) => string;
  /** An amount in its currency, cents only when there are some: `$29`, `GH₵350`, `29 $US` in French. */
  money: (amount: number, currency: string) => string;
  /** A whole count, grouped as the language groups digits: `1,000` in English, `1 000` in French. */
  count: (value: number) => string;
}

const made = new Map<Locale, BillingFormats>();

/** The formats of `locale`, made once per language (Intl's formatters are costly to create). */
export function billingFormatsFor(locale: Locale): BillingFormats {
  let formats = made.get(locale);
  if (!formats) {
    const locales = intlLocales(locale);
    const day = new Intl.DateTimeFormat(locales, { dateStyle: 'long' });
    const whole = new Intl.NumberFormat(locales, { maximumFractionDigits: 0 });
    const money = new Map<string, Intl.NumberFormat>();
    formats = {
      date: (date) => day.format(date),
      count: (value) => whole.format(value),
      money: (amount, currency) => {
        const whole = Number.isInteger(amount);
        const key = `${currency}:${whole}`;
        let format = money.get(key);
        if (!format) {
          format = new Intl.NumberFormat(locales, {
            style: 'currency',
            currency,
            ...(whole ? { minimumFractionDigits: 0, maximumFractionDigits: 0 } : {}),
          });
          money.set(key, format);
        }
        return format.format(amount);
      },
    };
    made.set(locale, formats);
  }
  return formats;
}
