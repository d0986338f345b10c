export { KasaProvider, useKasa, type KasaProviderProps } from './KasaProvider';
export { createKasaQueryClient } from './queryClient';
export { kasaKeys } from './queryKeys';
export { usePersonas, useSessions, useMessages, useLanguages, type KasaQueryOptions } from './hooks/queries';
export { useSendMessage, useSynthesize } from './hooks/mutations';
export {
  useStreamedReply,
  type StreamedReply,
  type StreamedReplyState,
  type StreamedReplyStatus,
} from './hooks/useStreamedReply';
