import { UI_LANGUAGES } from '@kasa/contracts';
import { LOCALE_CODES, LOCALES } from './locales';
import { negotiateLocale, parseAcceptLanguage } from './negotiate';

describe('interface language negotiation', () => {
  it('offers exactly the languages the account preference accepts', () => {
    expect([...LOCALE_CODES].sort()).toEqual([...UI_LANGUAGES].sort());
  });

  it('marks no catalogue as reviewed until a native speaker has read it, and only Arabic as right-to-left', () => {
    expect(LOCALES.filter((info) => info.status === 'reviewed')).toEqual([]);
    expect(LOCALES.filter((info) => info.dir === 'rtl').map((info) => info.locale)).toEqual(['ar']);
  });

  it('reads Accept-Language by quality, then order, dropping * and q=0', () => {
    expect(parseAcceptLanguage('de;q=0.3, fr-FR, en;q=0.8, *;q=0.1, sw;q=0')).toEqual(['fr-FR', 'en', 'de']);
  });

  it('picks the first requested language Kasa has, by language subtag and known aliases', () => {
    expect(negotiateLocale('fr-FR,fr;q=0.9,en;q=0.8')).toBe('fr');
    expect(negotiateLocale('de-DE, ak-GH;q=0.5, en;q=0.4')).toBe('tw');
    expect(negotiateLocale(['ar-EG', 'en'])).toBe('ar');
    expect(negotiateLocale(['gaa-GH'])).toBe('gaa');
    expect(negotiateLocale(['ee'])).toBe('ee');
  });

  it('falls back to English, and never reads Irish (ga) as Ga', () => {
    expect(negotiateLocale('ga-IE, de')).toBe('en');
    expect(negotiateLocale(undefined)).toBe('en');
    expect(negotiateLocale('')).toBe('en');
  });
});
