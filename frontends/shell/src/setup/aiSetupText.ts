import { useMemo } from 'react';
import { describeFailureIn } from '@kasa/api-client/describeFailureIn';
import { isApiError } from '@kasa/api-client';
import { useMessages, useTranslator, type Translator } from '@kasa/i18n';
import { formatBytes } from '@kasa/ui/aiProviders';
import type english from '../i18n/aiSetup/en.json';

// The Connect AI step's words and figures: its own catalogue (src/i18n/aiSetup, loaded with the step) and the
// interface language's number formats.

export type AiSetupId = keyof typeof english;
export type AiSetupTranslate = Translator<AiSetupId>;

/** The step's messages in the current language. */
export const useAiT = (): AiSetupTranslate => useTranslator<AiSetupId>();

/** A failure in words: a 404 means the role is gone; the rest as the web app words failures. */
export function useDescribe() {
  const t = useAiT();
  return (error: unknown) =>
    isApiError(error) && error.status === 404 ? t('ai.notOperator') : describeFailureIn(t, error);
}

/** The locales Intl is asked for in an interface language (Twi is `ak` in CLDR). */
export const intlLocales = (locale: string): string[] => (locale === 'tw' ? ['tw', 'ak'] : [locale]);

/** Counts, percents and sizes in the interface language. */
export function useFormats() {
  const { locale } = useMessages();
  return useMemo(() => {
    const locales = intlLocales(locale);
    const count = new Intl.NumberFormat(locales);
    const percent = new Intl.NumberFormat(locales, { style: 'percent', maximumFractionDigits: 0 });
    return {
      count: (value: number) => count.format(value),
      percent: (ratio: number) => percent.format(ratio),
      bytes: (bytes: number) => formatBytes(bytes, locales),
    };
  }, [locale]);
}
