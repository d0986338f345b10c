import { ErrorCode, type AssistantReply, type CreateMessageRequest, type MessageStatus } from '@kasa/contracts';
import { HttpError, NotAllowedError, NotFoundError, withTransientRetry, type Logger } from '@kasa/service-kit';
import type { LanguageDetector } from '@kasa/language-detect';
import { Types, type Model } from 'mongoose';
import { setTimeout as sleep } from 'node:timers/promises';
import { publishEvent, type EventPublisher } from '../events/publishEvent';
import { usesGeoContext, type GeoContext } from '../geo/geoContext';
import type { Identity } from '../identity/identity';
import { DEFAULT_PERSONAS } from '../personas/catalogue';
import type { PersonaStore } from '../personas/personaStore';
import type { AttemptDocument } from '../providers/attemptModel';
import { estimateTokens, type PromptMessage } from '../providers/chatProvider';
import type { ProviderChain, TurnHandlers, TurnResult } from '../providers/providerChain';
import type { SessionService } from '../sessions/sessionService';
import { toStoredMessage, type MessageDocument } from './messageModel';

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

/** How sure the detector must be before the reply language is set from a message (0–1). */
const DETECTION_MIN_CONFIDENCE = 0.5;

/** The most history rows one prompt ever looks at; the token budget usually stops earlier. */
const HISTORY_SCAN_LIMIT = 100;

/** How often a resumable reply's text is written to the database (and its stop flag read back). */
const RESUMABLE_FLUSH_MS = 250;

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
    private readonly detector?: LanguageDetector,
    /** Where the caller appears to be, for the personas that use it; left out of the prompt when unknown. */
    private readonly geo?: GeoContext,
    /** Replies one person may have being written at once, counted in the database so that every replica agrees. */
    private readonly maxConcurrentReplies = 10,
  ) {}

  /** The replies this process is writing now, by assistant message id: a stop on this replica aborts at once. */
  private readonly live = new Map<string, AbortController>();

  /**
   * The language the reply should be in: the person's choice when they made one (it always wins, so a misread
   * message never switches the conversation), else the language detected from the message, with their recent
   * messages as a hint. A detection below DETECTION_MIN_CONFIDENCE sets nothing: the model then mirrors the message.
   */
  private replyLanguage(input: CreateMessageRequest, history: PromptMessage[]): string | undefined {
    if (input.language && input.language !== 'auto') return input.language;
    if (!this.detector) return undefined;
    const recent = history
      .filter((m) => m.role === 'user')
      .slice(-3)
      .map((m) => m.content);
    const detected = this.detector.detect(input.content, { recent });
    return detected.confidence >= DETECTION_MIN_CONFIDENCE ? detected.language : undefined;
  }

  /** Checks the session and the plan, stores the user message and the assistant placeholder. Throws 403/404 first. */
  async prepare(
    who: Identity,
    sessionId: string,
    input: CreateMessageRequest,
    requestId?: string,
    /** The caller's X-Forwarded-For (or socket address), for the location of the personas that use one. */
    forwardedFor?: string,
  ): Promise<PreparedTurn> {
    if (who.tier === 'free' && input.type !== 'text')
      throw new NotAllowedError(PLAN_FEATURE[input.type], { plan: 'pro' });
    if (who.tier === 'free' && input.language && !isFreeLanguageChoice(input.language))
      throw new NotAllowedError(LANGUAGE_CHOICE_PLAN, { plan: 'pro' });
    const session = await this.sessions.own(who, sessionId);
    const writing = await this.messages.countDocuments({ ownerId: who.userId, status: 'streaming' });
    if (writing >= this.maxConcurrentReplies)
      throw new HttpError(
        429,
        ErrorCode.rateLimited,
        `You have ${writing} replies being written. Wait for one to finish (or stop it), then send again.`,
        { limit: this.maxConcurrentReplies },
      );
    // Asked while the messages are stored; it never rejects and gives up after its timeout.
    const location =
      this.geo && forwardedFor && who.tier !== 'free' && usesGeoContext(session.personaId)
        ? this.geo.sentenceFor(forwardedFor, requestId)
        : undefined;
    const persona =
      (await this.personas.findForUser(session.personaId, who.userId)) ??
      DEFAULT_PERSONAS.find((p) => p.id === 'kasa')!;
    const history = await this.history(session._id, who.userId);
    const language = this.replyLanguage(input, history);
    const user = await withTransientRetry(
      () =>
        this.messages.create({
          sessionId: session._id,
          ownerId: who.userId,
          personaId: session.personaId,
          role: 'user',
          type: input.type,
          content: input.content,
          status: 'complete',
          ...(language ? { language } : {}),
        }),
      { logger: this.logger, what: 'store the user message' },
    );
    const assistant = await withTransientRetry(
      () =>
        this.messages.create({
          sessionId: session._id,
          ownerId: who.userId,
          personaId: session.personaId,
          role: 'assistant',
          type: 'text',
          content: '',
          status: 'streaming',
          replyTo: user._id,
          ...(language ? { language } : {}),
        }),
      { logger: this.logger, what: 'store the reply placeholder' },
    );
    void publishEvent(
      this.bus,
      this.logger,
      'chat.message.created',
      {
        sessionId: session._id.toString(),
        userId: who.userId,
        messageId: user._id.toString(),
        personaId: session.personaId,
        role: 'user',
        ...(language ? { language } : {}),
        tokens: estimateTokens(input.content),
      },
      requestId,
    );
    const system = [
      persona.systemPrompt,
      language ? `The user's language is ${languageName(language)} (${language}); reply in it.` : undefined,
      await location,
    ]
      .filter(Boolean)
      .join('\n');
    return {
      who,
      sessionId: session._id,
      personaId: session.personaId,
      system,
      history: [...history, { role: 'user', content: input.content }],
      language,
      userMessageId: user._id.toString(),
      assistant: assistant.toObject(),
      requestId,
    };
  }

  /**
   * Runs the chain for a prepared turn and stores the outcome. `signal` is the client going away: it stops the reply,
   * unless the turn is `resumable`, whose reply goes on (flushed to the database as it grows, so that any replica can
   * show and follow it) until it ends or `requestStop` is called.
   */
  async complete(
    turn: PreparedTurn,
    signal: AbortSignal,
    handlers: TurnHandlers,
    options: { resumable?: boolean } = {},
  ): Promise<{ reply: AssistantReply; result: TurnResult }> {
    const id = turn.assistant._id.toString();
    const stop = new AbortController();
    const onClientGone = () => stop.abort(signal.reason);
    if (!options.resumable) {
      if (signal.aborted) stop.abort(signal.reason);
      signal.addEventListener('abort', onClientGone, { once: true });
    }
    this.live.set(id, stop);
    let text = '';
    let current: { provider: string; model: string } | undefined;
    let flushing: Promise<unknown> = Promise.resolve();
    let inFlight = false;
    // Each tick writes the text so far (which also keeps `updatedAt` fresh for the stale sweep) and reads back the
    // stop flag; a tick is skipped while the previous write is still out.
    const flush = () => {
      if (inFlight) return;
      inFlight = true;
      flushing = this.messages
        .findOneAndUpdate(
          { _id: turn.assistant._id, status: 'streaming' },
          { $set: { content: text, ...(current ?? {}) } },
          // No projection: FerretDB v1 does not implement one on findAndModify.
          { new: true },
        )
        .lean()
        .then((doc) => {
          if (doc?.stopRequested) stop.abort(new Error('stop requested'));
        })
        .catch((err: unknown) => this.logger.warn({ err }, 'partial reply not flushed'))
        .finally(() => (inFlight = false));
    };
    const flusher = options.resumable ? setInterval(flush, RESUMABLE_FLUSH_MS) : undefined;

    let result: TurnResult;
    try {
      result = await this.chain.run(
        {
          personaId: turn.personaId,
          system: turn.system,
          messages: fitHistory(turn.history, this.historyTokenBudget),
          signal: stop.signal,
        },
        {
          onProvider: (info) => {
            current = { provider: info.provider, model: info.model };
            handlers.onProvider?.(info);
          },
          onText: (piece) => {
            text += piece;
            handlers.onText(piece);
          },
        },
      );
    } catch (err) {
      this.logger.error({ err }, 'provider chain failed unexpectedly');
      result = {
        text,
        status: 'failed',
        provider: 'none',
        model: '',
        inputTokens: 0,
        outputTokens: 0,
        latencyMs: 0,
        attempts: [],
      };
    } finally {
      clearInterval(flusher);
      signal.removeEventListener('abort', onClientGone);
      this.live.delete(id);
    }
    await flushing;
    // Attempts first: once the message shows its final status, its attempts are there to read.
    await this.recordAttempts(turn, result).catch((err: unknown) =>
      this.logger.warn({ err }, 'provider attempts not recorded'),
    );
    const status: MessageStatus = result.status;
    // The finished reply is the person's data: a busy database gets a few more tries before it is given up on.
    const stored = await withTransientRetry(
      () =>
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
          .lean(),
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
    return { reply: { ...toStoredMessage(doc), userMessageId: turn.userMessageId }, result };
  }

  /**
   * Stops a reply being written: at once on this replica, and through the message's stop flag on the replica writing
   * a resumable reply (it reads the flag every 250 ms). Answers the message as it is now.
   */
  async requestStop(who: Identity, sessionId: string, messageId: string): Promise<AssistantReply> {
    const session = await this.sessions.own(who, sessionId);
    const doc = await this.messages
      .findOneAndUpdate(
        { _id: new Types.ObjectId(messageId), sessionId: session._id, ownerId: who.userId, role: 'assistant' },
        { $set: { stopRequested: true } },
        { new: true },
      )
      .lean();
    if (!doc) throw new NotFoundError('Message not found');
    if (!this.stopLocal(messageId) && doc.status === 'streaming') {
      // Written by another replica: each one hears the request and the writer stops at once (a resumable reply also
      // reads the flag set above, so it stops even if the broker is down).
      void publishEvent(
        this.bus,
        this.logger,
        'chat.reply.stop_requested',
        { sessionId: session._id.toString(), messageId, userId: who.userId },
        undefined,
      );
    }
    return { ...toStoredMessage(doc), userMessageId: doc.replyTo?.toString() ?? '' };
  }

  /** Stops a reply if this process is writing it (see `requestStop`); true when it was. */
  stopLocal(messageId: string): boolean {
    const writer = this.live.get(messageId);
    writer?.abort(new Error('stop requested'));
    return writer !== undefined;
  }

  /**
   * Follows a reply from the database, so that it works whichever replica writes it: first the text so far, then what
   * is added (every `pollMs`), then the stored message once it is no longer `streaming`. Ends early when `signal`
   * aborts (the follower left) or after `maxMs`.
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
    let doc = await this.messages.findOne(filter).lean();
    if (!doc) throw new NotFoundError('Message not found');
    sink.opened();
    const deadline = Date.now() + (options.maxMs ?? 15 * 60_000);
    let sent = 0;
    let announced = false;
    while (doc && !signal.aborted) {
      if (!announced && doc.provider) {
        announced = true;
        sink.meta({
          userMessageId: doc.replyTo?.toString() ?? '',
          assistantMessageId: messageId,
          provider: doc.provider,
          model: doc.model ?? '',
          continued: false,
        });
      }
      if (doc.content.length > sent) {
        sink.token(doc.content.slice(sent));
        sent = doc.content.length;
      }
      if (doc.status !== 'streaming') {
        sink.done({ ...toStoredMessage(doc), userMessageId: doc.replyTo?.toString() ?? '' });
        return;
      }
      if (Date.now() > deadline) return;
      await sleep(options.pollMs ?? 250, undefined, { signal }).catch(() => undefined);
      doc = await this.messages.findOne(filter).lean();
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
    );
    return result.modifiedCount;
  }

  private async recordAttempts(turn: PreparedTurn, result: TurnResult): Promise<void> {
    if (result.attempts.length === 0) return;
    await this.attempts.insertMany(
      result.attempts.map((a) => ({
        ...a,
        messageId: turn.assistant._id,
        sessionId: turn.sessionId,
        userId: turn.who.userId,
        personaId: turn.personaId,
      })),
    );
  }

  /** The session's recent complete messages, oldest first (the budget is applied later, with the new message). */
  private async history(sessionId: Types.ObjectId, ownerId: string): Promise<PromptMessage[]> {
    const docs = await this.messages
      .find({ sessionId, ownerId, status: { $in: ['complete', 'stopped'] } })
      .sort({ _id: -1 })
      .limit(HISTORY_SCAN_LIMIT)
      .lean();
    return docs
      .filter((d) => d.content.length > 0)
      .reverse()
      .map((d) => ({ role: d.role, content: d.content }));
  }
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
