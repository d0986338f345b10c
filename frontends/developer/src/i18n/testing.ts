// For unit tests only: the portal's messages formatted as in the browser, without webpack. Jest reads the catalogues
// as plain JSON, so each message is parsed here (the build parses them once, in frontends/federation's loader).
import { parse } from '@formatjs/icu-messageformat-parser';
import { formatElements, type Locale, type MessageValues } from '@kasa/i18n';
import english from './en.json';
import panelsEnglish from './panels/en.json';
import type { PanelsTranslate } from './panels/usePanelsT';

/**
 * A translator for `locale` over the given catalogues (the portal's and its panels', English where they say
 * nothing), formatting every message as the portal does.
 */
export function translatorFor(locale: Locale = 'en', ...translations: Array<Record<string, string>>): PanelsTranslate {
  const messages: Record<string, string> = Object.assign({}, english, panelsEnglish, ...translations);
  return (id: string, values?: MessageValues) => {
    const message = messages[id];
    if (message === undefined) throw new Error(`no message "${id}"`);
    return formatElements(parse(message), locale, values);
  };
}
