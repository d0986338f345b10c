import type {
  CreateSessionRequest,
  ChatPageQuery,
  ChatSearchQuery,
  ChatSearchResults,
  Session,
  SessionPage,
  SessionWithMessages,
} from '@kasa/contracts';
import { InputError, NotFoundError, PUBLISH_WAIT_MS, type EventBus, type Logger } from '@kasa/service-kit';
import { Types } from 'mongoose';
import type { AttachmentService } from '../attachments/attachmentService';
import type { ConversationStore } from '../conversations/conversationStore';
import type { ConversationTree } from '../conversations/conversationTree';
import { toMessage, toStoredMessage, type MessageDocument } from '../conversations/messageModel';
import { toSession, type SessionDocument } from '../conversations/sessionModel';
import type { Identity } from '../identity/identity';
import type { PersonaStore } from '../personas/personaStore';
import type { ReplyStreams } from '../replies/replyStreams';
import type { ShareService } from '../shares/shareService';

export interface SessionServiceDeps {
  /** Sessions, messages and their version tree: every read and write of them. */
  store: ConversationStore;
  personas: PersonaStore;
  bus: Pick<EventBus, 'publishWithin'>;
  logger: Logger;
  /** Replies being written: a page shows their text so far (the database has only a checkpoint of it). */
  live?: Pick<ReplyStreams, 'snapshot'>;
  /** The conversations' read-only links, which go with their conversation. */
  shares?: Pick<ShareService, 'removeForSession'>;
  /** The images and documents sent in a conversation, which go with it too. */
  attachments?: Pick<AttachmentService, 'removeForSession'>;
}

/** Sessions and their messages, always scoped to their owner: anything else reads as "not found". */
export class SessionService {
  constructor(private readonly deps: SessionServiceDeps) {}

  async create(who: Identity, input: CreateSessionRequest, requestId?: string): Promise<Session> {
    const persona = await this.deps.personas.findForUser(input.personaId, who.userId);
    if (!persona)
      throw new InputError(`Unknown persona '${input.personaId}'`, [{ path: 'personaId', message: 'unknown persona' }]);
    const doc = await this.deps.store.createSession(who.userId, persona.id, input.title);
    await this.deps.bus.publishWithin(
      'chat.session.created',
      {
        sessionId: doc._id.toString(),
        userId: who.userId,
        personaId: persona.id,
        title: doc.title.slice(0, 200),
        createdAt: doc.createdAt.toISOString(),
      },
      PUBLISH_WAIT_MS,
      { requestId },
    );
    return toSession(doc);
  }

  async list(who: Identity, page: ChatPageQuery): Promise<SessionPage> {
    const docs = await this.deps.store.listSessions(who.userId, page);
    const more = docs.length > page.limit;
    const shown = docs.slice(0, page.limit);
    return { sessions: shown.map(toSession), nextCursor: more ? shown[shown.length - 1]!._id.toString() : null };
  }

  /**
   * The session with one page of messages: the newest page first; `cursor` walks back to older pages. A conversation
   * that branched shows its current branch (see ConversationTree).
   */
  async get(who: Identity, id: string, page: ChatPageQuery): Promise<SessionWithMessages> {
    const { store } = this.deps;
    const session = await store.own(who, id);
    if (session.branched) return this.branchPage(session, await store.tree(session), page);
    const docs = await store.linePage(session, page);
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
    const { store } = this.deps;
    const session = await store.own(who, sessionId);
    const tree = await store.tree(session);
    const id = new Types.ObjectId(messageId).toString();
    if (!tree.has(id)) throw new NotFoundError('Message not found');
    await store.showVersion(session, tree, id);
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
    const docs = await this.deps.store.messagesById(session, branch.slice(start, end));
    const shown = await Promise.all(docs.map((doc) => this.withLiveText(doc)));
    return {
      ...toSession(session),
      messages: shown.map((doc) => toStoredMessage(doc, tree.version(doc._id.toString()))),
      nextCursor: start > 0 && shown.length > 0 ? shown[0]!._id.toString() : null,
    };
  }

  /** A reply still being written, with the text its writer has produced so far (when it is live). */
  private async withLiveText(doc: MessageDocument): Promise<MessageDocument> {
    const { live } = this.deps;
    if (doc.status !== 'streaming' || !live) return doc;
    const text = await live.snapshot(doc._id.toString()).catch((err: unknown) => {
      this.deps.logger.warn({ err }, 'live reply not readable');
      return undefined;
    });
    if (!text || text.text.length < doc.content.length) return doc;
    return {
      ...doc,
      content: text.text,
      ...(text.meta ? { provider: text.meta.provider, model: text.meta.model } : {}),
    };
  }

  async rename(who: Identity, id: string, title: string): Promise<Session> {
    const doc = await this.deps.store.renameSession(who, id, title);
    if (!doc) throw new NotFoundError('Chat session not found');
    return toSession(doc);
  }

  /**
   * Deletes the session, its link, its messages and the attachments sent in it; the session goes last, so a crash in
   * between leaves no orphans (deleting again finishes the work).
   */
  async remove(who: Identity, id: string): Promise<void> {
    const { store } = this.deps;
    const session = await store.own(who, id);
    // The link goes first: nobody reads a conversation half deleted.
    await this.deps.shares?.removeForSession(who.userId, session._id);
    await store.removeMessages(session);
    await this.deps.attachments?.removeForSession(who.userId, session._id);
    await store.removeSession(session);
  }

  /**
   * Searches my own messages for the query as literal text, case-insensitively (see ConversationStore.search). The
   * query is at most 100 characters and the scan is bounded by `limit`.
   */
  async search(who: Identity, query: ChatSearchQuery): Promise<ChatSearchResults> {
    const { store } = this.deps;
    const docs = await store.search(who.userId, query.q, query.limit);
    const sessionIds = [...new Set(docs.map((d) => d.sessionId.toString()))].map((s) => new Types.ObjectId(s));
    const sessions = await store.sessionsByIds(who.userId, sessionIds);
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
