import type { Message, MessageAttachment, MessageStatus, MessageVersion, StoredMessage } from '@kasa/contracts';
import { Schema, type Connection, type Model, type Types } from 'mongoose';
import type { TreeNode } from './conversationTree';

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
  /**
   * The message this one follows (ConversationTree): null for a conversation's first message; absent on messages
   * stored before conversations could branch, which follow the one stored before them. Messages that follow the same
   * message are versions of each other (edits, regenerated answers).
   */
  parentId?: Types.ObjectId | null;
  /** When this version was last chosen among its versions (`.../select`); until then, its `createdAt` counts. */
  selectedAt?: Date;
  /** A user message's images and documents (what they were when sent; the files are in AttachmentService). */
  attachments?: MessageAttachment[];
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
    parentId: { type: Schema.Types.ObjectId },
    selectedAt: Date,
    attachments: {
      type: [{ _id: false, id: String, kind: String, name: String, mediaType: String, size: Number }],
      default: undefined,
    },
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
  doc: MessageFields &
    Pick<MessageDocument, 'type' | 'status' | 'provider' | 'model'> &
    Partial<Pick<MessageDocument, 'attachments'>>,
  version?: MessageVersion,
): StoredMessage {
  return {
    ...toMessage(doc),
    type: doc.type,
    status: doc.status,
    ...(doc.provider ? { provider: doc.provider } : {}),
    ...(doc.model ? { model: doc.model } : {}),
    ...(version ? { version } : {}),
    ...(doc.attachments?.length
      ? {
          attachments: doc.attachments.map(({ id, kind, name, mediaType, size }) => ({
            id,
            kind,
            name,
            mediaType,
            size,
          })),
        }
      : {}),
  };
}

/** The fields ConversationTree reads: the shape of a conversation without its text. */
export const TREE_FIELDS = { _id: 1, parentId: 1, role: 1, status: 1, createdAt: 1, selectedAt: 1 } as const;

/** A message read with TREE_FIELDS, as a node of ConversationTree. */
export function toTreeNode(
  doc: Pick<MessageDocument, '_id' | 'parentId' | 'role' | 'status' | 'createdAt' | 'selectedAt'>,
): TreeNode {
  return {
    id: doc._id.toString(),
    parentId: doc.parentId === undefined ? undefined : (doc.parentId?.toString() ?? null),
    role: doc.role,
    status: doc.status,
    // A message stored without timestamps (written by hand) counts as the oldest of its versions.
    shownAt: (doc.selectedAt ?? doc.createdAt)?.getTime() ?? 0,
  };
}
