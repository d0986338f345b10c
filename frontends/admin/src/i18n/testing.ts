// For unit tests only: the console's messages formatted as in the browser, without webpack. Jest reads the
// catalogues as plain JSON, so each message is parsed here (the build parses them once, in frontends/federation's
// loader).
import { parse } from '@formatjs/icu-messageformat-parser';
import { formatElements, type Locale, type MessageValues } from '@kasa/i18n';
import english from './en.json';
import type { Translate } from './useT';

/** A translator for `locale` over the given catalogue (English where it says nothing), as the console formats. */
export function translatorFor(locale: Locale = 'en', translation: Record<string, string> = {}): Translate {
  const messages: Record<string, string> = { ...english, ...translation };
  return (id: string, values?: MessageValues) => {
    const message = messages[id];
    if (message === undefined) throw new Error(`no message "${id}"`);
    return formatElements(parse(message), locale, values);
  };
}
