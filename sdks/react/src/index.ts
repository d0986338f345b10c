export { KasaProvider, useKasa, type KasaProviderProps } from './KasaProvider.js';
export { createKasaQueryClient } from './queryClient.js';
export { kasaKeys } from './queryKeys.js';
export {
  usePersonas,
  useSessions,
  useMessages,
  useLanguages,
  useVideoJobs,
  useVideoJob,
  DEFAULT_VIDEO_POLL_MS,
  type KasaQueryOptions,
  type VideoQueryOptions,
  type VideoJobQueryOptions,
} from './hooks/queries.js';
export { useSendMessage, useSynthesize, useCreateVideo, type WithIdempotencyKey } from './hooks/mutations.js';
export { useVideoFile, type VideoFile, type VideoFileStatus } from './hooks/useVideoFile.js';
export {
  useStreamedReply,
  type StreamedReply,
  type StreamedReplyState,
  type StreamedReplyStatus,
} from './hooks/useStreamedReply.js';
