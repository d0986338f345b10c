import {
  allows,
  type AssistantReply,
  type CreateMessageRequest,
  type EditMessageRequest,
  type MessageStatus,
  type MessageVersion,
  type RegenerateRequest,
} from '@kasa/contracts';
import {
  assertPlanAllows,
  InputError,
  NotFoundError,
  TooManyRequestsError,
  withTransientRetry,
  type Logger,
} from '@kasa/service-kit';
import type { LanguageDetector } from '@kasa/language-detect';
import { Types, type Model } from 'mongoose';
import { setTimeout as sleep } from 'node:timers/promises';
import { publishEvent, type EventPublisher } from '../events/publishEvent';
import type { ReplyStreams, ReplyWriter } from '../replies/replyStreams';
import type { ReplySlots } from '../replies/replySlots';
import { usesGeoContext, type GeoContext } from '../geo/geoContext';
import type { Identity } from '../identity/identity';
import { DEFAULT_PERSONAS } from '../personas/catalogue';
import type { PersonaStore } from '../personas/personaStore';
import type { AttemptDocument } from '../providers/attemptModel';
import { CHARS_PER_TOKEN, estimateTokens, type PromptMessage } from '../providers/chatProvider';
import { NO_VISION_NOTICE, type ProviderChain, type TurnHandlers, type TurnResult } from '../providers/providerChain';
import { ATTACHMENTS_PLAN, type AttachmentService, type TurnAttachments } from '../attachments/attachmentService';
import { documentsPrompt } from '../attachments/documentPrompt';
import type { SessionDocument } from '../sessions/sessionModel';
import type { SessionService } from '../sessions/sessionService';
import { toStoredMessage, type MessageDocument } from './messageModel';
import type { CachedHistory, HistoryCache } from './historyCache';
import { WriteGate } from './writeGate';

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

/**
 * What a turn answers. Every kind stores a reply placeholder and streams the reply the same way; they differ in where
 * the turn hangs in the conversation (see ConversationTree) and so in the history its prompt is made of.
 */
export type TurnRequest =
  /** A new message after the last message of the current branch. */
  | { kind: 'send'; input: CreateMessageRequest }
  /** A new version of one of my messages (`messageId`), in its place: it follows what that one followed. */
  | { kind: 'edit'; messageId: string; input: EditMessageRequest }
  /** A new version of an answer (`messageId`) to the same question; no message of mine is stored. */
  | { kind: 'regenerate'; messageId: string; input: RegenerateRequest };

/** Where a turn hangs and what its prompt reads. */
interface TurnPlace {
  /** The message the new user message follows (null: it is a first message). Unused when `questionId` is set. */
  parentId: string | null;
  /** The history before the question, along the branch the turn continues, oldest first. */
  before: PromptMessage[];
  /** The question answered, with the ids of its attachments. */
  asked: {
    content: string;
    type: MessageDocument['type'];
    language?: string;
    attachmentIds: string[];
    /** The ids come from the stored message (an edit that left them out, a regenerated answer). */
    inherited?: boolean;
  };
  /** The stored question a regenerated answer answers; a new question is stored otherwise. */
  questionId?: string;
  /** The versions the reply joins (a regenerated answer's earlier versions). */
  replyVersions?: string[];
  /** The turn makes a second version of a message: the conversation is read as a tree from now on. */
  branches: boolean;
}

/** Messages a prompt's history reads: finished or stopped replies with some text, and the person's messages. */
function toPromptHistory(docs: Array<Pick<MessageDocument, 'role' | 'content' | 'status'>>): PromptMessage[] {
  return docs
    .filter((d) => (d.status === 'complete' || d.status === 'stopped') && d.content.length > 0)
    .map((d) => ({ role: d.role, content: d.content }));
}

/** When the person is at the concurrent-replies limit, after how many seconds a retry makes sense. */
export const REPLY_RETRY_AFTER_SECONDS = 5;

/** 429: the person already has as many replies being written as the limit allows. */
export class TooManyRepliesError extends TooManyRequestsError {
  constructor(limit: number) {
    super(
      `You have ${limit} replies being written. Wait for one to finish (or stop it), then send again.`,
      REPLY_RETRY_AFTER_SECONDS,
      { limit },
    );
  }
}

const PLAN_FEATURE: Record<'voice' | 'image', string> = {
  voice: 'Voice messages are part of the Pro plan. Upgrade to Pro to send them.',
  image: 'Image (multimodal) messages are part of the Pro plan. Upgrade to Pro to send them.',
};

const LANGUAGE_CHOICE_PLAN =
  'Choosing a reply language is part of the Pro plan. Upgrade to Pro, or use auto: Kasa then answers in the ' +
  'language you write in.';

/**
 * Spec section 6 keeps multilingual features (and geo-awareness) for Pro and up. On Free, Kasa still answers in the
 * language a message is written in (`auto`): refusing a Twi speaker an answer in Twi would defeat the product; what
 * Pro adds is choosing the reply language (and translation, voices and the personas' location context).
 */
function isFreeLanguageChoice(tag: string): boolean {
  const lower = tag.toLowerCase();
  return lower === 'auto' || lower === 'en' || lower.startsWith('en-');
}

const languageNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'code' });

/** CLDR names Twi "Akan" (its macrolanguage); the model should hear the name people use. */
const NAME_OVERRIDES: Record<string, string> = { tw: 'Twi' };

/** 'tw' → 'Twi', 'fr-CI' → 'French (Côte d’Ivoire)'; a tag Intl does not know stays as it is. */
function languageName(tag: string): string {
  if (NAME_OVERRIDES[tag]) return NAME_OVERRIDES[tag];
  try {
    return languageNames.of(tag) ?? tag;
  } catch {
    return tag;
  }
}

/** The most history rows one prompt ever looks at; the token budget usually stops earlier. */
const HISTORY_SCAN_LIMIT = 100;

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

/** The longest a database query of a turn may take. */
const QUERY_TIME_LIMIT_MS = 10_000;
/**
 * The finished reply is the person's data: storing it may wait longer in a busy database (the embedded one
 * serialises writes, and its updates cost more as the collection grows) before it is given up on.
 */
const FINAL_STORE_TIME_LIMIT_MS = 60_000;

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
 * A chat turn: stores the user's message, builds the prompt (persona, history within a token budget, language), asks
 * the provider chain, and stores the reply (complete, or what was produced when the user stopped) with every attempt.
 */
export class MessageService {
  constructor(
    private readonly sessions: SessionService,
    private readonly messages: Model<MessageDocument>,
    private readonly attempts: Model<AttemptDocument>,
    private readonly personas: PersonaStore,
    private readonly chain: ProviderChain,
    private readonly bus: EventPublisher,
    private readonly logger: Logger,
    private readonly historyTokenBudget: number,
    /** Detects the reply language when the person has not chosen one; without it the model mirrors the message. */
    private readonly detector: LanguageDetector | undefined,
    /** Where the caller appears to be, for the personas that use it; left out of the prompt when unknown. */
    private readonly geo: GeoContext | undefined,
    /** Replies being written: followed and stopped through it, from any replica when it is shared (Redis). */
    private readonly streams: ReplyStreams,
    /** The concurrent-replies limit, reserved before any work (shared by every replica). */
    private readonly slots: ReplySlots,
    /** Every write of a turn queues here (see WriteGate). */
    private readonly writes: WriteGate = new WriteGate(Infinity),
    /** Recent history of the sessions this process serves (one replica only; see HistoryCache). */
    private readonly historyCache?: HistoryCache,
    /** Images and documents sent with messages; without it, messages cannot carry any. */
    private readonly attachments?: AttachmentService,
  ) {}

  /** The attachment ids a stored message of mine carries (an edit keeps them unless it says otherwise). */
  private async attachmentIdsOf(session: SessionDocument, messageId: string): Promise<string[]> {
    const doc = await this.writes.run(
      () =>
        this.messages
          .findOne({ _id: new Types.ObjectId(messageId), sessionId: session._id, ownerId: session.ownerId })
          .select({ attachments: 1 })
          .maxTimeMS(QUERY_TIME_LIMIT_MS)
          .lean(),
      'first',
    );
    return (doc?.attachments ?? []).map((a) => a.id);
  }

  /** The attachments a turn's question carries, checked and bound to the session (see AttachmentService). */
  private async attachmentsOf(
    who: Identity,
    session: SessionDocument,
    asked: TurnPlace['asked'],
  ): Promise<TurnAttachments> {
    const ids = asked.attachmentIds;
    if (ids.length === 0) return { stored: [], images: [], documents: [] };
    if (!this.attachments) throw new InputError('This service takes no attachments.');
    const attachments = this.attachments;
    const options = { inherited: asked.inherited === true };
    return this.writes.run(() => attachments.forMessage(who, session._id, ids, options), 'first');
  }

  /**
   * The language the reply should be in: the person's choice when they made one (it always wins, so a misread
   * message never switches the conversation), else the language detected from the message, with their recent
   * messages as a hint. A detection the detector is not sure of (`reliable: false`, below its calibrated confidence)
   * sets nothing: the model then mirrors the message.
   */
  private replyLanguage(
    content: string,
    chosen: string | undefined,
    history: PromptMessage[],
    /** A regenerated answer's question: the language it was answered in before (chosen or detected). */
    earlier?: string,
  ): string | undefined {
    if (chosen && chosen !== 'auto') return chosen;
    if (earlier) return earlier;
    if (!this.detector) return undefined;
    const recent = history
      .filter((m) => m.role === 'user')
      .slice(-3)
      .map((m) => m.content);
    const detected = this.detector.detect(content, { recent });
    return detected.reliable ? detected.language : undefined;
  }

  /**
   * Checks the session and the plan, stores the user message (unless an answer is regenerated) and the assistant
   * placeholder. Throws 403/404 (and 400 for a message of the wrong role) first.
   */
  async prepare(
    who: Identity,
    sessionId: string,
    request: TurnRequest,
    requestId?: string,
    /** The caller's X-Forwarded-For (or socket address), for the location of the personas that use one. */
    forwardedFor?: string,
  ): Promise<PreparedTurn> {
    const { input } = request;
    if ('type' in input && input.type !== 'text')
      assertPlanAllows(who.tier, input.type === 'voice' ? 'voice' : 'attachments', PLAN_FEATURE[input.type]);
    if (input.language && !isFreeLanguageChoice(input.language))
      assertPlanAllows(who.tier, 'languages', LANGUAGE_CHOICE_PLAN);
    if ('attachmentIds' in input && input.attachmentIds?.length)
      assertPlanAllows(who.tier, 'attachments', ATTACHMENTS_PLAN);
    // The slot is reserved before anything is read or stored, so that simultaneous messages cannot all slip in.
    const slotId = await this.slots.acquire(who.userId);
    if (!slotId) throw new TooManyRepliesError(this.slots.limit);
    try {
      return await this.store(who, sessionId, request, slotId, requestId, forwardedFor);
    } catch (err) {
      await this.releaseSlot(who.userId, slotId);
      throw err;
    }
  }

  /** Where a turn hangs in the conversation, and the history its prompt reads (see TurnRequest). */
  private async placeOf(session: SessionDocument, request: TurnRequest): Promise<TurnPlace> {
    if (request.kind === 'send') {
      const { history, leafId } = await this.branchEnd(session);
      const { content, type, attachmentIds = [] } = request.input;
      return { parentId: leafId, before: history, asked: { content, type, attachmentIds }, branches: false };
    }
    const tree = await this.writes.run(() => this.sessions.tree(session), 'first');
    const id = new Types.ObjectId(request.messageId).toString();
    const target = tree.node(id);
    if (!target) throw new NotFoundError('Message not found');
    if (request.kind === 'edit') {
      if (target.role !== 'user')
        throw new InputError(
          'Only your own messages can be edited, and this one is an answer: regenerate it for another version.',
          [{ path: 'messageId', message: 'an answer cannot be edited' }],
        );
      const parentId = tree.parentOf(id);
      const before = parentId ? await this.historyAlong(session, tree.pathTo(parentId)) : [];
      const { content, type } = request.input;
      // Left out, the edited message's attachments stay with the new version; `[]` drops them.
      const inherited = request.input.attachmentIds === undefined;
      const attachmentIds = request.input.attachmentIds ?? (await this.attachmentIdsOf(session, id));
      return { parentId, before, asked: { content, type, attachmentIds, inherited }, branches: true };
    }
    if (target.role !== 'assistant')
      throw new InputError(
        'Only an answer can be regenerated, and this one is your message: edit it for another version.',
        [{ path: 'messageId', message: 'a message of yours cannot be regenerated' }],
      );
    const questionId = tree.parentOf(id);
    if (!questionId || tree.node(questionId)?.role !== 'user')
      throw new InputError('This answer follows no message of yours, so there is no question to answer again.', [
        { path: 'messageId', message: 'no question to answer again' },
      ]);
    const path = tree.pathTo(questionId).slice(-(HISTORY_SCAN_LIMIT + 1));
    const docs = await this.writes.run(() => this.sessions.messagesById(session, path), 'first');
    const question = docs.at(-1);
    if (question?._id.toString() !== questionId) throw new NotFoundError('Message not found');
    return {
      parentId: tree.parentOf(questionId),
      before: toPromptHistory(docs.slice(0, -1)),
      asked: {
        content: question.content,
        type: question.type,
        ...(question.language ? { language: question.language } : {}),
        attachmentIds: (question.attachments ?? []).map((a) => a.id),
        inherited: true,
      },
      questionId,
      replyVersions: tree.versionsOf(id),
      branches: true,
    };
  }

  private async store(
    who: Identity,
    sessionId: string,
    request: TurnRequest,
    slotId: string,
    requestId?: string,
    forwardedFor?: string,
  ): Promise<PreparedTurn> {
    // The reads before the reply starts queue with the writes: on the embedded database every transaction takes
    // the write lock, and a reader left to wait inside it backs off like a writer.
    const session = await this.writes.run(() => this.sessions.own(who, sessionId), 'first');
    // Asked while the messages are stored; it never rejects and gives up after its timeout.
    const location =
      this.geo && forwardedFor && allows(who.tier, 'geo') && usesGeoContext(session.personaId)
        ? this.geo.sentenceFor(forwardedFor, requestId)
        : undefined;
    const persona =
      (await this.writes.run(() => this.personas.findForUser(session.personaId, who.userId), 'first')) ??
      DEFAULT_PERSONAS.find((p) => p.id === 'kasa')!;
    const place = await this.placeOf(session, request);
    const { asked } = place;
    const language = this.replyLanguage(asked.content, request.input.language, place.before, asked.language);
    const attached = await this.attachmentsOf(who, session, asked);
    if (place.branches) await this.writes.run(() => this.sessions.markBranched(session), 'first');
    // One write for both (ids chosen here keep the user message first): the embedded database serialises writes.
    const userId = place.questionId ? new Types.ObjectId(place.questionId) : new Types.ObjectId();
    const assistantId = new Types.ObjectId();
    const question = place.questionId
      ? []
      : [
          {
            _id: userId,
            sessionId: session._id,
            ownerId: who.userId,
            personaId: session.personaId,
            role: 'user',
            type: asked.type,
            content: asked.content,
            status: 'complete',
            parentId: place.parentId ? new Types.ObjectId(place.parentId) : null,
            ...(language ? { language } : {}),
            ...(attached.stored.length ? { attachments: attached.stored } : {}),
          },
        ];
    const stored = await withTransientRetry(
      () =>
        this.writes.run(
          () =>
            this.messages.insertMany([
              ...question,
              {
                _id: assistantId,
                sessionId: session._id,
                ownerId: who.userId,
                personaId: session.personaId,
                role: 'assistant',
                type: 'text',
                content: '',
                status: 'streaming',
                replyTo: userId,
                parentId: userId,
                ...(language ? { language } : {}),
              },
            ]),
          'first',
        ),
      { logger: this.logger, what: 'store the message and the reply placeholder' },
    );
    const assistant = stored[stored.length - 1]!;
    // The conversation's branch now ends at this reply; the prompt history of the next message goes on from here.
    this.historyCache?.set(session._id.toString(), place.before, assistantId.toString());
    if (!place.questionId) {
      void publishEvent(
        this.bus,
        this.logger,
        'chat.message.created',
        {
          sessionId: session._id.toString(),
          userId: who.userId,
          messageId: userId.toString(),
          personaId: session.personaId,
          role: 'user',
          ...(language ? { language } : {}),
          tokens: estimateTokens(asked.content),
        },
        requestId,
      );
    }
    const replyVersions = [...(place.replyVersions ?? []), assistantId.toString()];
    const system = [
      persona.systemPrompt,
      language ? `The user's language is ${languageName(language)} (${language}); reply in it.` : undefined,
      await location,
      // Documents go with the system prompt, not the history: the next turn's history is the messages as stored.
      documentsPrompt(attached.documents, this.historyTokenBudget * CHARS_PER_TOKEN) || undefined,
    ]
      .filter(Boolean)
      .join('\n');
    return {
      who,
      sessionId: session._id,
      personaId: session.personaId,
      system,
      history: [
        ...place.before,
        { role: 'user', content: asked.content, ...(attached.images.length ? { images: attached.images } : {}) },
      ],
      language,
      ...(attached.images.length ? { noVisionNotice: noVisionNoticeFor(language) } : {}),
      userMessageId: userId.toString(),
      assistant: assistant.toObject(),
      requestId,
      slotId,
      ...(place.branches
        ? {
            replyVersion: {
              index: replyVersions.length - 1,
              count: replyVersions.length,
              siblingIds: replyVersions,
            },
          }
        : {}),
    };
  }

  private async releaseSlot(ownerId: string, slotId: string): Promise<void> {
    // A slot that cannot be released now expires by itself (SLOT_TTL_MS).
    await this.slots
      .release(ownerId, slotId)
      .catch((err: unknown) => this.logger.warn({ err }, 'reply slot not released'));
  }

  /**
   * Runs the chain for a prepared turn and stores the outcome. `signal` is the client going away: it stops the reply,
   * unless the turn is `resumable`, whose reply goes on (followed through ReplyStreams from any replica) until it ends
   * or `requestStop` is called.
   */
  async complete(
    turn: PreparedTurn,
    signal: AbortSignal,
    handlers: TurnHandlers,
    options: { resumable?: boolean } = {},
  ): Promise<{ reply: AssistantReply; result: TurnResult }> {
    const id = turn.assistant._id.toString();
    const writer = this.streams.start(id, turn.who.userId);
    let reply: AssistantReply | undefined;
    try {
      const outcome = await this.write(turn, writer, signal, handlers, options);
      reply = outcome.reply;
      return outcome;
    } finally {
      // Followers hear the end; the person's own answer does not wait for that. Without a stored reply (storing it
      // failed) followers read the end from the database.
      void writer.finish(reply);
      await this.releaseSlot(turn.who.userId, turn.slotId);
    }
  }

  private async write(
    turn: PreparedTurn,
    writer: ReplyWriter,
    signal: AbortSignal,
    handlers: TurnHandlers,
    options: { resumable?: boolean },
  ): Promise<{ reply: AssistantReply; result: TurnResult }> {
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
    // Writes the text so far, which also keeps `updatedAt` fresh for the stale sweep; never more than one at a time.
    const checkpoint = () => {
      checkpoints += 1;
      checkpointing = this.messages
        .updateOne({ _id: turn.assistant._id, status: 'streaming' }, { $set: { content: text, ...(current ?? {}) } })
        .maxTimeMS(QUERY_TIME_LIMIT_MS)
        .catch((err: unknown) => this.logger.warn({ err }, 'reply checkpoint not stored'))
        .finally(() => {
          gap = Math.min(gap * 2, CHECKPOINT_MAX_GAP_MS);
          if (checkpoints < MAX_CHECKPOINTS && timer) timer = schedule();
        });
    };
    const schedule = () => setTimeout(checkpoint, gap).unref();
    timer = schedule();

    let result: TurnResult;
    try {
      result = await this.chain.run(
        {
          personaId: turn.personaId,
          system: turn.system,
          messages: fitHistory(turn.history, this.historyTokenBudget),
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
        },
      );
    } catch (err) {
      this.logger.error({ err }, 'provider chain failed unexpectedly');
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
      this.logger.warn({ err }, 'provider attempts not recorded'),
    );
    const status: MessageStatus = result.status;
    // The finished reply is the person's data: a busy database gets a few more tries before it is given up on.
    const stored = await withTransientRetry(
      () =>
        this.writes.run(() =>
          this.messages
            .findOneAndUpdate(
              { _id: turn.assistant._id, ownerId: turn.who.userId },
              {
                $set: {
                  content: result.text,
                  status,
                  provider: result.provider,
                  model: result.model,
                  tokens: result.outputTokens,
                  latencyMs: result.latencyMs,
                },
              },
              { new: true },
            )
            .maxTimeMS(FINAL_STORE_TIME_LIMIT_MS)
            .lean(),
        ),
      { logger: this.logger, what: 'store the finished reply' },
    );
    const doc = stored ?? {
      ...turn.assistant,
      content: result.text,
      status,
      provider: result.provider,
      model: result.model,
    };
    void publishEvent(
      this.bus,
      this.logger,
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
      turn.requestId,
    );
    // The turn joins the history as the database query would read it: the reply only when complete or stopped.
    // Images are sent with their own turn only: the cached history keeps the text, as the database query reads it.
    const { role, content } = turn.history[turn.history.length - 1]!;
    const asked: PromptMessage = { role, content };
    const answered = (status === 'complete' || status === 'stopped') && result.text.length > 0;
    this.historyCache?.append(
      turn.sessionId.toString(),
      turn.assistant._id.toString(),
      asked,
      ...(answered ? [{ role: 'assistant' as const, content: result.text }] : []),
    );
    return { reply: { ...toStoredMessage(doc, turn.replyVersion), userMessageId: turn.userMessageId }, result };
  }

  /**
   * The stop button: stops a reply being written, at once on this replica, on the replica writing it otherwise (when
   * replies are shared through Redis). Answers the message as it is now.
   */
  async requestStop(who: Identity, sessionId: string, messageId: string): Promise<AssistantReply> {
    const session = await this.sessions.own(who, sessionId);
    const doc = await this.messages
      .findOne({ _id: new Types.ObjectId(messageId), sessionId: session._id, ownerId: who.userId, role: 'assistant' })
      .maxTimeMS(QUERY_TIME_LIMIT_MS)
      .lean();
    if (!doc) throw new NotFoundError('Message not found');
    if (doc.status === 'streaming') await this.streams.requestStop(messageId);
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
    const session = await this.sessions.own(who, sessionId);
    const filter = {
      _id: new Types.ObjectId(messageId),
      sessionId: session._id,
      ownerId: who.userId,
      role: 'assistant',
    };
    const read = () => this.messages.findOne(filter).maxTimeMS(QUERY_TIME_LIMIT_MS).lean();
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
      for await (const event of this.streams.follow(messageId, signal)) {
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

  /**
   * Replies still `streaming` but untouched for `olderThanMs` lost their writer (a replica died): they are marked
   * `failed`, keeping the text they had. Run periodically.
   */
  async sweepStale(olderThanMs: number): Promise<number> {
    const result = await this.messages.updateMany(
      { status: 'streaming', updatedAt: { $lt: new Date(Date.now() - olderThanMs) } },
      { $set: { status: 'failed' } },
      { maxTimeMS: QUERY_TIME_LIMIT_MS },
    );
    return result.modifiedCount;
  }

  private async recordAttempts(turn: PreparedTurn, result: TurnResult): Promise<void> {
    if (result.attempts.length === 0) return;
    await this.writes.run(() =>
      this.attempts.insertMany(
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

  /**
   * The end of the conversation's current branch: its recent messages, oldest first (the budget is applied later,
   * with the new message), and the last message, which a new message follows. A conversation that never branched is
   * one line: its newest messages, in one query.
   */
  private async branchEnd(session: SessionDocument): Promise<CachedHistory> {
    const cached = this.historyCache?.get(session._id.toString());
    if (cached) return cached;
    if (session.branched) {
      const branch = (await this.writes.run(() => this.sessions.tree(session), 'first')).branch();
      return { history: await this.historyAlong(session, branch), leafId: branch.at(-1) ?? null };
    }
    const docs = await this.writes.run(
      () =>
        this.messages
          .find({ sessionId: session._id, ownerId: session.ownerId })
          .sort({ _id: -1 })
          .limit(HISTORY_SCAN_LIMIT)
          .maxTimeMS(QUERY_TIME_LIMIT_MS)
          .lean(),
      'first',
    );
    const newest = docs[0]?._id.toString() ?? null;
    return { history: toPromptHistory(docs.reverse()), leafId: newest };
  }

  /** The history along a path of the conversation (its last HISTORY_SCAN_LIMIT messages), oldest first. */
  private async historyAlong(session: SessionDocument, path: string[]): Promise<PromptMessage[]> {
    const ids = path.slice(-HISTORY_SCAN_LIMIT);
    return toPromptHistory(await this.writes.run(() => this.sessions.messagesById(session, ids), 'first'));
  }
}

/** The notice of a reply whose images the provider could not see, in the reply's language where Kasa has it. */
function noVisionNoticeFor(language: string | undefined): string {
  const primary = language?.split('-')[0]?.toLowerCase() ?? 'en';
  return NO_VISION_NOTICE[primary] ?? NO_VISION_NOTICE.en!;
}

/** The newest messages that fit the token budget (≈ 4 characters a token); the last message is always kept. */
export function fitHistory(messages: PromptMessage[], budget: number): PromptMessage[] {
  const kept: PromptMessage[] = [];
  let used = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    const cost = estimateTokens(message.content) + 4;
    if (kept.length > 0 && used + cost > budget) break;
    kept.push(message);
    used += cost;
  }
  // Providers expect the conversation to start with the user.
  while (kept.length > 1 && kept[kept.length - 1]!.role === 'assistant') kept.pop();
  return kept.reverse();
}
