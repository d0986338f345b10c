import type { AssistantReply, ReplyMeta, SendMessageInput } from '@kasa/sdk';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useKasa } from '../KasaProvider.js';
import { kasaKeys } from '../queryKeys.js';

export type StreamedReplyStatus = 'idle' | 'streaming' | 'done' | 'stopped' | 'error';

export interface StreamedReplyState {
  status: StreamedReplyStatus;
  /** The reply so far (the whole reply once `done`). */
  text: string;
  /** Which provider and model answer, and the ids of the stored messages. */
  meta: ReplyMeta | undefined;
  /** The stored reply, once `done`. */
  message: AssistantReply | undefined;
  /** Why the reply failed (`error`): a KasaError for an API error. */
  error: Error | undefined;
}

export interface StreamedReply extends StreamedReplyState {
  /** Sends the message and streams the reply into `text`; resolves with the stored reply (undefined if stopped or failed). */
  send: (input: SendMessageInput) => Promise<AssistantReply | undefined>;
  /** Stops the reply: the connection closes and the server stores what was written, as stopped. */
  stop: () => void;
  /** Back to `idle` with no text. */
  reset: () => void;
}

const IDLE: StreamedReplyState = { status: 'idle', text: '', meta: undefined, message: undefined, error: undefined };

/**
 * Streams a session's reply into state, token by token. One reply at a time: sending again stops the previous one;
 * unmounting stops it too. When the reply ends (done or stopped) the session's messages are refetched.
 */
export function useStreamedReply(sessionId: string): StreamedReply {
  const kasa = useKasa();
  const queryClient = useQueryClient();
  const [state, setState] = useState<StreamedReplyState>(IDLE);
  const current = useRef<AbortController | null>(null);

  const stop = useCallback(() => current.current?.abort(), []);
  useEffect(() => () => current.current?.abort(), []);

  const send = useCallback(
    async (input: SendMessageInput): Promise<AssistantReply | undefined> => {
      current.current?.abort();
      const controller = new AbortController();
      current.current = controller;
      // A superseded reply must not write over the state of the one that replaced it.
      const update = (change: (previous: StreamedReplyState) => StreamedReplyState) => {
        if (current.current === controller) setState(change);
      };
      update(() => ({ ...IDLE, status: 'streaming' }));
      try {
        const stream = await kasa.chat.messages.stream(sessionId, input, { signal: controller.signal });
        for await (const event of stream) {
          if (event.type === 'meta') update((s) => ({ ...s, meta: event }));
          else if (event.type === 'token') update((s) => ({ ...s, text: s.text + event.text }));
          else {
            update((s) => ({ ...s, status: 'done', text: event.message.content, message: event.message }));
            return event.message;
          }
        }
        return undefined;
      } catch (error) {
        if (controller.signal.aborted) update((s) => ({ ...s, status: 'stopped' }));
        else
          update((s) => ({ ...s, status: 'error', error: error instanceof Error ? error : new Error(String(error)) }));
        return undefined;
      } finally {
        if (current.current === controller) current.current = null;
        void queryClient.invalidateQueries({ queryKey: kasaKeys.sessionMessages(sessionId) });
      }
    },
    [kasa, queryClient, sessionId],
  );

  const reset = useCallback(() => {
    current.current?.abort();
    current.current = null;
    setState(IDLE);
  }, []);

  return { ...state, send, stop, reset };
}
