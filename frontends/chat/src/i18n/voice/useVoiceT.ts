import { useTranslator, type Translator } from '@kasa/i18n';
import type english from './en.json';

/** Voice messages' ids (the keys of their English catalogue), so that a misspelt id fails the type check. */
export type VoiceMessageId = keyof typeof english;

/** Voice messages in the current language; inside a SectionCatalogue of VOICE_LOADERS. */
export const useVoiceT = (): Translator<VoiceMessageId> => useTranslator<VoiceMessageId>();
