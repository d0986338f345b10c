import type { LanguageCapability, PageQuery } from '@kasa/sdk';

/**
 * The react-query keys of the Kasa hooks, all under `['kasa']`: invalidate `kasaKeys.all` to refetch everything,
 * `kasaKeys.messages(id)` for one session's messages.
 */
export const kasaKeys = {
  all: ['kasa'] as const,
  personas: () => ['kasa', 'personas'] as const,
  sessions: (query: PageQuery = {}) => ['kasa', 'sessions', 'list', query] as const,
  sessionLists: () => ['kasa', 'sessions', 'list'] as const,
  messages: (sessionId: string, query: PageQuery = {}) => ['kasa', 'sessions', sessionId, 'messages', query] as const,
  sessionMessages: (sessionId: string) => ['kasa', 'sessions', sessionId, 'messages'] as const,
  languages: (query: { capability?: LanguageCapability } = {}) => ['kasa', 'languages', query] as const,
};
