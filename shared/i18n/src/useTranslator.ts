import { useCallback } from 'react';
import { useMessages, type MessageValues } from './MessagesContext';

/** Formats one message of a frontend's catalogue; `Id` is the catalogue's message ids, so a typo fails to compile. */
export type Translator<Id extends string> = (id: Id, values?: MessageValues) => string;

/** The current language's Translator for a frontend's messages. */
export function useTranslator<Id extends string>(): Translator<Id> {
  const { format } = useMessages();
  return useCallback<Translator<Id>>((id, values) => format(id, values), [format]);
}
