import type { AssistantReply, MessageStatus, MessageVersion } from '@kasa/contracts';
import { NotFoundError, PUBLISH_WAIT_MS, type EventBus, type Logger } from '@kasa/service-kit';
import type { Model, Types } from 'mongoose';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ConversationStore } from '../conversations/conversationStore';
import type { WriteGate } from '../conversations/writeGate';
import { toStoredMessage, type MessageDocument } from '../conversations/messageModel';
import type { Identity } from '../identity/identity';
import type { PromptBuilder } from '../prompts/promptBuilder';
import type { AttemptDocument } from '../providers/attemptModel';
import type { PromptMessage } from '../providers/chatProvider';
import type { ProviderChain, TurnHandlers, TurnResult } from '../providers/providerChain';
import type { ReplyStreams, ReplyWriter } from './replyStreams';

/** A turn whose user message is stored and whose assistant message waits (status `streaming`) for the reply. */
export interface PreparedTurn {
  who: Identity;
  sessionId: Types.ObjectId;
  personaId: string;
  system: string;
  history: PromptMessage[];
  language?: string;
  userMessageId: string;
  assistant: MessageDocument;
  requestId?: string;
  /** The concurrent-replies slot this turn holds; released once the reply is stored. */
  slotId: string;
  /** The reply's place among its versions, answered with it (edits and regenerated answers). */
  replyVersion?: MessageVersion;
  /** What the reply says first if the message has images and the provider answering cannot see them. */
  noVisionNotice?: string;
}

/** What a follower of a reply receives (see `follow`). */
export interface FollowSink {
  /** The message was found and is the caller's: the stream may open. */
  opened(): void;
  meta(meta: {
    userMessageId: string;
    assistantMessageId: string;
    provider: string;
    model: string;
    continued: boolean;
  }): void;
  token(text: string): void;
  done(reply: AssistantReply): void;
}

/**
 * A reply being written lives in ReplyStreams; the database gets a checkpoint of its text only now and then, so that
 * a reply whose replica died keeps most of its text and its `updatedAt` tells the stale sweep it is still alive. The
 * first comes after CHECKPOINT_FIRST_MS (most replies are finished by then), each next one twice as late, capped at
 * CHECKPOINT_MAX_GAP_MS (well under the sweep's 10 minutes), and never more than MAX_CHECKPOINTS per reply.
 */
const CHECKPOINT_FIRST_MS = 5_000;
const CHECKPOINT_MAX_GAP_MS = 120_000;
const MAX_CHECKPOINTS = 12;

/** How often a follower re-reads a reply that is `streaming` in the database but live nowhere it can see. */
const STORED_FOLLOW_POLL_MS = 5_000;

export interface ReplyRunnerDeps {
  store: ConversationStore;
  /** Replies being written: followed and stopped through it, from any replica when it is shared (Redis). */
  streams: ReplyStreams;
  chain: ProviderChain;
  prompts: PromptBuilder;
  attempts: Model<AttemptDocument>;
  bus: Pick<EventBus, 'publishWithin'>;
  logger: Logger;
  /** The process's queue of database writes, which the attempts join. */
  writes: WriteGate;
}

/**
 * Writes a prepared turn's reply: starts it in ReplyStreams, runs the provider chain, checkpoints the text now and
 * then, stores the finished reply with its attempts and announces it. Also follows and stops replies from any
 * replica, and sweeps the ones whose writer died.
 */
export class ReplyRunner {
  constructor(private readonly deps: ReplyRunnerDeps) {}

  /**
   * Runs the chain for a prepared turn and stores the outcome. `signal` is the client going away: it stops the reply,
   * unless the turn is `resumable`, whose reply goes on (followed through ReplyStreams from any replica) until it ends
   * or `requestStop` is called.
   */
  async run(
    turn: PreparedTurn,
    signal: AbortSignal,
    handlers: TurnHandlers,
    options: { resumable?: boolean },
  ): Promise<{ reply: AssistantReply; result: TurnResult }> {
    const writer = this.deps.streams.start(turn.assistant._id.toString(), turn.who.userId);
    let reply: AssistantReply | undefined;
    try {
      const outcome = await this.write(turn, writer, signal, handlers, options);
      reply = outcome.reply;
      return outcome;
    } finally {
      // Followers hear the end; the person's own answer does not wait for that. Without a stored reply (storing it
      // failed) followers read the end from the database.
      void writer.finish(reply);
    }
  }

  private async write(
    turn: PreparedTurn,
    writer: ReplyWriter,
    signal: AbortSignal,
    handlers: TurnHandlers,
    options: { resumable?: boolean },
  ): Promise<{ reply: AssistantReply; result: TurnResult }> {
    const { store, logger } = this.deps;
    const stop = new AbortController();
    const onStop = () => stop.abort(writer.stopped.reason);
    const onClientGone = () => stop.abort(signal.reason);
    if (writer.stopped.aborted) onStop();
    writer.stopped.addEventListener('abort', onStop, { once: true });
    if (!options.resumable) {
      if (signal.aborted) stop.abort(signal.reason);
      signal.addEventListener('abort', onClientGone, { once: true });
    }
    let text = '';
    let current: { provider: string; model: string } | undefined;
    let checkpointing: Promise<unknown> = Promise.resolve();
    let checkpoints = 0;
    let gap = CHECKPOINT_FIRST_MS;
    let timer: NodeJS.Timeout | undefined;
    // Never more than one checkpoint at a time: the next is scheduled once the last is written.
    const checkpoint = () => {
      checkpoints += 1;
      checkpointing = store
        .checkpoint(turn.assistant._id, text, current)
        .catch((err: unknown) => logger.warn({ err }, 'reply checkpoint not stored'))
        .finally(() => {
          gap = Math.min(gap * 2, CHECKPOINT_MAX_GAP_MS);
          if (checkpoints < MAX_CHECKPOINTS && timer) timer = schedule();
        });
    };
    const schedule = () => setTimeout(checkpoint, gap).unref();
    timer = schedule();

    let result: TurnResult;
    try {
      result = await this.deps.chain.run(
        {
          personaId: turn.personaId,
          system: turn.system,
          messages: this.deps.prompts.fit(turn.history),
          signal: stop.signal,
          ...(turn.noVisionNotice ? { noVisionNotice: turn.noVisionNotice } : {}),
        },
        {
          onProvider: (info) => {
            current = { provider: info.provider, model: info.model };
            writer.meta({ provider: info.provider, model: info.model, continued: info.continued });
            handlers.onProvider?.(info);
          },
          onText: (piece) => {
            text += piece;
            writer.append(piece);
            handlers.onText(piece);
          },
          ...(handlers.onQueued ? { onQueued: handlers.onQueued } : {}),
        },
      );
    } catch (err) {
      logger.error({ err }, 'provider chain failed unexpectedly');
      result = {
        text,
        status: 'failed',
        finishReason: 'stop',
        provider: 'none',
        model: '',
        inputTokens: 0,
        outputTokens: 0,
        latencyMs: 0,
        attempts: [],
      };
    } finally {
      clearTimeout(timer);
      timer = undefined;
      signal.removeEventListener('abort', onClientGone);
      writer.stopped.removeEventListener('abort', onStop);
    }
    await checkpointing;
    // Attempts first: once the message shows its final status, its attempts are there to read.
    await this.recordAttempts(turn, result).catch((err: unknown) =>
      logger.warn({ err }, 'provider attempts not recorded'),
    );
    const status: MessageStatus = result.status;
    const fields = { content: result.text, status, provider: result.provider, model: result.model };
    const stored = await store.finishReply(turn.assistant._id, turn.who.userId, {
      ...fields,
      tokens: result.outputTokens,
      latencyMs: result.latencyMs,
    });
    const doc = stored ?? { ...turn.assistant, ...fields };
    void this.deps.bus.publishWithin(
      'chat.message.created',
      {
        sessionId: turn.sessionId.toString(),
        userId: turn.who.userId,
        messageId: turn.assistant._id.toString(),
        personaId: turn.personaId,
        role: 'assistant',
        ...(turn.language ? { language: turn.language } : {}),
        provider: result.provider,
        tokens: result.outputTokens,
        latencyMs: result.latencyMs,
      },
      PUBLISH_WAIT_MS,
      { requestId: turn.requestId },
    );
    // The turn joins the history as the database query would read it: the reply only when complete or stopped.
    // Images are sent with their own turn only: the cached history keeps the text, as the database query reads it.
    const { role, content } = turn.history[turn.history.length - 1]!;
    const answered = (status === 'complete' || status === 'stopped') && result.text.length > 0;
    store.rememberTurn(
      turn.sessionId.toString(),
      turn.assistant._id.toString(),
      { role, content },
      ...(answered ? [{ role: 'assistant' as const, content: result.text }] : []),
    );
    return { reply: { ...toStoredMessage(doc, turn.replyVersion), userMessageId: turn.userMessageId }, result };
  }

  /**
   * The stop button: stops a reply being written, at once on this replica, on the replica writing it otherwise (when
   * replies are shared through Redis). Answers the message as it is now.
   */
  async requestStop(who: Identity, sessionId: string, messageId: string): Promise<AssistantReply> {
    const { store } = this.deps;
    const doc = await store.reply(await store.own(who, sessionId), messageId);
    if (!doc) throw new NotFoundError('Message not found');
    if (doc.status === 'streaming') await this.deps.streams.requestStop(messageId);
    return { ...toStoredMessage(doc), userMessageId: doc.replyTo?.toString() ?? '' };
  }

  /**
   * Follows a reply from whichever replica writes it: first the text so far, then what is added, then the stored
   * message. Live replies come from ReplyStreams; a reply no longer live there is read from the database (finished,
   * or its writer is out of reach: then re-read every few seconds). Ends early when `signal` aborts (the follower
   * left) or after `maxMs`.
   */
  async follow(
    who: Identity,
    sessionId: string,
    messageId: string,
    signal: AbortSignal,
    sink: FollowSink,
    options: { pollMs?: number; maxMs?: number } = {},
  ): Promise<void> {
    const session = await this.deps.store.own(who, sessionId);
    const read = () => this.deps.store.reply(session, messageId);
    let doc = await read();
    if (!doc) throw new NotFoundError('Message not found');
    sink.opened();
    let sent = 0;
    let announced = false;
    const announce = (provider: string, model: string, continued: boolean) => {
      announced = true;
      sink.meta({
        userMessageId: doc?.replyTo?.toString() ?? '',
        assistantMessageId: messageId,
        provider,
        model,
        continued,
      });
    };
    if (doc.status === 'streaming') {
      for await (const event of this.deps.streams.follow(messageId, signal)) {
        if (event.type === 'meta') announce(event.meta.provider, event.meta.model, announced && event.meta.continued);
        else if (event.type === 'text') {
          sink.token(event.text);
          sent += event.text.length;
        } else if (event.reply) {
          sink.done(event.reply);
          return;
        } else break;
      }
      if (signal.aborted) return;
      doc = await read();
    }
    const deadline = Date.now() + (options.maxMs ?? 15 * 60_000);
    while (doc && !signal.aborted) {
      if (!announced && doc.provider) announce(doc.provider, doc.model ?? '', false);
      if (doc.content.length > sent) {
        sink.token(doc.content.slice(sent));
        sent = doc.content.length;
      }
      if (doc.status !== 'streaming') {
        sink.done({ ...toStoredMessage(doc), userMessageId: doc.replyTo?.toString() ?? '' });
        return;
      }
      if (Date.now() > deadline) return;
      await sleep(options.pollMs ?? STORED_FOLLOW_POLL_MS, undefined, { signal }).catch(() => undefined);
      doc = await read();
    }
  }

  /** Marks `failed` the replies whose writer died (see ConversationStore.sweepStale). Run periodically. */
  sweep(olderThanMs: number): Promise<number> {
    return this.deps.store.sweepStale(olderThanMs);
  }

  private async recordAttempts(turn: PreparedTurn, result: TurnResult): Promise<void> {
    if (result.attempts.length === 0) return;
    await this.deps.writes.run(() =>
      this.deps.attempts.insertMany(
        result.attempts.map((a) => ({
          ...a,
          messageId: turn.assistant._id,
          sessionId: turn.sessionId,
          userId: turn.who.userId,
          personaId: turn.personaId,
        })),
      ),
    );
  }
}
