import type { AssistantReply, MessageAttachment, MessageStatus, MessageVersion, StoredMessage } from '@kasa/contracts';
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
  /** The reply's place in the local model's line while it waits (1 = next); 0 or unset once its turn came. */
  queuePosition?: number;
}

/** What a turn replaces in the view: an edited message of mine, or an answer asked again. */
export interface TurnBranch {
  action: 'edit' | 'regenerate';
  /** The stored message it makes a new version of; it and what follows it give way to the turn. */
  messageId: string;
}

/** The turn in progress: a message being sent and its reply, or a reply followed after a reload. */
export interface LiveTurn {
  kind: 'send' | 'follow';
  /** Set when the turn makes a new version of a message (edit, regenerate) rather than adding one. */
  branch?: TurnBranch;
  /**
   * The user's text of a send or an edit (kept for Retry); null when an answer is asked again, or when following a
   * reply written before a reload.
   */
  content: string | null;
  /** How the user's message was made: typed (`text`) or spoken (`voice`, its transcript as the content). */
  messageType: MessageType;
  /** The images and documents sent with it (kept for Retry). */
  attachments?: MessageAttachment[];
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
  | { type: 'queued'; position: number }
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
    case 'queued':
      return { ...turn, draft: { ...turn.draft, queuePosition: action.position } };
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

/** A message as the conversation shows it: stored, or the live one being sent or written. */
export interface ShownMessage {
  key: string;
  id: string | null;
  role: 'user' | 'assistant';
  content: string;
  /** `voice` for a message that was spoken (its transcript is the content). */
  type: StoredMessage['type'];
  status: StoredMessage['status'];
  provider?: string;
  model?: string;
  /** The reply being written now. */
  live?: boolean;
  /** The reply being written waits at the local model, at this place in line (shown until its first text). */
  queuePosition?: number;
  /** Its place among its versions (stored messages). */
  version?: MessageVersion;
  /** The images and documents sent with it (messages of mine). */
  attachments?: MessageAttachment[];
}

/**
 * What the conversation shows: the stored messages, then the live turn (the message being sent, the reply being
 * written). The turn's own messages are shown live until the stored conversation holds them (a regenerated answer's
 * question, and a followed reply's, stay the stored ones). A new version (edit, regenerate) takes the place of the
 * message it replaces, and of everything below it, until the stored conversation is read again along the new branch.
 */
export function shownMessages(stored: StoredMessage[], turn: LiveTurn | null): ShownMessage[] {
  const hidden = new Set([turn?.content != null ? turn.userMessageId : null, turn?.draft.id].filter(Boolean));
  const replaced = turn?.branch ? stored.findIndex((m) => m.id === turn.branch!.messageId) : -1;
  const list: ShownMessage[] = (replaced >= 0 ? stored.slice(0, replaced) : stored)
    .filter((m) => !hidden.has(m.id))
    .map((m) => ({
      key: m.id,
      id: m.id,
      role: m.role,
      content: m.content,
      type: m.type,
      status: m.status,
      ...(m.provider ? { provider: m.provider } : {}),
      ...(m.model ? { model: m.model } : {}),
      ...(m.version ? { version: m.version } : {}),
      ...(m.attachments?.length ? { attachments: m.attachments } : {}),
    }));
  if (turn?.content != null) {
    list.push({
      key: 'live-user',
      id: turn.userMessageId,
      role: 'user',
      content: turn.content,
      type: turn.messageType,
      status: 'complete',
      ...(turn.attachments?.length ? { attachments: turn.attachments } : {}),
    });
  }
  if (turn && (turn.active || turn.draft.text || turn.finalStatus)) {
    list.push({
      key: 'live-reply',
      id: turn.draft.id,
      role: 'assistant',
      content: turn.draft.text,
      type: 'text',
      status: turn.active ? 'streaming' : (turn.finalStatus ?? 'failed'),
      ...(turn.draft.provider ? { provider: turn.draft.provider } : {}),
      ...(turn.draft.model ? { model: turn.draft.model } : {}),
      ...(turn.active && !turn.draft.text && turn.draft.queuePosition
        ? { queuePosition: turn.draft.queuePosition }
        : {}),
      live: turn.active,
    });
  }
  return list;
}
