import type {
  AssistantReply,
  CallOptions,
  KasaError,
  SendMessageInput,
  SynthesizeInput,
  SynthesizeResponse,
  VideoGenerationRequest,
  VideoJob,
} from '@kasa/sdk';
import { useMutation, useQueryClient, type UseMutationResult } from '@tanstack/react-query';
import { useKasa } from '../KasaProvider.js';
import { kasaKeys } from '../queryKeys.js';

/**
 * A mutation's input plus, optionally, the Idempotency-Key to send it with (the SDK makes one per call otherwise):
 * pass your own to tie a send after a reload to the first attempt.
 */
export type WithIdempotencyKey<Input> = Input & { idempotencyKey?: string };

function callOptions(idempotencyKey: string | undefined): CallOptions {
  return idempotencyKey === undefined ? {} : { idempotencyKey };
}

/**
 * Sends a message to a session and resolves with the complete reply; the session's messages and the session list
 * are refetched after. Not retried by react-query: the SDK already retries it, with one Idempotency-Key for all of
 * its tries so that the message is posted once, whereas a second `mutate` would be a second message.
 */
export function useSendMessage(
  sessionId: string,
): UseMutationResult<AssistantReply, KasaError, WithIdempotencyKey<SendMessageInput>> {
  const kasa = useKasa();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ idempotencyKey, ...input }: WithIdempotencyKey<SendMessageInput>) =>
      kasa.chat.messages.send(sessionId, input, callOptions(idempotencyKey)),
    retry: false,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: kasaKeys.sessionMessages(sessionId) }),
        queryClient.invalidateQueries({ queryKey: kasaKeys.sessionLists() }),
      ]),
  });
}

/** Turns text into speech (Pro and Enterprise plans): resolves with `{audioUrl, duration, ...}`. */
export function useSynthesize(): UseMutationResult<SynthesizeResponse, KasaError, WithIdempotencyKey<SynthesizeInput>> {
  const kasa = useKasa();
  return useMutation({
    mutationFn: ({ idempotencyKey, ...input }: WithIdempotencyKey<SynthesizeInput>) =>
      kasa.voice.synthesize(input, callOptions(idempotencyKey)),
  });
}

/**
 * Queues a video (Enterprise plan): resolves with the job, `queued`. The job's query (`useVideoJob(job.id)`) starts
 * from this answer and the lists of jobs are refetched. Not retried by react-query, like `useSendMessage`: the SDK
 * retries it with one Idempotency-Key, so that one video is made.
 */
export function useCreateVideo(): UseMutationResult<VideoJob, KasaError, WithIdempotencyKey<VideoGenerationRequest>> {
  const kasa = useKasa();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ idempotencyKey, ...input }: WithIdempotencyKey<VideoGenerationRequest>) =>
      kasa.video.create(input, callOptions(idempotencyKey)),
    retry: false,
    onSuccess: (job) => {
      queryClient.setQueryData(kasaKeys.videoJob(job.id), job);
      return queryClient.invalidateQueries({ queryKey: kasaKeys.videoJobLists() });
    },
  });
}
