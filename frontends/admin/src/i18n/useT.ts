import { useTranslator, type Translator } from '@kasa/i18n';
import type english from './en.json';

/** The console's message ids: the keys of its English catalogue, so that a misspelt id fails the type check. */
export type MessageId = keyof typeof english;
export type Translate = Translator<MessageId>;

/** The console's messages in the current language. */
export const useT = (): Translate => useTranslator<MessageId>();
