import { useTranslator, type Translator } from '@kasa/i18n';
import type english from './en.json';
import type pages from './pages/en.json';

/**
 * The shell's message ids: the keys of its English catalogues (the frame's, and its pages' in pages/), so that a
 * misspelt id fails the type check. A page's messages are there inside a <PagesCatalogue> only.
 */
export type MessageId = keyof typeof english | keyof typeof pages;
export type Translate = Translator<MessageId>;

/** The shell's messages in the current language. */
export const useT = (): Translate => useTranslator<MessageId>();
