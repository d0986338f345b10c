import { useTranslator, type Translator } from '@kasa/i18n';
import type { MessageId } from '../useT';
import type english from './en.json';

/** The tab panels' message ids (the keys of their English catalogue), so that a misspelt id fails the type check. */
export type PanelsMessageId = keyof typeof english;

/** Inside a panel both the panels' messages and the portal's own (common words, figures) are at hand. */
export type PanelsTranslate = Translator<PanelsMessageId | MessageId>;

/** A tab panel's messages in the current language; inside a SectionCatalogue of PANELS_LOADERS. */
export const usePanelsT = (): PanelsTranslate => useTranslator<PanelsMessageId | MessageId>();
