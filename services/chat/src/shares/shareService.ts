import {
  SHARED_CONVERSATION_MAX_MESSAGES,
  type ConversationShare,
  type MessageStatus,
  type SharedConversation,
} from '@kasa/contracts';
import { InputError, NotFoundError } from '@kasa/service-kit';
import { Types, type Model } from 'mongoose';
import type { ConversationStore } from '../conversations/conversationStore';
import { toMessage } from '../conversations/messageModel';
import type { SessionDocument } from '../conversations/sessionModel';
import type { Identity } from '../identity/identity';
import type { PersonaStore } from '../personas/personaStore';
import { newShareToken, type ShareDocument } from './shareModel';

const DUPLICATE_KEY = 11000;
/** What a reader sees of a conversation: finished replies (and stopped ones, as they were left), never one being written. */
const isReadable = (status: MessageStatus) => status === 'complete' || status === 'stopped';
const GONE = 'This shared conversation does not exist, or its owner stopped sharing it';

export interface ShareServiceDeps {
  /** The `shares` collection, which this service alone writes. */
  shares: Model<ShareDocument>;
  /** The conversations shared (their owner's session, the messages up to the link's). */
  store: ConversationStore;
  personas: PersonaStore;
}

/**
 * Read-only links to conversations. The owner shares (again), reads and stops sharing through their session, which
 * is a 404 for anyone else; a reader needs only the token, and sees the conversation as it was when it was last
 * shared, without anything about its owner.
 */
export class ShareService {
  constructor(private readonly deps: ShareServiceDeps) {}

  /**
   * Shares the conversation up to its latest message: a new link the first time, the same link after. A conversation
   * that branched is shared along its current branch, up to the latest message shown.
   */
  async share(who: Identity, sessionId: string): Promise<{ share: ConversationShare; created: boolean }> {
    const session = await this.deps.store.own(who, sessionId);
    const latest = session.branched
      ? await this.latestOnBranch(session)
      : await this.deps.store.latestReadable(session);
    if (!latest) {
      throw new InputError('This conversation has no messages yet: send one before sharing it', [
        { path: 'id', message: 'empty conversation' },
      ]);
    }
    for (let attempt = 0; ; attempt++) {
      try {
        const existing = await this.deps.shares
          .findOneAndUpdate(
            { sessionId: session._id, ownerId: who.userId },
            { $set: { upTo: latest._id } },
            { new: true },
          )
          .lean();
        if (existing) return { share: await this.describe(existing), created: false };
        const created = (
          await this.deps.shares.create({
            _id: newShareToken(),
            sessionId: session._id,
            ownerId: who.userId,
            upTo: latest._id,
          })
        ).toObject();
        return { share: await this.describe(created), created: true };
      } catch (err) {
        // The same conversation shared twice at once: the other request made the link; update that one.
        if ((err as { code?: number }).code !== DUPLICATE_KEY || attempt > 0) throw err;
      }
    }
  }

  /** The conversation's link, or a 404 when it is not shared (or not the caller's). */
  async get(who: Identity, sessionId: string): Promise<ConversationShare> {
    const session = await this.deps.store.own(who, sessionId);
    const share = await this.deps.shares.findOne({ sessionId: session._id, ownerId: who.userId }).lean();
    if (!share) throw new NotFoundError('This conversation is not shared');
    return this.describe(share);
  }

  /** Stops sharing: the link answers 404 from now on. Stopping a conversation that is not shared is not an error. */
  async stop(who: Identity, sessionId: string): Promise<void> {
    const session = await this.deps.store.own(who, sessionId);
    await this.deps.shares.deleteOne({ sessionId: session._id, ownerId: who.userId });
  }

  /** Deletes a conversation's link (with its conversation). */
  async removeForSession(ownerId: string, sessionId: Types.ObjectId): Promise<void> {
    await this.deps.shares.deleteMany({ sessionId, ownerId });
  }

  /** What anyone with the link reads. */
  async read(token: string): Promise<SharedConversation> {
    const share = await this.deps.shares.findById(token).lean();
    if (!share) throw new NotFoundError(GONE);
    const session = await this.deps.store.findSession(share.sessionId, share.ownerId);
    if (!session) throw new NotFoundError(GONE);
    const docs = session.branched
      ? (
          await this.deps.store.messagesById(
            session,
            (await this.readablePathTo(session, share.upTo)).slice(-(SHARED_CONVERSATION_MAX_MESSAGES + 1)),
          )
        ).reverse()
      : await this.deps.store.readableUpTo(session, share.upTo, SHARED_CONVERSATION_MAX_MESSAGES + 1);
    const persona = await this.deps.personas.findForUser(session.personaId, share.ownerId);
    return {
      title: session.title,
      persona: {
        id: session.personaId,
        name: persona?.name ?? session.personaId,
        ...(persona?.avatar ? { avatar: persona.avatar } : {}),
        ...(persona?.color ? { color: persona.color } : {}),
      },
      sharedAt: share.updatedAt.toISOString(),
      messages: docs.slice(0, SHARED_CONVERSATION_MAX_MESSAGES).reverse().map(toMessage),
      truncated: docs.length > SHARED_CONVERSATION_MAX_MESSAGES,
    };
  }

  /** The latest finished message of the current branch of a conversation that branched. */
  private async latestOnBranch(session: SessionDocument): Promise<{ _id: Types.ObjectId } | undefined> {
    const tree = await this.deps.store.tree(session);
    const latest = tree.branch().findLast((id) => isReadable(tree.node(id)!.status));
    return latest ? { _id: new Types.ObjectId(latest) } : undefined;
  }

  /** The finished messages of the branch that ends at `upTo`, in order, in a conversation that branched. */
  private async readablePathTo(session: SessionDocument, upTo: Types.ObjectId): Promise<string[]> {
    const tree = await this.deps.store.tree(session);
    return tree.pathTo(upTo.toString()).filter((id) => isReadable(tree.node(id)!.status));
  }

  private async describe(share: ShareDocument): Promise<ConversationShare> {
    const session = await this.deps.store.findSession(share.sessionId, share.ownerId);
    const messageCount = session?.branched
      ? (await this.readablePathTo(session, share.upTo)).length
      : await this.deps.store.countReadableUpTo({ _id: share.sessionId, ownerId: share.ownerId }, share.upTo);
    return {
      token: share._id,
      path: `/share/${share._id}`,
      sessionId: share.sessionId.toString(),
      messageCount: Math.min(messageCount, SHARED_CONVERSATION_MAX_MESSAGES),
      sharedAt: share.updatedAt.toISOString(),
    };
  }
}
