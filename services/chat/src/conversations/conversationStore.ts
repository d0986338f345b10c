import type { ChatPageQuery, MessageAttachment } from '@kasa/contracts';
import { initModels, NotFoundError, withTransientRetry, type Logger } from '@kasa/service-kit';
import { Types, type Connection, type Model } from 'mongoose';
import type { Identity } from '../identity/identity';
import type { PromptMessage } from '../providers/chatProvider';
import { ConversationTree } from './conversationTree';
import type { CachedHistory, HistoryCache } from './historyCache';
import { messageModel, TREE_FIELDS, toTreeNode, type MessageDocument } from './messageModel';
import { sessionModel, type SessionDocument } from './sessionModel';
import { WriteGate } from './writeGate';

/** The longest a query of a conversation may take. */
const QUERY_TIME_LIMIT_MS = 10_000;
/**
 * The finished reply is the person's data: storing it may wait longer in a busy database (the embedded one
 * serialises writes, and its updates cost more as the collection grows) before it is given up on.
 */
const FINAL_STORE_TIME_LIMIT_MS = 60_000;
/** The most history rows one prompt ever looks at; the token budget usually stops earlier. */
export const HISTORY_SCAN_LIMIT = 100;
/** What a reader of a shared link sees: finished replies (and stopped ones, as they were left). */
const READABLE = { $in: ['complete', 'stopped'] };

type Owned = Pick<SessionDocument, '_id' | 'ownerId'>;

/** Messages a prompt's history reads: finished or stopped replies with some text, and the person's messages. */
export function toPromptHistory(docs: Array<Pick<MessageDocument, 'role' | 'content' | 'status'>>): PromptMessage[] {
  return docs
    .filter((d) => (d.status === 'complete' || d.status === 'stopped') && d.content.length > 0)
    .map((d) => ({ role: d.role, content: d.content }));
}

/** Escapes a user's text for use inside a regular expression, so `a.b*` matches those characters literally. */
export const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A turn's new messages: the question (unless an answer is regenerated) and the reply's placeholder. */
export interface NewTurn {
  session: SessionDocument;
  /** The question's id: a new one, or the stored question a regenerated answer answers (`stored: true`). */
  questionId: Types.ObjectId;
  questionStored: boolean;
  replyId: Types.ObjectId;
  /** The message the question follows (null: a first message). */
  parentId: string | null;
  question: { type: MessageDocument['type']; content: string; attachments: MessageAttachment[] };
  language?: string;
  /** The branch before the question, which the next prompt goes on from. */
  before: PromptMessage[];
}

export interface ConversationStoreDeps {
  db: Connection;
  logger: Logger;
  /** The process's queue of database writes; a turn's reads and writes wait in it (see WriteGate). */
  writes?: WriteGate;
  /** Recent history of the sessions this process serves (one replica only; see HistoryCache). */
  historyCache?: HistoryCache;
}

/**
 * The one writer of the `sessions` and `messages` collections and of the version tree they hold (a message's
 * `parentId` and `selectedAt`, a session's `branched`): every create, update and delete of them is here, so the
 * rules they keep (ownership on every query, time limits, the write queue, the history cache kept in step) hold in
 * one place. The reads of the conversations live here too, every one scoped to the owner.
 */
export class ConversationStore {
  private readonly sessions: Model<SessionDocument>;
  private readonly messages: Model<MessageDocument>;
  private readonly writes: WriteGate;

  constructor(private readonly deps: ConversationStoreDeps) {
    this.sessions = sessionModel(deps.db);
    this.messages = messageModel(deps.db);
    this.writes = deps.writes ?? new WriteGate(Infinity);
  }

  /** Creates the collections' indexes (idempotent). */
  static async init(db: Connection): Promise<void> {
    await initModels(sessionModel(db), messageModel(db));
  }

  // Sessions

  async createSession(ownerId: string, personaId: string, title: string): Promise<SessionDocument> {
    const doc = (await this.sessions.create({ ownerId, personaId, title })).toObject();
    this.deps.historyCache?.set(doc._id.toString(), [], null);
    return doc;
  }

  /** My sessions, newest first, one more than `limit` (the caller learns whether there are more). */
  async listSessions(ownerId: string, page: ChatPageQuery): Promise<SessionDocument[]> {
    const filter: Record<string, unknown> = { ownerId };
    if (page.cursor) filter._id = { $lt: new Types.ObjectId(page.cursor) };
    return this.sessions
      .find(filter)
      .sort({ _id: -1 })
      .limit(page.limit + 1)
      .lean();
  }

  /** The session document of its owner, or a 404 (also for someone else's session: we do not confirm it exists). */
  async own(who: Identity, id: string): Promise<SessionDocument> {
    const doc = await this.sessions.findOne({ _id: new Types.ObjectId(id), ownerId: who.userId }).lean();
    if (!doc) throw new NotFoundError('Chat session not found');
    return doc;
  }

  /** A session by id and owner (a shared link's), or null. */
  async findSession(id: Types.ObjectId, ownerId: string): Promise<SessionDocument | null> {
    return this.sessions.findOne({ _id: id, ownerId }).lean();
  }

  async sessionsByIds(ownerId: string, ids: Types.ObjectId[]): Promise<SessionDocument[]> {
    return this.sessions.find({ _id: { $in: ids }, ownerId }).lean();
  }

  async renameSession(who: Identity, id: string, title: string): Promise<SessionDocument | null> {
    return this.sessions
      .findOneAndUpdate({ _id: new Types.ObjectId(id), ownerId: who.userId }, { $set: { title } }, { new: true })
      .lean();
  }

  /** Records that the conversation has branched (idempotent): it is read as a tree from then on. */
  async markBranched(session: SessionDocument): Promise<void> {
    if (session.branched) return;
    await this.sessions
      .updateOne({ _id: session._id, ownerId: session.ownerId }, { $set: { branched: true } })
      .maxTimeMS(QUERY_TIME_LIMIT_MS);
    session.branched = true;
  }

  /** Deletes the conversation's messages (the session itself goes last, see `removeSession`). */
  async removeMessages(session: Owned): Promise<void> {
    this.deps.historyCache?.forget(session._id.toString());
    await this.messages.deleteMany({ sessionId: session._id, ownerId: session.ownerId });
  }

  async removeSession(session: Owned): Promise<void> {
    await this.sessions.deleteOne({ _id: session._id, ownerId: session.ownerId });
  }

  // Messages: reads

  /** The newest messages of a conversation read as one line, before `cursor`; one more than `limit`, newest first. */
  async linePage(session: Owned, page: ChatPageQuery): Promise<MessageDocument[]> {
    const filter: Record<string, unknown> = { sessionId: session._id, ownerId: session.ownerId };
    if (page.cursor) filter._id = { $lt: new Types.ObjectId(page.cursor) };
    return this.messages
      .find(filter)
      .sort({ _id: -1 })
      .limit(page.limit + 1)
      .maxTimeMS(QUERY_TIME_LIMIT_MS)
      .lean();
  }

  /**
   * The shape of a conversation (every message's place, without their text), read in one query. Read only for
   * conversations that branched, and for the rare calls that change a branch.
   */
  async tree(session: Owned): Promise<ConversationTree> {
    const docs = await this.messages
      .find({ sessionId: session._id, ownerId: session.ownerId })
      .select(TREE_FIELDS)
      .sort({ _id: 1 })
      .maxTimeMS(QUERY_TIME_LIMIT_MS)
      .lean();
    return new ConversationTree(docs.map(toTreeNode));
  }

  /** Messages of a conversation by id, in the order of `ids` (ids it does not hold are left out). */
  async messagesById(session: Owned, ids: string[]): Promise<MessageDocument[]> {
    if (ids.length === 0) return [];
    const docs = await this.messages
      .find({ _id: { $in: ids.map((id) => new Types.ObjectId(id)) }, sessionId: session._id, ownerId: session.ownerId })
      .maxTimeMS(QUERY_TIME_LIMIT_MS)
      .lean();
    const byId = new Map(docs.map((doc) => [doc._id.toString(), doc]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /** One of my replies (an assistant message) in the session, or null. */
  async reply(session: Owned, messageId: string): Promise<MessageDocument | null> {
    return this.messages
      .findOne({
        _id: new Types.ObjectId(messageId),
        sessionId: session._id,
        ownerId: session.ownerId,
        role: 'assistant',
      })
      .maxTimeMS(QUERY_TIME_LIMIT_MS)
      .lean();
  }

  /**
   * My messages containing the text, newest first (a $regex on the escaped query: no text index, which FerretDB does
   * not have). The query is short and the scan is bounded by `limit`.
   */
  async search(ownerId: string, text: string, limit: number): Promise<MessageDocument[]> {
    return this.messages
      .find({ ownerId, content: { $regex: escapeRegex(text), $options: 'i' } })
      .sort({ _id: -1 })
      .limit(limit)
      .lean();
  }

  /** The latest finished message of a conversation read as one line. */
  async latestReadable(session: Owned): Promise<{ _id: Types.ObjectId } | null> {
    return this.messages
      .findOne({ sessionId: session._id, ownerId: session.ownerId, status: READABLE })
      .sort({ _id: -1 })
      .select({ _id: 1 })
      .lean();
  }

  /** The finished messages up to `upTo` of a conversation read as one line, newest first, at most `limit`. */
  async readableUpTo(session: Owned, upTo: Types.ObjectId, limit: number): Promise<MessageDocument[]> {
    return this.messages
      .find({ sessionId: session._id, ownerId: session.ownerId, _id: { $lte: upTo }, status: READABLE })
      .sort({ _id: -1 })
      .limit(limit)
      .lean();
  }

  async countReadableUpTo(session: Owned, upTo: Types.ObjectId): Promise<number> {
    return this.messages.countDocuments({
      sessionId: session._id,
      ownerId: session.ownerId,
      _id: { $lte: upTo },
      status: READABLE,
    });
  }

  // A turn's reads: they queue with the writes (on the embedded database every transaction takes the write lock, and
  // a reader left to wait inside it backs off like a writer).

  /** `own`, `tree` and `messagesById` as a turn asks them: in the write queue, before finished replies are stored. */
  queued<T>(read: () => Promise<T>): Promise<T> {
    return this.writes.run(read, 'first');
  }

  /** The attachments a stored message of mine carries (an edit keeps them unless it says otherwise). */
  async attachmentIdsOf(session: Owned, messageId: string): Promise<string[]> {
    const doc = await this.queued(() =>
      this.messages
        .findOne({ _id: new Types.ObjectId(messageId), sessionId: session._id, ownerId: session.ownerId })
        .select({ attachments: 1 })
        .maxTimeMS(QUERY_TIME_LIMIT_MS)
        .lean(),
    );
    return (doc?.attachments ?? []).map((a) => a.id);
  }

  /**
   * The end of the conversation's current branch: its recent messages, oldest first (the budget is applied later,
   * with the new message), and the last message, which a new message follows. A conversation that never branched is
   * one line: its newest messages, in one query.
   */
  async branchEnd(session: SessionDocument): Promise<CachedHistory> {
    const cached = this.deps.historyCache?.get(session._id.toString());
    if (cached) return cached;
    if (session.branched) {
      const branch = (await this.queued(() => this.tree(session))).branch();
      return { history: await this.historyAlong(session, branch), leafId: branch.at(-1) ?? null };
    }
    const docs = await this.queued(() =>
      this.messages
        .find({ sessionId: session._id, ownerId: session.ownerId })
        .sort({ _id: -1 })
        .limit(HISTORY_SCAN_LIMIT)
        .maxTimeMS(QUERY_TIME_LIMIT_MS)
        .lean(),
    );
    const newest = docs[0]?._id.toString() ?? null;
    return { history: toPromptHistory(docs.reverse()), leafId: newest };
  }

  /** The history along a path of the conversation (its last HISTORY_SCAN_LIMIT messages), oldest first. */
  async historyAlong(session: Owned, path: string[]): Promise<PromptMessage[]> {
    const ids = path.slice(-HISTORY_SCAN_LIMIT);
    return toPromptHistory(await this.queued(() => this.messagesById(session, ids)));
  }

  // Messages: writes

  /**
   * Stores a turn's question (unless it is stored already) and its reply's placeholder (`streaming`) in one write
   * (ids chosen by the caller keep the question first; the embedded database serialises writes). Answers the reply.
   */
  async openTurn(turn: NewTurn): Promise<MessageDocument> {
    const { session, language } = turn;
    const common = { sessionId: session._id, ownerId: session.ownerId, personaId: session.personaId };
    const question = turn.questionStored
      ? []
      : [
          {
            ...common,
            _id: turn.questionId,
            role: 'user',
            type: turn.question.type,
            content: turn.question.content,
            status: 'complete',
            parentId: turn.parentId ? new Types.ObjectId(turn.parentId) : null,
            ...(language ? { language } : {}),
            ...(turn.question.attachments.length ? { attachments: turn.question.attachments } : {}),
          },
        ];
    const stored = await withTransientRetry(
      () =>
        this.writes.run(
          () =>
            this.messages.insertMany([
              ...question,
              {
                ...common,
                _id: turn.replyId,
                role: 'assistant',
                type: 'text',
                content: '',
                status: 'streaming',
                replyTo: turn.questionId,
                parentId: turn.questionId,
                ...(language ? { language } : {}),
              },
            ]),
          'first',
        ),
      { logger: this.deps.logger, what: 'store the message and the reply placeholder' },
    );
    // The conversation's branch now ends at this reply; the prompt history of the next message goes on from here.
    this.deps.historyCache?.set(session._id.toString(), turn.before, turn.replyId.toString());
    return stored[stored.length - 1]!.toObject();
  }

  /** Writes a reply's text so far (and so keeps its `updatedAt` fresh for the stale sweep) while it is streaming. */
  async checkpoint(replyId: Types.ObjectId, text: string, writer?: { provider: string; model: string }): Promise<void> {
    await this.messages
      .updateOne({ _id: replyId, status: 'streaming' }, { $set: { content: text, ...(writer ?? {}) } })
      .maxTimeMS(QUERY_TIME_LIMIT_MS);
  }

  /** Stores the finished reply, with a few more tries when the database is busy; null when it is gone. */
  async finishReply(
    replyId: Types.ObjectId,
    ownerId: string,
    fields: Pick<MessageDocument, 'content' | 'status' | 'provider' | 'model' | 'tokens' | 'latencyMs'>,
  ): Promise<MessageDocument | null> {
    return withTransientRetry(
      () =>
        this.writes.run(() =>
          this.messages
            .findOneAndUpdate({ _id: replyId, ownerId }, { $set: fields }, { new: true })
            .maxTimeMS(FINAL_STORE_TIME_LIMIT_MS)
            .lean(),
        ),
      { logger: this.deps.logger, what: 'store the finished reply' },
    );
  }

  /**
   * A finished turn joins the cached history of its session (the reply, `leafId`, ends its branch), as the
   * database query would read it.
   */
  rememberTurn(sessionId: string, leafId: string, ...messages: PromptMessage[]): void {
    this.deps.historyCache?.append(sessionId, leafId, ...messages);
  }

  /**
   * Shows a version of a message: it becomes the chosen version among its versions, and so does every message on the
   * way to it that was not (see `ConversationTree.unchosenOnPathTo`). Updates `tree` to match.
   */
  async showVersion(session: SessionDocument, tree: ConversationTree, id: string): Promise<void> {
    const choices = tree.unchosenOnPathTo(id);
    // Another version is only there to choose once the conversation branched; should two messages have been sent
    // at once from two tabs (versions of each other, in a conversation read as one line), choosing makes it a tree.
    if (choices.length > 0) await this.markBranched(session);
    for (const choose of choices) {
      const shownAt = tree.shownAtToChoose(choose, Date.now());
      await this.messages
        .updateOne(
          { _id: new Types.ObjectId(choose), sessionId: session._id, ownerId: session.ownerId },
          { $set: { selectedAt: new Date(shownAt) } },
        )
        .maxTimeMS(QUERY_TIME_LIMIT_MS);
      tree.markShown(choose, shownAt);
    }
    // The next prompt of this conversation is read from the database, along the branch chosen now.
    this.deps.historyCache?.forget(session._id.toString());
  }

  /**
   * Replies still `streaming` but untouched for `olderThanMs` lost their writer (a replica died): they are marked
   * `failed`, keeping the text they had.
   */
  async sweepStale(olderThanMs: number): Promise<number> {
    const result = await this.messages.updateMany(
      { status: 'streaming', updatedAt: { $lt: new Date(Date.now() - olderThanMs) } },
      { $set: { status: 'failed' } },
      { maxTimeMS: QUERY_TIME_LIMIT_MS },
    );
    return result.modifiedCount;
  }
}
