import { isLocale, type Locale } from './locales';
import { negotiateLocale } from './negotiate';

/** Where a browser keeps the interface language picked while signed out (and the account's, for a fast start). */
export const LANGUAGE_STORAGE_KEY = 'kasa.language';

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined; // Storage disabled by the browser's privacy settings.
  }
}

export function storedLocale(): Locale | undefined {
  const value = storage()?.getItem(LANGUAGE_STORAGE_KEY);
  return isLocale(value) ? value : undefined;
}

export function storeLocale(locale: Locale): void {
  try {
    storage()?.setItem(LANGUAGE_STORAGE_KEY, locale);
  } catch {
    // Full or disabled storage: the choice still applies to this page.
  }
}

/**
 * The language a page starts in: the one this browser stored, else the browser's own preference (the same list
 * it sends as Accept-Language), else English.
 */
export function initialLocale(): Locale {
  const languages =
    typeof navigator === 'undefined' ? [] : navigator.languages?.length ? navigator.languages : [navigator.language];
  return storedLocale() ?? negotiateLocale(languages);
}
