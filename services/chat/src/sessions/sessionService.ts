import type {
  CreateSessionRequest,
  ChatPageQuery,
  ChatSearchQuery,
  ChatSearchResults,
  Session,
  SessionPage,
  SessionWithMessages,
} from '@kasa/contracts';
import { InputError, NotFoundError, type Logger } from '@kasa/service-kit';
import { Types, type Model } from 'mongoose';
import { publishEvent, type EventPublisher } from '../events/publishEvent';
import type { Identity } from '../identity/identity';
import { toMessage, toStoredMessage, type MessageDocument } from '../messages/messageModel';
import type { HistoryCache } from '../messages/historyCache';
import type { PersonaStore } from '../personas/personaStore';
import type { ReplyStreams } from '../replies/replyStreams';
import type { ShareDocument } from '../shares/shareModel';
import { toSession, type SessionDocument } from './sessionModel';

/** Escapes a user's text for use inside a regular expression, so `a.b*` matches those characters literally. */
export const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Sessions and their messages, always scoped to their owner: anything else reads as "not found". */
export class SessionService {
  constructor(
    private readonly sessions: Model<SessionDocument>,
    private readonly messages: Model<MessageDocument>,
    private readonly personas: PersonaStore,
    private readonly bus: EventPublisher,
    private readonly logger: Logger,
    /** Replies being written: a page shows their text so far (the database has only a checkpoint of it). */
    private readonly live?: Pick<ReplyStreams, 'snapshot'>,
    /** The history of sessions this process serves (one replica only): a new session starts empty there. */
    private readonly historyCache?: HistoryCache,
    /** The conversations' read-only links, which go with their conversation. */
    private readonly shares?: Model<ShareDocument>,
  ) {}

  async create(who: Identity, input: CreateSessionRequest, requestId?: string): Promise<Session> {
    const persona = await this.personas.findForUser(input.personaId, who.userId);
    if (!persona)
      throw new InputError(`Unknown persona '${input.personaId}'`, [{ path: 'personaId', message: 'unknown persona' }]);
    const doc = (
      await this.sessions.create({ ownerId: who.userId, personaId: persona.id, title: input.title })
    ).toObject();
    await publishEvent(
      this.bus,
      this.logger,
      'chat.session.created',
      {
        sessionId: doc._id.toString(),
        userId: who.userId,
        personaId: persona.id,
        title: doc.title.slice(0, 200),
        createdAt: doc.createdAt.toISOString(),
      },
      requestId,
    );
    this.historyCache?.set(doc._id.toString(), []);
    return toSession(doc);
  }

  async list(who: Identity, page: ChatPageQuery): Promise<SessionPage> {
    const filter: Record<string, unknown> = { ownerId: who.userId };
    if (page.cursor) filter._id = { $lt: new Types.ObjectId(page.cursor) };
    const docs = await this.sessions
      .find(filter)
      .sort({ _id: -1 })
      .limit(page.limit + 1)
      .lean();
    const more = docs.length > page.limit;
    const shown = docs.slice(0, page.limit);
    return { sessions: shown.map(toSession), nextCursor: more ? shown[shown.length - 1]!._id.toString() : null };
  }

  /** The session document of its owner, or a 404 (also for someone else's session: we do not confirm it exists). */
  async own(who: Identity, id: string): Promise<SessionDocument> {
    const doc = await this.sessions.findOne({ _id: new Types.ObjectId(id), ownerId: who.userId }).lean();
    if (!doc) throw new NotFoundError('Chat session not found');
    return doc;
  }

  /** The session with one page of messages: the newest page first; `cursor` walks back to older pages. */
  async get(who: Identity, id: string, page: ChatPageQuery): Promise<SessionWithMessages> {
    const session = await this.own(who, id);
    const filter: Record<string, unknown> = { sessionId: session._id, ownerId: who.userId };
    if (page.cursor) filter._id = { $lt: new Types.ObjectId(page.cursor) };
    const docs = await this.messages
      .find(filter)
      .sort({ _id: -1 })
      .limit(page.limit + 1)
      .lean();
    const more = docs.length > page.limit;
    const shown = await Promise.all(docs.slice(0, page.limit).map((doc) => this.withLiveText(doc)));
    return {
      ...toSession(session),
      messages: shown.reverse().map(toStoredMessage),
      nextCursor: more ? shown[0]!._id.toString() : null,
    };
  }

  /** A reply still being written, with the text its writer has produced so far (when it is live). */
  private async withLiveText(doc: MessageDocument): Promise<MessageDocument> {
    if (doc.status !== 'streaming' || !this.live) return doc;
    const live = await this.live.snapshot(doc._id.toString()).catch((err: unknown) => {
      this.logger.warn({ err }, 'live reply not readable');
      return undefined;
    });
    if (!live || live.text.length < doc.content.length) return doc;
    return {
      ...doc,
      content: live.text,
      ...(live.meta ? { provider: live.meta.provider, model: live.meta.model } : {}),
    };
  }

  async rename(who: Identity, id: string, title: string): Promise<Session> {
    const doc = await this.sessions
      .findOneAndUpdate({ _id: new Types.ObjectId(id), ownerId: who.userId }, { $set: { title } }, { new: true })
      .lean();
    if (!doc) throw new NotFoundError('Chat session not found');
    return toSession(doc);
  }

  /** Deletes the session, its link and its messages; the session goes last, so a crash in between leaves no orphans. */
  async remove(who: Identity, id: string): Promise<void> {
    const session = await this.own(who, id);
    this.historyCache?.forget(session._id.toString());
    // The link goes first: nobody reads a conversation half deleted.
    await this.shares?.deleteMany({ sessionId: session._id, ownerId: who.userId });
    await this.messages.deleteMany({ sessionId: session._id, ownerId: who.userId });
    await this.sessions.deleteOne({ _id: session._id, ownerId: who.userId });
  }

  /**
   * Searches my own messages for the query as literal text, case-insensitively (a $regex on the escaped query: no text
   * index, which FerretDB does not have). The query is at most 100 characters and the scan is bounded by `limit`.
   */
  async search(who: Identity, query: ChatSearchQuery): Promise<ChatSearchResults> {
    const docs = await this.messages
      .find({ ownerId: who.userId, content: { $regex: escapeRegex(query.q), $options: 'i' } })
      .sort({ _id: -1 })
      .limit(query.limit)
      .lean();
    const sessionIds = [...new Set(docs.map((d) => d.sessionId.toString()))].map((s) => new Types.ObjectId(s));
    const sessions = await this.sessions.find({ _id: { $in: sessionIds }, ownerId: who.userId }).lean();
    const byId = new Map(sessions.map((s) => [s._id.toString(), s]));
    return {
      results: docs.flatMap((doc) => {
        const session = byId.get(doc.sessionId.toString());
        if (!session) return [];
        return [
          {
            sessionId: session._id.toString(),
            sessionTitle: session.title,
            personaId: session.personaId,
            message: toMessage(doc),
          },
        ];
      }),
    };
  }
}
