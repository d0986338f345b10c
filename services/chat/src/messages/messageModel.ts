import type { Message, MessageStatus, StoredMessage } from '@kasa/contracts';
import { Schema, type Connection, type Model, type Types } from 'mongoose';

export interface MessageDocument {
  _id: Types.ObjectId;
  sessionId: Types.ObjectId;
  /** Denormalised from the session (no $lookup on FerretDB): search and ownership checks filter on it. */
  ownerId: string;
  personaId: string;
  role: 'user' | 'assistant';
  type: 'text' | 'voice' | 'image';
  content: string;
  status: MessageStatus;
  language?: string;
  provider?: string;
  model?: string;
  /** Output tokens of the reply (assistant) as the provider reported them, or an estimate. */
  tokens?: number;
  latencyMs?: number;
  /** On an assistant message: the user message it answers. */
  replyTo?: Types.ObjectId;
  createdAt: Date;
  updatedAt: Date;
}

const messageSchema = new Schema<MessageDocument>(
  {
    sessionId: { type: Schema.Types.ObjectId, required: true },
    ownerId: { type: String, required: true },
    personaId: { type: String, required: true },
    role: { type: String, enum: ['user', 'assistant'], required: true },
    type: { type: String, enum: ['text', 'voice', 'image'], default: 'text' },
    content: { type: String, default: '' },
    status: { type: String, enum: ['streaming', 'complete', 'stopped', 'failed'], default: 'complete' },
    language: String,
    provider: String,
    model: String,
    tokens: Number,
    latencyMs: Number,
    replyTo: { type: Schema.Types.ObjectId },
  },
  { timestamps: true, versionKey: false, collection: 'messages' },
);
messageSchema.index({ sessionId: 1, _id: -1 });
messageSchema.index({ ownerId: 1, _id: -1 });
// The clean-up of replies whose writer died looks for old `streaming` messages.
messageSchema.index({ status: 1, updatedAt: 1 });

export function messageModel(connection: Connection): Model<MessageDocument> {
  return connection.models.Message ?? connection.model<MessageDocument>('Message', messageSchema);
}

type MessageFields = Pick<MessageDocument, '_id' | 'role' | 'content' | 'createdAt'>;

/** The spec's view of a message: {id, role, content, timestamp}. */
export function toMessage(doc: MessageFields): Message {
  return { id: doc._id.toString(), role: doc.role, content: doc.content, timestamp: doc.createdAt.toISOString() };
}

export function toStoredMessage(
  doc: MessageFields & Pick<MessageDocument, 'type' | 'status' | 'provider' | 'model'>,
): StoredMessage {
  return {
    ...toMessage(doc),
    type: doc.type,
    status: doc.status,
    ...(doc.provider ? { provider: doc.provider } : {}),
    ...(doc.model ? { model: doc.model } : {}),
  };
}
