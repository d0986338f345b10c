import { fillPlaceholders, formatElements, type Catalogue } from '@kasa/i18n';
import type { MessageId, Translate } from './useT';

/** The catalogue ids of the plans' texts: plain sentences without placeholders. */
const PLAN_TEXT = /^plans\./;

/**
 * The plans, add-ons and FAQ come from the auth service (GET /api/billing/plans), in English: the one place they
 * are written down. Their translations live here, under `plans.*`, found by the English text they translate. A text
 * the catalogue does not know (the service changed it, and nobody translated the change yet) shows as the service
 * sent it, never as a stale translation of something else.
 */
export function planTextIndex(english: Catalogue): ReadonlyMap<string, MessageId> {
  const index = new Map<string, MessageId>();
  for (const [id, message] of Object.entries(english)) {
    if (!PLAN_TEXT.test(id)) continue;
    // Built catalogues hold parsed messages where a message is not plain text; English is formatted back to text.
    const text = typeof message === 'string' ? fillPlaceholders(message) : formatElements(message, 'en');
    index.set(text, id as MessageId);
  }
  return index;
}

/** A translator of the plans' texts: the translation of a known English text, anything else as it came. */
export function planTextTranslator(index: ReadonlyMap<string, MessageId>, t: Translate): (text: string) => string {
  return (text) => {
    const id = index.get(text);
    return id ? t(id) : text;
  };
}
