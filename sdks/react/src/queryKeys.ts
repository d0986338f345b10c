import type { LanguageCapability, PageQuery, VideoJobListQuery } from '@kasa/sdk';

/**
 * The react-query keys of the Kasa hooks, all under `['kasa']`: invalidate `kasaKeys.all` to refetch everything,
 * `kasaKeys.messages(id)` for one session's messages, `kasaKeys.videoJobLists()` for every list of video jobs.
 */
export const kasaKeys = {
  all: ['kasa'] as const,
  personas: () => ['kasa', 'personas'] as const,
  sessions: (query: PageQuery = {}) => ['kasa', 'sessions', 'list', query] as const,
  sessionLists: () => ['kasa', 'sessions', 'list'] as const,
  messages: (sessionId: string, query: PageQuery = {}) => ['kasa', 'sessions', sessionId, 'messages', query] as const,
  sessionMessages: (sessionId: string) => ['kasa', 'sessions', sessionId, 'messages'] as const,
  languages: (query: { capability?: LanguageCapability } = {}) => ['kasa', 'languages', query] as const,
  videoJobs: (query: VideoJobListQuery = {}) => ['kasa', 'video', 'list', query] as const,
  videoJobLists: () => ['kasa', 'video', 'list'] as const,
  videoJob: (id: string) => ['kasa', 'video', 'job', id] as const,
  videoFile: (id: string, videoUrl: string) => ['kasa', 'video', 'file', id, videoUrl] as const,
};
