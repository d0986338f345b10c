import { useCallback, useEffect, useMemo, useReducer, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { describeFailure as describeApiFailure } from '@kasa/api-client';
import type { AssistantReply, MessageAttachment, Session, StoredMessage } from '@kasa/contracts';
import { chatKeys, createSession, followReply, sendMessageStreaming, stopReply } from '../api/chatApi';
import {
  invalidateSessionList,
  messagesOf,
  seedNewSession,
  upsertMessages,
  useSessionMessages,
} from '../api/chatQueries';
import { markPending, settlePending, stopSending, sweepPendingSessions } from '../api/pendingSessions';
import { TokenBatcher } from '../streaming/tokenBatcher';
import { loadReplyEvents, loadVersionsApi } from './conversationParts';
import {
  shownMessages,
  titleFrom,
  turnReducer,
  type LiveTurn,
  type MessageType,
  type ShownMessage,
  type TurnBranch,
} from './liveTurn';

export type { ShownMessage };

/**
 * What a failure says to the person (the shared wording: a 502/503/504 is the service being slow or unavailable,
 * only a request that never reached Kasa mentions the connection), with the server's message alone, no status.
 */
export function describeFailure(error: unknown): string {
  return describeApiFailure(error, { withStatus: false });
}

/** How long after a new chat is left its still-empty session is checked and deleted. */
const ABANDONED_SWEEP_DELAY_MS = 2_000;

const toStored = ({ userMessageId: _user, ...message }: AssistantReply): StoredMessage => message;

interface Options {
  sessionId: string | undefined;
  personaId: string;
  language: string;
  /** A new chat's first message was stored in the session created for it (the page then shows its URL). */
  onSessionCreated: (session: Session) => void;
}

/**
 * A conversation: its stored messages (a page at a time, its current branch), sending with a streamed reply, Stop,
 * Retry, versions (Edit, Regenerate, choosing a version), and following a reply that was still being written when
 * the page was (re)loaded.
 */
export function useConversation({ sessionId, personaId, language, onSessionCreated }: Options) {
  const queryClient = useQueryClient();
  const query = useSessionMessages(sessionId);
  const [turn, dispatch] = useReducer(turnReducer, null);

  // Refs read by the async flows, which outlive the render that started them.
  const sessionRef = useRef(sessionId);
  const turnRef = useRef<LiveTurn | null>(turn);
  turnRef.current = turn;
  const controller = useRef<AbortController | null>(null);
  const stopWanted = useRef(false);
  const followed = useRef(new Set<string>());
  /** The session created for this new chat's first message, until that message is stored. */
  const created = useRef<Session | null>(null);
  useEffect(() => {
    if (sessionId) sessionRef.current = sessionId;
  }, [sessionId]);
  // A new chat left before its first message was stored: its session is deleted if it is still empty (a moment
  // later, so that a message already on its way is seen and the session kept).
  const abandonCreated = useCallback(() => {
    const fresh = created.current;
    if (!fresh) return;
    created.current = null;
    stopSending(fresh.id);
    setTimeout(() => void sweepPendingSessions(queryClient, fresh.id), ABANDONED_SWEEP_DELAY_MS);
  }, [queryClient]);
  // Leaving the conversation stops reading (a resumable reply goes on being written and can be followed later).
  // A follow started on mount is forgotten too, so that a remount (React's StrictMode does one) follows again.
  useEffect(
    () => () => {
      controller.current?.abort();
      controller.current = null;
      abandonCreated();
      const current = turnRef.current;
      if (current?.active && current.kind === 'follow' && current.draft.id) {
        followed.current.delete(current.draft.id);
        turnRef.current = null;
        dispatch({ type: 'clear' });
      }
    },
    [abandonCreated],
  );

  const finish = useCallback(
    (id: string, reply: AssistantReply, started: LiveTurn) => {
      followed.current.add(reply.id);
      if (started.branch) {
        // A new version changes the branch: the stored conversation is read again, with every message's versions.
        void queryClient.invalidateQueries({ queryKey: chatKeys.session(id) });
        dispatch({ type: 'finished', reply });
        return;
      }
      const messages: StoredMessage[] = [];
      if (started.content !== null && reply.userMessageId) {
        messages.push({
          id: reply.userMessageId,
          role: 'user',
          content: started.content,
          timestamp: started.sentAt,
          type: started.messageType,
          status: 'complete',
          ...(started.attachments?.length ? { attachments: started.attachments } : {}),
        });
      }
      messages.push(toStored(reply));
      if (queryClient.getQueryData(chatKeys.session(id))) upsertMessages(queryClient, id, messages);
      else void queryClient.invalidateQueries({ queryKey: chatKeys.session(id) });
      dispatch({ type: 'finished', reply });
    },
    [queryClient],
  );

  /** Reads a reply stream into the live turn; follows the reply instead if the connection drops half-way. */
  const consume = useCallback(
    async (id: string, response: Response, abort: AbortController, started: LiveTurn): Promise<void> => {
      let replaceNext = started.kind === 'follow'; // a follow starts with the whole text so far
      const batcher = new TokenBatcher((text) => {
        dispatch({ type: 'text', text, replace: replaceNext });
        replaceNext = false;
      });
      let ended = false;
      let assistantId = started.draft.id;
      try {
        if (!response.body) throw new Error('The reply stream could not be read.');
        const { readReplyEvents } = await loadReplyEvents();
        await readReplyEvents(
          response.body,
          (event) => {
            if (abort.signal.aborted) return;
            switch (event.type) {
              case 'meta':
                assistantId = event.meta.assistantMessageId;
                dispatch({ type: 'meta', meta: event.meta });
                if (stopWanted.current) void stopReply(id, assistantId).catch(() => undefined);
                break;
              case 'token':
                batcher.push(event.text);
                break;
              case 'queued':
                dispatch({ type: 'queued', position: event.position });
                break;
              case 'done':
                ended = true;
                batcher.flush();
                finish(id, event.reply, started);
                break;
              case 'error':
                ended = true;
                batcher.flush();
                dispatch({ type: 'failed', message: event.message });
                break;
            }
          },
          abort.signal,
        );
      } catch (error) {
        if (abort.signal.aborted) return;
        batcher.flush();
        if (!assistantId) throw error;
      } finally {
        if (abort.signal.aborted) batcher.dispose();
        else batcher.flush();
      }
      if (ended || abort.signal.aborted) return;
      // The connection dropped before the end: the reply goes on being written (resumable), so follow it.
      if (assistantId && !followed.current.has(`dropped:${assistantId}`)) {
        followed.current.add(`dropped:${assistantId}`);
        const next = await followReply(id, assistantId, abort.signal);
        await consume(id, next, abort, { ...started, kind: 'follow', draft: { ...started.draft, id: assistantId } });
        return;
      }
      dispatch({ type: 'failed', message: 'The connection was lost before the reply was complete.' });
    },
    [finish],
  );

  const run = useCallback(
    async (started: LiveTurn, open: (id: string, signal: AbortSignal) => Promise<Response>) => {
      controller.current?.abort();
      const abort = new AbortController();
      controller.current = abort;
      stopWanted.current = false;
      dispatch({ type: 'start', turn: started });
      turnRef.current = started; // a second Enter before the next render must see this turn
      let id = sessionRef.current;
      try {
        if (!id) {
          const session = await createSession({ personaId, title: titleFrom(started.content ?? '') });
          seedNewSession(queryClient, session);
          markPending(session.id);
          id = session.id;
          sessionRef.current = id;
          created.current = session;
        } else if (created.current?.id === id) {
          markPending(id); // a Retry of the first message
        }
        if (abort.signal.aborted) {
          abandonCreated();
          return;
        }
        const response = await open(id, abort.signal);
        // The stream's headers come once the message is stored: the new session is a conversation now, so the
        // sidebar lists it and the URL names it. Until then a reload leaves no empty conversation behind.
        const fresh = created.current;
        if (fresh?.id === id) {
          created.current = null;
          settlePending(id);
          invalidateSessionList(queryClient);
          onSessionCreated(fresh);
        }
        await consume(id, response, abort, started);
      } catch (error) {
        if (id && created.current?.id === id) stopSending(id);
        if (!abort.signal.aborted) dispatch({ type: 'failed', message: describeFailure(error) });
      } finally {
        if (controller.current === abort) controller.current = null;
      }
    },
    [abandonCreated, consume, onSessionCreated, personaId, queryClient],
  );

  /** Starts a turn of mine: a message sent, or a new version of a message (`branch`). */
  const start = useCallback(
    (
      content: string | null,
      lang: string,
      messageType: MessageType,
      branch: TurnBranch | undefined,
      open: (id: string, signal: AbortSignal) => Promise<Response>,
      attachments: MessageAttachment[] = [],
    ) => {
      if (turnRef.current?.active) return;
      const started: LiveTurn = {
        kind: 'send',
        ...(branch ? { branch } : {}),
        content,
        messageType,
        ...(attachments.length > 0 ? { attachments } : {}),
        language: lang,
        sentAt: new Date().toISOString(),
        userMessageId: null,
        draft: { id: null, text: '', provider: null, model: null, stopping: false },
        error: null,
        active: true,
        finalStatus: null,
      };
      void run(started, open);
    },
    [run],
  );

  const send = useCallback(
    (
      content: string,
      lang: string = language,
      messageType: MessageType = 'text',
      attachments: MessageAttachment[] = [],
    ) =>
      start(
        content,
        lang,
        messageType,
        undefined,
        (id, signal) =>
          sendMessageStreaming(
            id,
            {
              content,
              language: lang,
              type: messageType,
              ...(attachments.length > 0 ? { attachmentIds: attachments.map((a) => a.id) } : {}),
            },
            signal,
          ),
        attachments,
      ),
    [language, start],
  );

  /**
   * A new version of one of my messages, in its place: it and its reply replace what followed the old one. The
   * service keeps the edited message's attachments (no ids are sent); `attachments` are those, shown meanwhile.
   */
  const edit = useCallback(
    (messageId: string, content: string, attachments: MessageAttachment[] = []) =>
      start(
        content,
        language,
        'text',
        { action: 'edit', messageId },
        async (id, signal) =>
          (await loadVersionsApi()).editMessageStreaming(id, messageId, { content, language }, signal),
        attachments,
      ),
    [language, start],
  );

  /** Another answer to the question `replyId` answered: a new version of that answer, written where it was. */
  const regenerate = useCallback(
    (replyId: string) =>
      start(null, language, 'text', { action: 'regenerate', messageId: replyId }, async (id, signal) =>
        (await loadVersionsApi()).regenerateStreaming(id, replyId, language, signal),
      ),
    [language, start],
  );

  /** Shows another version of a message (and the branch below it last shown there); rejects when that fails. */
  const selectVersion = useCallback(
    async (messageId: string) => {
      const id = sessionRef.current;
      if (!id || turnRef.current?.active) return;
      const page = await (await loadVersionsApi()).selectVersion(id, messageId);
      queryClient.setQueryData(chatKeys.session(id), { pages: [page], pageParams: [null] });
    },
    [queryClient],
  );

  const stop = useCallback(() => {
    const current = turnRef.current;
    const id = sessionRef.current;
    if (!current?.active || current.draft.stopping) return;
    dispatch({ type: 'stopping', stopping: true });
    if (!current.draft.id || !id) {
      stopWanted.current = true; // sent as soon as the stream names the reply
      return;
    }
    stopReply(id, current.draft.id).catch(() => dispatch({ type: 'stopping', stopping: false }));
  }, []);

  const stored = useMemo(() => messagesOf(query.data), [query.data]);

  // A finished turn gives way to the stored messages as soon as they hold its reply.
  useEffect(() => {
    const replyId = turn?.finalStatus ? turn.draft.id : null;
    if (replyId && stored.some((m) => m.id === replyId && m.status !== 'streaming')) dispatch({ type: 'clear' });
  }, [turn, stored]);

  // A reply still being written when the conversation opened (a reload mid-reply): show it and follow it.
  useEffect(() => {
    const id = sessionId;
    const last = stored.at(-1);
    if (!id || turnRef.current?.active || !last || last.role !== 'assistant' || last.status !== 'streaming') return;
    if (followed.current.has(last.id)) return;
    followed.current.add(last.id);
    const started: LiveTurn = {
      kind: 'follow',
      content: null,
      messageType: 'text',
      language,
      sentAt: last.timestamp,
      userMessageId: null,
      draft: {
        id: last.id,
        text: last.content,
        provider: last.provider ?? null,
        model: last.model ?? null,
        stopping: false,
      },
      error: null,
      active: true,
      finalStatus: null,
    };
    void run(started, (sid, signal) => followReply(sid, last.id, signal));
  }, [sessionId, stored, language, run]);

  const retry = useCallback(() => {
    const current = turnRef.current;
    if (!current || current.active) return;
    const id = sessionRef.current;
    if (id) void queryClient.invalidateQueries({ queryKey: chatKeys.session(id) });
    if (current.branch) {
      if (current.branch.action === 'regenerate') regenerate(current.branch.messageId);
      else if (current.content !== null) edit(current.branch.messageId, current.content, current.attachments);
      return;
    }
    if (current.content === null) {
      if (current.draft.id) followed.current.delete(current.draft.id);
      dispatch({ type: 'clear' });
      return;
    }
    send(current.content, current.language, current.messageType, current.attachments);
  }, [edit, queryClient, regenerate, send]);

  const shown = useMemo(() => shownMessages(stored, turn), [stored, turn]);

  return {
    query,
    messages: shown,
    turn,
    busy: Boolean(turn?.active),
    send,
    stop,
    retry,
    edit,
    regenerate,
    selectVersion,
    dismissError: () => {
      // A new version that failed may still have been stored: read the conversation as it is.
      const id = sessionRef.current;
      if (turnRef.current?.branch && id) void queryClient.invalidateQueries({ queryKey: chatKeys.session(id) });
      dispatch({ type: 'clear' });
    },
  };
}
