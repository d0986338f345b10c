import { useTranslator, type Translator } from '@kasa/i18n';
import type english from './en.json';

/** The Videos panel's message ids (the keys of its English catalogue), so that a misspelt id fails the type check. */
export type VideoMessageId = keyof typeof english;

/** Videos panel messages in the current language; inside a SectionCatalogue of VIDEO_LOADERS. */
export const useVideoT = (): Translator<VideoMessageId> => useTranslator<VideoMessageId>();
