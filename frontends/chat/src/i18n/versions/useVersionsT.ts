import { useTranslator, type Translator } from '@kasa/i18n';
import type english from './en.json';

/** The versions messages' ids (the keys of their English catalogue), so that a misspelt id fails the type check. */
export type VersionsMessageId = keyof typeof english;

/** Versions messages in the current language; inside a SectionCatalogue of VERSIONS_LOADERS. */
export const useVersionsT = (): Translator<VersionsMessageId> => useTranslator<VersionsMessageId>();
