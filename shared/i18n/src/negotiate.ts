import { DEFAULT_LOCALE, isLocale, type Locale } from './locales';

/**
 * Other tags that mean one of the interface languages: Akan (`ak`) and its ISO 639-2 code for Twi (`twi`), Ewe's
 * and Ga's three-letter codes, Swahili's macrolanguage members. `ga` is Irish, not Ga, so it is deliberately absent.
 */
const ALIASES: Record<string, Locale> = {
  ak: 'tw',
  aka: 'tw',
  twi: 'tw',
  ewe: 'ee',
  swh: 'sw',
  swc: 'sw',
  hau: 'ha',
  yor: 'yo',
  fra: 'fr',
  fre: 'fr',
  ara: 'ar',
  arb: 'ar',
  eng: 'en',
};

function primaryLocale(tag: string): Locale | undefined {
  const lower = tag.trim().toLowerCase();
  if (isLocale(lower)) return lower;
  const language = lower.split(/[-_]/)[0] ?? '';
  if (isLocale(language)) return language;
  return ALIASES[language];
}

/**
 * Parses an Accept-Language header into its tags, most preferred first (by `q`, then by order); `*` and tags with
 * `q=0` are dropped.
 */
export function parseAcceptLanguage(header: string): string[] {
  return header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const quality = q ? Number(q.slice(2)) : 1;
      return { tag: tag.trim(), quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter((entry) => entry.tag && entry.tag !== '*' && entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index)
    .map((entry) => entry.tag);
}

/**
 * The best interface language for a list of requested tags, most preferred first (`navigator.languages`, or an
 * Accept-Language header through parseAcceptLanguage): the first tag whose language Kasa has (`fr-CA` → `fr`,
 * `ak-GH` → `tw`), else English.
 */
export function negotiateLocale(requested: readonly string[] | string | undefined | null): Locale {
  const tags = typeof requested === 'string' ? parseAcceptLanguage(requested) : (requested ?? []);
  for (const tag of tags) {
    const match = primaryLocale(tag);
    if (match) return match;
  }
  return DEFAULT_LOCALE;
}
