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
import type { AttachmentService } from '../attachments/attachmentService';
import type { Identity } from '../identity/identity';
import { ConversationTree } from '../messages/conversationTree';
import { TREE_FIELDS, toMessage, toStoredMessage, toTreeNode, type MessageDocument } from '../messages/messageModel';
import type { HistoryCache } from '../messages/historyCache';
import type { PersonaStore } from '../personas/personaStore';
import type { ReplyStreams } from '../replies/replyStreams';
import type { ShareDocument } from '../shares/shareModel';
import { toSession, type SessionDocument } from './sessionModel';

/** The longest a query of a conversation may take. */
const QUERY_TIME_LIMIT_MS = 10_000;

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
    /** The images and documents sent in a conversation, which go with it too. */
    private readonly attachments?: Pick<AttachmentService, 'removeForSession'>,
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
    this.historyCache?.set(doc._id.toString(), [], null);
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

  /**
   * The session with one page of messages: the newest page first; `cursor` walks back to older pages. A conversation
   * that branched shows its current branch (see ConversationTree).
   */
  async get(who: Identity, id: string, page: ChatPageQuery): Promise<SessionWithMessages> {
    const session = await this.own(who, id);
    if (session.branched) return this.branchPage(session, await this.tree(session), page);
    const filter: Record<string, unknown> = { sessionId: session._id, ownerId: who.userId };
    if (page.cursor) filter._id = { $lt: new Types.ObjectId(page.cursor) };
    const docs = await this.messages
      .find(filter)
      .sort({ _id: -1 })
      .limit(page.limit + 1)
      .maxTimeMS(QUERY_TIME_LIMIT_MS)
      .lean();
    const more = docs.length > page.limit;
    const shown = await Promise.all(docs.slice(0, page.limit).map((doc) => this.withLiveText(doc)));
    return {
      ...toSession(session),
      // A conversation that never branched: every message is the only version of itself.
      messages: shown.reverse().map((doc) => {
        const id = doc._id.toString();
        return toStoredMessage(doc, { index: 0, count: 1, siblingIds: [id] });
      }),
      nextCursor: more ? shown[0]!._id.toString() : null,
    };
  }

  /**
   * The shape of a conversation (every message's place, without their text), read in one query. Read only for
   * conversations that branched, and for the rare calls that change a branch.
   */
  async tree(session: Pick<SessionDocument, '_id' | 'ownerId'>): Promise<ConversationTree> {
    const docs = await this.messages
      .find({ sessionId: session._id, ownerId: session.ownerId })
      .select(TREE_FIELDS)
      .sort({ _id: 1 })
      .maxTimeMS(QUERY_TIME_LIMIT_MS)
      .lean();
    return new ConversationTree(docs.map(toTreeNode));
  }

  /** Messages of a conversation by id, in the order of `ids` (ids it does not hold are left out). */
  async messagesById(session: Pick<SessionDocument, '_id' | 'ownerId'>, ids: string[]): Promise<MessageDocument[]> {
    if (ids.length === 0) return [];
    const docs = await this.messages
      .find({ _id: { $in: ids.map((id) => new Types.ObjectId(id)) }, sessionId: session._id, ownerId: session.ownerId })
      .maxTimeMS(QUERY_TIME_LIMIT_MS)
      .lean();
    const byId = new Map(docs.map((doc) => [doc._id.toString(), doc]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /** Records that the conversation has branched (idempotent): it is read as a tree from then on. */
  async markBranched(session: SessionDocument): Promise<void> {
    if (session.branched) return;
    await this.sessions
      .updateOne({ _id: session._id, ownerId: session.ownerId }, { $set: { branched: true } })
      .maxTimeMS(QUERY_TIME_LIMIT_MS);
    session.branched = true;
  }

  /**
   * Shows a version of a message (the ‹ 1/3 › arrows): it becomes the chosen version among its versions, and so does
   * every message on the way to it that was not, so that the conversation continues from it along the branch below it
   * that was last shown. Persisted: a reload, another device, the next reply's prompt all see this branch. Answers
   * the session with the newest page of that branch.
   */
  async select(
    who: Identity,
    sessionId: string,
    messageId: string,
    page: Pick<ChatPageQuery, 'limit'>,
  ): Promise<SessionWithMessages> {
    const session = await this.own(who, sessionId);
    const tree = await this.tree(session);
    const id = new Types.ObjectId(messageId).toString();
    if (!tree.has(id)) throw new NotFoundError('Message not found');
    const choices = tree.unchosenOnPathTo(id);
    // Another version is only there to choose once the conversation branched; should two messages have been sent
    // at once from two tabs (versions of each other, in a conversation read as one line), choosing makes it a tree.
    if (choices.length > 0) await this.markBranched(session);
    for (const choose of choices) {
      const shownAt = tree.shownAtToChoose(choose, Date.now());
      await this.messages
        .updateOne(
          { _id: new Types.ObjectId(choose), sessionId: session._id, ownerId: who.userId },
          { $set: { selectedAt: new Date(shownAt) } },
        )
        .maxTimeMS(QUERY_TIME_LIMIT_MS);
      tree.markShown(choose, shownAt);
    }
    // The next prompt of this conversation is read from the database, along the branch chosen now.
    this.historyCache?.forget(session._id.toString());
    return this.branchPage(session, tree, { limit: page.limit });
  }

  /** One page of the current branch of a conversation read as a tree, newest page first (as `get`). */
  private async branchPage(
    session: SessionDocument,
    tree: ConversationTree,
    page: ChatPageQuery,
  ): Promise<SessionWithMessages> {
    const branch = tree.branch();
    // Along a branch ids grow (a message is stored after the one it follows): the cursor cuts it like a list.
    const cursor = page.cursor ? new Types.ObjectId(page.cursor).toString() : undefined;
    const end = cursor === undefined ? branch.length : branch.filter((id) => id < cursor).length;
    const start = Math.max(0, end - page.limit);
    const docs = await this.messagesById(session, branch.slice(start, end));
    const shown = await Promise.all(docs.map((doc) => this.withLiveText(doc)));
    return {
      ...toSession(session),
      messages: shown.map((doc) => toStoredMessage(doc, tree.version(doc._id.toString()))),
      nextCursor: start > 0 && shown.length > 0 ? shown[0]!._id.toString() : null,
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

  /**
   * Deletes the session, its link, its messages and the attachments sent in it; the session goes last, so a crash in
   * between leaves no orphans (deleting again finishes the work).
   */
  async remove(who: Identity, id: string): Promise<void> {
    const session = await this.own(who, id);
    this.historyCache?.forget(session._id.toString());
    // The link goes first: nobody reads a conversation half deleted.
    await this.shares?.deleteMany({ sessionId: session._id, ownerId: who.userId });
    await this.messages.deleteMany({ sessionId: session._id, ownerId: who.userId });
    await this.attachments?.removeForSession(who.userId, session._id);
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
