export { KasaProvider, useKasa, type KasaProviderProps } from './KasaProvider.js';
export { createKasaQueryClient } from './queryClient.js';
export { kasaKeys } from './queryKeys.js';
export { usePersonas, useSessions, useMessages, useLanguages, type KasaQueryOptions } from './hooks/queries.js';
export { useSendMessage, useSynthesize, type WithIdempotencyKey } from './hooks/mutations.js';
export {
  useStreamedReply,
  type StreamedReply,
  type StreamedReplyState,
  type StreamedReplyStatus,
} from './hooks/useStreamedReply.js';
