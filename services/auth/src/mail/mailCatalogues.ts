import { UI_LANGUAGES, type UiLanguage } from '@kasa/contracts';
import ar from './catalogues/ar.json';
import ee from './catalogues/ee.json';
import en from './catalogues/en.json';
import fr from './catalogues/fr.json';
import gaa from './catalogues/gaa.json';
import ha from './catalogues/ha.json';
import sw from './catalogues/sw.json';
import tw from './catalogues/tw.json';
import yo from './catalogues/yo.json';

/** The texts of the e-mails, one flat catalogue per language; English's keys are the reference. */
export type MailKey = keyof typeof en;
export type MailCatalogue = Record<MailKey, string>;

/**
 * Every language Kasa ships. The JSON files are typed by their content, so a catalogue that misses one of
 * English's keys does not compile; mailCatalogues.test.ts checks that none has more, and the placeholders.
 */
export const MAIL_CATALOGUES: Record<UiLanguage, MailCatalogue> = { en, fr, sw, ha, yo, tw, ee, gaa, ar };

/** The catalogue of a language, English for one Kasa does not ship. */
export function mailCatalogueFor(language: string | null | undefined): { language: UiLanguage; texts: MailCatalogue } {
  const known = (UI_LANGUAGES as readonly string[]).includes(language ?? '') ? (language as UiLanguage) : 'en';
  return { language: known, texts: MAIL_CATALOGUES[known] };
}

/** The `{name}` placeholders of a text, sorted. */
export function placeholdersOf(text: string): string[] {
  return [...new Set([...text.matchAll(/\{([a-zA-Z]+)\}/g)].map((match) => match[1]!))].sort();
}

/** The text with each `{name}` replaced by its value (a placeholder without a value stays as written). */
export function fillText(text: string, values: Record<string, string>): string {
  return text.replace(/\{([a-zA-Z]+)\}/g, (whole, name: string) => values[name] ?? whole);
}
