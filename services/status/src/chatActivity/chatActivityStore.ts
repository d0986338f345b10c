import type { AnalyticsSession, EventData } from '@kasa/contracts';
import { retryOnDuplicate } from '../retryOnDuplicate';
import { Schema, type Connection, type Model, type PipelineStage } from 'mongoose';

/** A chat session as analytics sees it (collection `chat_sessions`), `_id` = the session id. */
interface ChatSessionRecord {
  _id: string;
  userId: string;
  personaId: string;
  /** Absent until `chat.session.created` arrives (a message event can come first). */
  title?: string;
  createdAt?: Date;
  messageCount: number;
  lastMessageAt: Date | null;
}

/** One chat message (collection `chat_messages`), `_id` = the message id; never its content. */
interface ChatMessageRecord {
  _id: string;
  sessionId: string;
  userId: string;
  personaId: string;
  role: 'user' | 'assistant';
  language: string | null;
  provider: string | null;
  at: Date;
}

const sessionSchema = new Schema<ChatSessionRecord>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    personaId: { type: String, required: true },
    title: { type: String },
    createdAt: { type: Date },
    messageCount: { type: Number, default: 0 },
    lastMessageAt: { type: Date, default: null },
  },
  { versionKey: false, collection: 'chat_sessions' },
);
sessionSchema.index({ userId: 1, createdAt: -1 });

const messageSchema = new Schema<ChatMessageRecord>(
  {
    _id: { type: String, required: true },
    sessionId: { type: String, required: true },
    userId: { type: String, required: true },
    personaId: { type: String, required: true },
    role: { type: String, required: true },
    language: { type: String, default: null },
    provider: { type: String, default: null },
    at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'chat_messages' },
);
messageSchema.index({ userId: 1, at: 1 });
messageSchema.index({ at: 1 });

/** The connection's model of that name, made once (schemas are typed by the interface they store). */
function modelOf<T>(connection: Connection, name: string, schema: Schema): Model<T> {
  return (connection.models[name] as Model<T> | undefined) ?? (connection.model(name, schema) as unknown as Model<T>);
}

/** Sessions and messages from chat's events, for the analytics panel: counts and titles, never message content. */
export class ChatActivityStore {
  private readonly sessions: Model<ChatSessionRecord>;
  private readonly messages: Model<ChatMessageRecord>;

  constructor(connection: Connection) {
    this.sessions = modelOf<ChatSessionRecord>(connection, 'ChatSessionRecord', sessionSchema);
    this.messages = modelOf<ChatMessageRecord>(connection, 'ChatMessageRecord', messageSchema);
  }

  async recordSession(data: EventData<'chat.session.created'>, eventTime: string): Promise<void> {
    await retryOnDuplicate(() =>
      this.sessions.updateOne(
        { _id: data.sessionId },
        {
          $set: {
            userId: data.userId,
            personaId: data.personaId,
            title: data.title ?? 'Untitled chat',
            createdAt: new Date(data.createdAt ?? eventTime),
          },
          $setOnInsert: { messageCount: 0, lastMessageAt: null },
        },
        { upsert: true },
      ),
    );
  }

  /** Stores the message once (a repeated event changes nothing), then counts it on its session. */
  async recordMessage(data: EventData<'chat.message.created'>, eventTime: string): Promise<void> {
    const at = new Date(eventTime);
    const stored = await retryOnDuplicate(() =>
      this.messages.updateOne(
        { _id: data.messageId },
        {
          $setOnInsert: {
            sessionId: data.sessionId,
            userId: data.userId,
            personaId: data.personaId,
            role: data.role,
            language: data.language ?? null,
            provider: data.provider ?? null,
            at,
          },
        },
        { upsert: true },
      ),
    );
    if (stored.upsertedCount === 0) return;
    await retryOnDuplicate(() =>
      this.sessions.updateOne(
        { _id: data.sessionId },
        {
          $inc: { messageCount: 1 },
          $max: { lastMessageAt: at },
          $setOnInsert: { userId: data.userId, personaId: data.personaId },
        },
        { upsert: true },
      ),
    );
  }

  /** The caller's newest sessions (those whose creation has arrived), at most `limit`. */
  async listSessions(userId: string, limit: number): Promise<AnalyticsSession[]> {
    const docs = await this.sessions
      .find({ userId, createdAt: { $exists: true } })
      .sort({ createdAt: -1, _id: -1 })
      .limit(limit)
      .lean<ChatSessionRecord[]>();
    return docs.map((doc) => ({
      id: doc._id,
      personaId: doc.personaId,
      title: doc.title ?? 'Untitled chat',
      createdAt: doc.createdAt!.toISOString(),
      messageCount: doc.messageCount,
      lastMessageAt: doc.lastMessageAt ? doc.lastMessageAt.toISOString() : null,
    }));
  }

  /** Sessions the caller started since `since`, per persona id. */
  sessionsPerPersona(userId: string, since: Date): Promise<Record<string, number>> {
    return countBy(this.sessions, { userId, createdAt: { $gte: since } }, 'personaId');
  }

  /** The caller's messages (theirs and the replies) since `since`. */
  countMessages(userId: string, since: Date): Promise<number> {
    return this.messages.countDocuments({ userId, at: { $gte: since } });
  }

  /** The caller's own messages since `since`, per language code (messages without a known language left out). */
  userMessagesPerLanguage(userId: string, since: Date): Promise<Record<string, number>> {
    return countBy(
      this.messages,
      { userId, role: 'user', at: { $gte: since }, language: { $type: 'string' } },
      'language',
    );
  }

  /** Deletes messages older than `before` (sessions stay: they are few and carry their counts). */
  async deleteOlderThan(before: Date): Promise<number> {
    return (await this.messages.deleteMany({ at: { $lt: before } })).deletedCount;
  }
}

/** One accumulator per $group: the embedded database (FerretDB v1) computes only the first one correctly. */
async function countBy<T>(model: Model<T>, match: Record<string, unknown>, field: string) {
  const pipeline: PipelineStage[] = [
    { $match: match },
    { $group: { _id: `$${field}`, count: { $sum: 1 } } },
    { $sort: { count: -1, _id: 1 } },
    { $limit: 200 },
  ];
  const rows = await model.aggregate<{ _id: string | null; count: number }>(pipeline);
  const counts: Record<string, number> = {};
  for (const row of rows) if (typeof row._id === 'string') counts[row._id] = row.count;
  return counts;
}
