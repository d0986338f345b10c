import type { Attachment, AttachmentKind, MessageAttachment } from '@kasa/contracts';
import { Schema, type Connection, type Model, type mongo, type Types } from 'mongoose';
import type { TextPart } from './textExtraction';

/**
 * An uploaded image or document: what it is and whose, the text read from a document and an image's thumbnail. The
 * bytes are in the GridFS bucket `attachments` (file name = the public id).
 */
export interface AttachmentDocument {
  /** The public id: 128 random bits, base64url. */
  _id: string;
  ownerId: string;
  kind: AttachmentKind;
  mediaType: string;
  name: string;
  size: number;
  sha256: string;
  /** The GridFS file holding the bytes. */
  fileId: Types.ObjectId;
  /** The session of the first message that carried it; it may be sent again there, in no other (see README). */
  sessionId?: Types.ObjectId | null;
  /** Documents: `page` (PDF) or `section` (the others), and the text of each, bounded. */
  textUnit?: 'page' | 'section';
  textParts?: TextPart[];
  /** Documents: their pages (PDF) or sections, with text or not. */
  pageCount?: number;
  characters?: number;
  textTruncated?: boolean;
  /** Images: a small WebP preview (none where sharp cannot run); a lean read gives BSON's Binary (see bytesOf). */
  thumbnail?: Buffer | mongo.Binary;
  createdAt: Date;
}

const attachmentSchema = new Schema<AttachmentDocument>(
  {
    _id: { type: String, required: true },
    ownerId: { type: String, required: true },
    kind: { type: String, enum: ['image', 'document'], required: true },
    mediaType: { type: String, required: true },
    name: { type: String, required: true },
    size: { type: Number, required: true },
    sha256: { type: String, required: true },
    fileId: { type: Schema.Types.ObjectId, required: true },
    sessionId: { type: Schema.Types.ObjectId, default: null },
    textUnit: { type: String, enum: ['page', 'section'] },
    textParts: { type: [{ _id: false, n: Number, text: String }], default: undefined },
    pageCount: Number,
    characters: Number,
    textTruncated: Boolean,
    thumbnail: Buffer,
    createdAt: { type: Date, default: () => new Date() },
  },
  { versionKey: false, collection: 'attachments' },
);
// A deleted session takes its attachments with it.
attachmentSchema.index({ ownerId: 1, sessionId: 1 });

export function attachmentModel(connection: Connection): Model<AttachmentDocument> {
  return connection.models.Attachment ?? connection.model<AttachmentDocument>('Attachment', attachmentSchema);
}

/** What one person keeps, reserved before an upload is stored (see AttachmentStore.reserve). */
export interface AttachmentUsageDocument {
  /** The owner's id. */
  _id: string;
  count: number;
  bytes: number;
}

const usageSchema = new Schema<AttachmentUsageDocument>(
  { _id: { type: String, required: true }, count: { type: Number, default: 0 }, bytes: { type: Number, default: 0 } },
  { versionKey: false, collection: 'attachment_usage' },
);

export function attachmentUsageModel(connection: Connection): Model<AttachmentUsageDocument> {
  return connection.models.AttachmentUsage ?? connection.model<AttachmentUsageDocument>('AttachmentUsage', usageSchema);
}

type PublicFields = Pick<
  AttachmentDocument,
  '_id' | 'kind' | 'name' | 'mediaType' | 'size' | 'createdAt' | 'pageCount' | 'characters' | 'thumbnail'
>;

/** A stored Buffer field as bytes: a hydrated document has a Buffer, a lean read BSON's Binary. */
export function bytesOf(value: unknown): Buffer | undefined {
  if (value === undefined || value === null) return undefined;
  if (Buffer.isBuffer(value)) return value;
  // A Binary's buffer may be longer than its content, which ends at `position`.
  const binary = value as { buffer?: unknown; position?: unknown };
  if (binary.buffer instanceof Uint8Array)
    return Buffer.from(
      typeof binary.position === 'number' ? binary.buffer.subarray(0, binary.position) : binary.buffer,
    );
  return undefined;
}

/** The owner's view of an attachment. */
export function toAttachment(doc: PublicFields): Attachment {
  return {
    id: doc._id,
    kind: doc.kind,
    name: doc.name,
    mediaType: doc.mediaType,
    size: doc.size,
    createdAt: doc.createdAt.toISOString(),
    ...(doc.kind === 'document' ? { pages: doc.pageCount ?? 0, characters: doc.characters ?? 0 } : {}),
    hasThumbnail: (bytesOf(doc.thumbnail)?.length ?? 0) > 0,
  };
}

/** An attachment as a message stores and shows it. */
export function toMessageAttachment(
  doc: Pick<AttachmentDocument, '_id' | 'kind' | 'name' | 'mediaType' | 'size'>,
): MessageAttachment {
  return { id: doc._id, kind: doc.kind, name: doc.name, mediaType: doc.mediaType, size: doc.size };
}
