import { useTranslator, type Translator } from '@kasa/i18n';
import type { MessageId } from '../useT';
import type english from './en.json';

/** The legal pages' message ids (the keys of their English catalogue), so that a misspelt id fails the type check. */
export type LegalMessageId = keyof typeof english;

/** Inside a legal page both its texts and the public pages' own messages (Back to Home) are at hand. */
export type LegalTranslate = Translator<LegalMessageId | MessageId>;

/** A legal page's messages in the current language; inside a SectionCatalogue of LEGAL_LOADERS. */
export const useLegalT = (): LegalTranslate => useTranslator<LegalMessageId | MessageId>();
