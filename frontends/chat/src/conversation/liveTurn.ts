import type { AssistantReply, MessageStatus, StoredMessage } from '@kasa/contracts';
import type { ReplyMeta } from '../streaming/replyEvents';

export type MessageType = StoredMessage['type'];

/** The reply being written, as far as it has come. */
export interface DraftReply {
  /** The stored assistant message's id, once the stream has said it (`meta`). */
  id: string | null;
  text: string;
  provider: string | null;
  model: string | null;
  /** Stop was pressed; the stream has not ended yet. */
  stopping: boolean;
}

/** The turn in progress: a message being sent and its reply, or a reply followed after a reload. */
export interface LiveTurn {
  kind: 'send' | 'follow';
  /** The user's text of a send (kept for Retry); null when following a reply written before a reload. */
  content: string | null;
  /** How the user's message was made: typed (`text`) or spoken (`voice`, its transcript as the content). */
  messageType: MessageType;
  language: string;
  /** When the user sent it (the stored message's timestamp until the session is fetched again). */
  sentAt: string;
  userMessageId: string | null;
  draft: DraftReply;
  /** Why the turn failed (shown inline with Retry); null while it goes well. */
  error: string | null;
  /** The request or the stream is still open. */
  active: boolean;
  /**
   * How the reply ended, once the stream said so. The turn stays shown until the stored conversation holds the
   * reply too, so that nothing flickers in between.
   */
  finalStatus: MessageStatus | null;
}

export type TurnAction =
  | { type: 'start'; turn: LiveTurn }
  | { type: 'meta'; meta: ReplyMeta }
  | { type: 'text'; text: string; replace: boolean }
  | { type: 'stopping'; stopping: boolean }
  | { type: 'failed'; message: string }
  | { type: 'finished'; reply: AssistantReply }
  | { type: 'clear' };

/** The reducer of the live turn. Actions for a turn that is gone (cleared) change nothing. */
export function turnReducer(turn: LiveTurn | null, action: TurnAction): LiveTurn | null {
  if (action.type === 'start') return action.turn;
  if (action.type === 'clear' || turn === null) return null;
  switch (action.type) {
    case 'meta':
      return {
        ...turn,
        userMessageId: action.meta.userMessageId || turn.userMessageId,
        draft: {
          ...turn.draft,
          id: action.meta.assistantMessageId,
          provider: action.meta.provider,
          model: action.meta.model,
        },
      };
    case 'text':
      return { ...turn, draft: { ...turn.draft, text: action.replace ? action.text : turn.draft.text + action.text } };
    case 'stopping':
      return { ...turn, draft: { ...turn.draft, stopping: action.stopping } };
    case 'failed':
      return { ...turn, active: false, error: action.message, draft: { ...turn.draft, stopping: false } };
    case 'finished': {
      const { reply } = action;
      return {
        ...turn,
        active: false,
        finalStatus: reply.status,
        userMessageId: reply.userMessageId || turn.userMessageId,
        draft: {
          ...turn.draft,
          id: reply.id,
          text: reply.content,
          provider: reply.provider ?? turn.draft.provider,
          model: reply.model ?? turn.draft.model,
          stopping: false,
        },
      };
    }
  }
}

/** A session title from the first message: its first 60 characters on one line. */
export function titleFrom(content: string): string {
  const line = content.replace(/\s+/g, ' ').trim();
  return line.length > 60 ? `${line.slice(0, 59).trimEnd()}…` : line || 'New chat';
}
