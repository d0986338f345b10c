import type { AssistantReply, KasaError, SendMessageInput, SynthesizeInput, SynthesizeResponse } from '@kasa/sdk';
import { useMutation, useQueryClient, type UseMutationResult } from '@tanstack/react-query';
import { useKasa } from '../KasaProvider';
import { kasaKeys } from '../queryKeys';

/**
 * Sends a message to a session and resolves with the complete reply; the session's messages and the session list
 * are refetched after. Never retried by react-query: a repeated send would post the message twice (the SDK itself
 * retries only what the API refused with a 429).
 */
export function useSendMessage(sessionId: string): UseMutationResult<AssistantReply, KasaError, SendMessageInput> {
  const kasa = useKasa();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SendMessageInput) => kasa.chat.messages.send(sessionId, input),
    retry: false,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: kasaKeys.sessionMessages(sessionId) }),
        queryClient.invalidateQueries({ queryKey: kasaKeys.sessionLists() }),
      ]),
  });
}

/** Turns text into speech (Pro and Enterprise plans): resolves with `{audioUrl, duration, ...}`. */
export function useSynthesize(): UseMutationResult<SynthesizeResponse, KasaError, SynthesizeInput> {
  const kasa = useKasa();
  return useMutation({ mutationFn: (input: SynthesizeInput) => kasa.voice.synthesize(input) });
}
