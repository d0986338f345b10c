import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { fillPlaceholders, formatElements, type MessageValues } from './formatMessage';
import type { Locale } from './locales';

/**
 * A frontend's messages for one language, by message id. In a build each message is already parsed (the webpack
 * loader in frontends/federation turns every catalogue into ICU syntax trees, so no parser ships to the browser);
 * a message whose only placeholders are `{name}` stays a string.
 */
export type Catalogue = Record<string, string | MessageFormatElement[]>;

export type { MessageValues };

export interface Messages {
  locale: Locale;
  /** The message `id` in `locale`, its placeholders filled from `values`; the id itself when it is unknown. */
  format: (id: string, values?: MessageValues) => string;
}

/**
 * The current language and messages. @kasa/i18n is a Module Federation singleton, so this one context serves the
 * shell and every remote: a remote's CatalogueProvider reads the shell's locale from it.
 */
export const MessagesContext = createContext<Messages | null>(null);

/** Formats the messages of `catalogue` in `locale` (an unknown id shows as itself, with a console warning). */
export function formatterFor(locale: Locale, catalogue: Catalogue): Messages['format'] {
  return (id, values) => {
    const message = catalogue[id];
    if (message === undefined) {
      console.warn(`[kasa i18n] no message "${id}"`);
      return id;
    }
    return typeof message === 'string' ? fillPlaceholders(message, values) : formatElements(message, locale, values);
  };
}

/** Provides `catalogue` in `locale` to the components below. */
export function MessagesProvider({
  locale,
  catalogue,
  children,
}: {
  locale: Locale;
  catalogue: Catalogue;
  children: ReactNode;
}) {
  const value = useMemo<Messages>(() => ({ locale, format: formatterFor(locale, catalogue) }), [locale, catalogue]);
  return <MessagesContext.Provider value={value}>{children}</MessagesContext.Provider>;
}

/** The nearest MessagesProvider's language and messages. */
export function useMessages(): Messages {
  const messages = useContext(MessagesContext);
  if (!messages) throw new Error('useMessages needs a MessagesProvider (CatalogueProvider or RemoteCatalogue)');
  return messages;
}
