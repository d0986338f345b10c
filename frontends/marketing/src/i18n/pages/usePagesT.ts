import { useTranslator, type Translator } from '@kasa/i18n';
import type { MessageId } from '../useT';
import type english from './en.json';

/** The pages section's message ids (the keys of its English catalogue), so that a misspelt id fails the type check. */
export type PagesMessageId = keyof typeof english;

/** Inside one of these pages both the section's messages and the public pages' own (common words) are at hand. */
export type PagesTranslate = Translator<PagesMessageId | MessageId>;

/** A page's messages in the current language; inside a SectionCatalogue of PAGES_LOADERS. */
export const usePagesT = (): PagesTranslate => useTranslator<PagesMessageId | MessageId>();
