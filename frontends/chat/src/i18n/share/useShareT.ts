import { useTranslator, type Translator } from '@kasa/i18n';
import type english from './en.json';

/** The sharing messages' ids (the keys of their English catalogue), so that a misspelt id fails the type check. */
export type ShareMessageId = keyof typeof english;

/** Sharing messages in the current language; inside a SectionCatalogue of SHARE_LOADERS. */
export const useShareT = (): Translator<ShareMessageId> => useTranslator<ShareMessageId>();
