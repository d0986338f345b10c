import type { AssistantReply } from '@kasa/contracts';
import { InputError, PUBLISH_WAIT_MS, type EventBus, type Logger } from '@kasa/service-kit';
import { Types } from 'mongoose';
import type { AttachmentService, TurnAttachments } from '../attachments/attachmentService';
import type { ConversationStore } from '../conversations/conversationStore';
import type { SessionDocument } from '../conversations/sessionModel';
import type { WriteGate } from '../conversations/writeGate';
import type { Identity } from '../identity/identity';
import { DEFAULT_PERSONAS } from '../personas/catalogue';
import type { PersonaStore } from '../personas/personaStore';
import type { PromptBuilder } from '../prompts/promptBuilder';
import { estimateTokens } from '../providers/chatProvider';
import type { TurnHandlers, TurnResult } from '../providers/providerChain';
import type { FollowSink, PreparedTurn, ReplyRunner } from '../replies/replyRunner';
import { placeTurn, type TurnPlace, type TurnRequest } from '../turns/turnPlace';
import type { TurnPolicy } from '../turns/turnPolicy';

export interface MessageServiceDeps {
  /** Sessions, messages and their version tree: the one writer of them. */
  store: ConversationStore;
  /** What the person's plan allows, and the concurrent-replies slot of each turn. */
  policy: TurnPolicy;
  /** The system prompt (persona, language, location, documents) and the history within its budget. */
  prompts: PromptBuilder;
  /** Writes, follows, stops and sweeps replies. */
  replies: ReplyRunner;
  personas: PersonaStore;
  bus: Pick<EventBus, 'publishWithin'>;
  logger: Logger;
  /** The process's queue of database writes (see WriteGate). */
  writes: WriteGate;
  /** Images and documents sent with messages; without it, messages cannot carry any. */
  attachments?: AttachmentService;
}

/**
 * A chat turn, start to end: the policy checks the plan and reserves a reply slot, the store records where the turn
 * hangs in the conversation, the prompt builder says what the provider is asked, and the reply runner writes the
 * reply (complete, or what was produced when the user stopped) with every attempt.
 */
export class MessageService {
  constructor(private readonly deps: MessageServiceDeps) {}

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
    const { policy } = this.deps;
    policy.check(who, request.input);
    const slotId = await policy.reserve(who);
    try {
      return await this.open(who, sessionId, request, slotId, requestId, forwardedFor);
    } catch (err) {
      await policy.release(who.userId, slotId);
      throw err;
    }
  }

  private async open(
    who: Identity,
    sessionId: string,
    request: TurnRequest,
    slotId: string,
    requestId?: string,
    forwardedFor?: string,
  ): Promise<PreparedTurn> {
    const { store, prompts, personas } = this.deps;
    const session = await store.queued(() => store.own(who, sessionId));
    // Asked while the messages are stored; it never rejects and gives up after its timeout.
    const location = this.deps.policy.usesLocation(who, session.personaId)
      ? prompts.location(forwardedFor, requestId)
      : undefined;
    const persona =
      (await this.deps.writes.run(() => personas.findForUser(session.personaId, who.userId), 'first')) ??
      DEFAULT_PERSONAS.find((p) => p.id === 'kasa')!;
    const place = await placeTurn(store, session, request);
    const { asked } = place;
    const language = prompts.replyLanguage(asked.content, request.input.language, place.before, asked.language);
    const attached = await this.attachmentsOf(who, session, asked);
    if (place.branches) await store.queued(() => store.markBranched(session));
    const questionId = place.questionId ? new Types.ObjectId(place.questionId) : new Types.ObjectId();
    const assistant = await store.openTurn({
      session,
      questionId,
      questionStored: place.questionId !== undefined,
      replyId: new Types.ObjectId(),
      parentId: place.parentId,
      question: { type: asked.type, content: asked.content, attachments: attached.stored },
      ...(language ? { language } : {}),
      before: place.before,
    });
    if (!place.questionId) {
      void this.deps.bus.publishWithin(
        'chat.message.created',
        {
          sessionId: session._id.toString(),
          userId: who.userId,
          messageId: questionId.toString(),
          personaId: session.personaId,
          role: 'user',
          ...(language ? { language } : {}),
          tokens: estimateTokens(asked.content),
        },
        PUBLISH_WAIT_MS,
        { requestId },
      );
    }
    const versions = [...(place.replyVersions ?? []), assistant._id.toString()];
    const where = await location;
    const system = prompts.chatSystem({
      persona,
      ...(language ? { language } : {}),
      ...(where ? { location: where } : {}),
      documents: attached.documents,
    });
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
      ...(attached.images.length ? { noVisionNotice: prompts.noVisionNotice(language) } : {}),
      userMessageId: questionId.toString(),
      assistant,
      requestId,
      slotId,
      ...(place.branches
        ? { replyVersion: { index: versions.length - 1, count: versions.length, siblingIds: versions } }
        : {}),
    };
  }

  /** The attachments a turn's question carries, checked and bound to the session (see AttachmentService). */
  private async attachmentsOf(
    who: Identity,
    session: SessionDocument,
    asked: TurnPlace['asked'],
  ): Promise<TurnAttachments> {
    const ids = asked.attachmentIds;
    if (ids.length === 0) return { stored: [], images: [], documents: [] };
    const { attachments } = this.deps;
    if (!attachments) throw new InputError('This service takes no attachments.');
    const options = { inherited: asked.inherited === true };
    return this.deps.writes.run(() => attachments.forMessage(who, session._id, ids, options), 'first');
  }

  /**
   * Writes the reply of a prepared turn (see ReplyRunner.run), then gives its reply slot back. `signal` is the
   * client going away: it stops the reply unless the turn is `resumable`.
   */
  async complete(
    turn: PreparedTurn,
    signal: AbortSignal,
    handlers: TurnHandlers,
    options: { resumable?: boolean } = {},
  ): Promise<{ reply: AssistantReply; result: TurnResult }> {
    try {
      return await this.deps.replies.run(turn, signal, handlers, options);
    } finally {
      await this.deps.policy.release(turn.who.userId, turn.slotId);
    }
  }

  /** The stop button (see ReplyRunner.requestStop). */
  requestStop(who: Identity, sessionId: string, messageId: string): Promise<AssistantReply> {
    return this.deps.replies.requestStop(who, sessionId, messageId);
  }

  /** Follows a reply from whichever replica writes it (see ReplyRunner.follow). */
  follow(
    who: Identity,
    sessionId: string,
    messageId: string,
    signal: AbortSignal,
    sink: FollowSink,
    options: { pollMs?: number; maxMs?: number } = {},
  ): Promise<void> {
    return this.deps.replies.follow(who, sessionId, messageId, signal, sink, options);
  }

  /** Marks `failed` the replies whose writer died, untouched for `olderThanMs`. Run periodically. */
  sweepStale(olderThanMs: number): Promise<number> {
    return this.deps.replies.sweep(olderThanMs);
  }
}
