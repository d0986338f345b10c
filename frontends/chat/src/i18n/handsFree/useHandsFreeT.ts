import { useTranslator, type Translator } from '@kasa/i18n';
import type english from './en.json';

/** Hands-free messages' ids (the keys of their English catalogue), so that a misspelt id fails the type check. */
export type HandsFreeMessageId = keyof typeof english;

/** Hands-free messages in the current language; inside a SectionCatalogue of HANDS_FREE_LOADERS. */
export const useHandsFreeT = (): Translator<HandsFreeMessageId> => useTranslator<HandsFreeMessageId>();
