import { localeInfo, type Locale } from './locales';

/** Sets `lang` and `dir` on <html>, so that fonts, screen readers, hyphenation and the layout's direction follow. */
export function applyDocumentLocale(locale: Locale, root: HTMLElement = document.documentElement): void {
  root.lang = locale;
  root.dir = localeInfo(locale).dir;
}
