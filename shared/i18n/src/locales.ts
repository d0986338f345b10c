/** An interface language's tag (BCP 47), the same list as @kasa/contracts' UI_LANGUAGES (a test compares them). */
export type Locale = 'en' | 'fr' | 'sw' | 'ha' | 'yo' | 'tw' | 'ee' | 'gaa' | 'ar';

/**
 * How far a catalogue can be trusted. `source` is English, which every other catalogue translates; `reviewed` means
 * a native speaker read the whole catalogue; `draft` means nobody has yet, and the picker says so and asks for help.
 */
export type CatalogueStatus = 'source' | 'reviewed' | 'draft';

export interface LocaleInfo {
  locale: Locale;
  /** The language's name in itself, as the picker shows it. */
  nativeName: string;
  /** The name in English, for documents and screen readers that do not know the language. */
  englishName: string;
  dir: 'ltr' | 'rtl';
  status: CatalogueStatus;
}

export const DEFAULT_LOCALE: Locale = 'en';

/**
 * Every interface language, in the order the picker lists them. No translation has been read by a native speaker
 * yet, so every catalogue but the English source is a draft: change a status only after such a review.
 */
export const LOCALES: readonly LocaleInfo[] = [
  { locale: 'en', nativeName: 'English', englishName: 'English', dir: 'ltr', status: 'source' },
  { locale: 'fr', nativeName: 'Français', englishName: 'French', dir: 'ltr', status: 'draft' },
  { locale: 'sw', nativeName: 'Kiswahili', englishName: 'Swahili', dir: 'ltr', status: 'draft' },
  { locale: 'ha', nativeName: 'Hausa', englishName: 'Hausa', dir: 'ltr', status: 'draft' },
  { locale: 'yo', nativeName: 'Yorùbá', englishName: 'Yoruba', dir: 'ltr', status: 'draft' },
  { locale: 'tw', nativeName: 'Twi', englishName: 'Twi (Akan)', dir: 'ltr', status: 'draft' },
  { locale: 'ee', nativeName: 'Eʋegbe', englishName: 'Ewe', dir: 'ltr', status: 'draft' },
  { locale: 'gaa', nativeName: 'Gã', englishName: 'Ga', dir: 'ltr', status: 'draft' },
  { locale: 'ar', nativeName: 'العربية', englishName: 'Arabic', dir: 'rtl', status: 'draft' },
];

export const LOCALE_CODES: readonly Locale[] = LOCALES.map((info) => info.locale);

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALE_CODES as readonly string[]).includes(value);
}

export function localeInfo(locale: Locale): LocaleInfo {
  return LOCALES.find((info) => info.locale === locale) ?? LOCALES[0]!;
}
