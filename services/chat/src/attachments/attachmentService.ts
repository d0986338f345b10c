import { ATTACHMENT_LIMITS, ErrorCode, formatByteSize, type Attachment, type MessageAttachment } from '@kasa/contracts';
import {
  ConflictError,
  HttpError,
  assertPlanAllows,
  NotFoundError,
  PayloadTooLargeError,
  type Logger,
} from '@kasa/service-kit';
import mongoose, { type Connection, type Model, type Types } from 'mongoose';
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Identity } from '../identity/identity';
import type { PromptImage } from '../providers/chatProvider';
import {
  attachmentModel,
  attachmentUsageModel,
  toAttachment,
  toMessageAttachment,
  type AttachmentDocument,
  type AttachmentUsageDocument,
} from './attachmentModel';
import type { AttachmentProcessor } from './attachmentProcessor';
import { ACCEPTED_MEDIA_TYPES, ACCEPTED_TYPES_TEXT, cleanFileName, detectFileKind, maxBytesOf } from './fileKind';

/** The GridFS bucket of the chat database that holds the bytes. */
export const ATTACHMENT_BUCKET = 'attachments';

const QUERY_TIME_LIMIT_MS = 10_000;

/** Spec section 6: multimodal chat is part of Pro (and Enterprise); Free gets a 403 naming what Pro adds. */
export const ATTACHMENTS_PLAN =
  'Images and documents in chat are part of the Pro plan: upgrade to Pro to send photos, PDFs and Word documents ' +
  'with your messages and ask about them.';

/** 415: the bytes are none of the accepted types. */
export class UnsupportedAttachmentError extends HttpError {
  constructor() {
    super(415, ErrorCode.unsupportedMediaType, `This file type is not accepted. Send ${ACCEPTED_TYPES_TEXT}.`, {
      accepted: ACCEPTED_MEDIA_TYPES,
    });
  }
}

/** What a message's attachments give its prompt: the images' bytes and the documents' text. */
export interface TurnAttachments {
  /** As the message stores them. */
  stored: MessageAttachment[];
  images: PromptImage[];
  documents: Array<Pick<AttachmentDocument, 'name' | 'textUnit' | 'textParts' | 'textTruncated'>>;
}

const isDuplicateKey = (err: unknown): boolean => (err as { code?: number })?.code === 11000;

/**
 * Images and documents sent with messages: stored in the chat database (bytes in GridFS, a metadata document with
 * the extracted text and thumbnail), each visible to its owner only, within a per-person allowance reserved
 * atomically before anything is stored.
 */
export class AttachmentService {
  private readonly bucket: mongoose.mongo.GridFSBucket;
  private readonly docs: Model<AttachmentDocument>;
  private readonly usage: Model<AttachmentUsageDocument>;
  /** One person's reservations and releases take turns in this process (see reserve). */

  constructor(
    db: Connection,
    private readonly logger: Logger,
    /** Reads documents' text and images' thumbnails in worker threads, within the processing limits. */
    private readonly processor: AttachmentProcessor,
    private readonly limits: { perPersonCount: number; perPersonBytes: number } = ATTACHMENT_LIMITS,
  ) {
    if (!db.db) throw new Error('the database connection is not open');
    this.bucket = new mongoose.mongo.GridFSBucket(db.db, { bucketName: ATTACHMENT_BUCKET });
    this.docs = attachmentModel(db);
    this.usage = attachmentUsageModel(db);
  }

  /**
   * Stores an upload: checks the plan, decides the type from the bytes, checks the kind's size limit, reads a
   * document's text or makes an image's thumbnail (in the worker pool, within the processing limits: past one, 422 and
   * nothing stored; pool full, 503), then reserves room in the person's allowance and stores bytes and metadata.
   * `body` is moved to the worker and back (AttachmentProcessor.process): the caller must not use it afterwards.
   */
  async upload(who: Identity, rawName: string, body: Buffer, declaredType: string | undefined): Promise<Attachment> {
    assertPlanAllows(who.tier, 'attachments', ATTACHMENTS_PLAN);
    const name = cleanFileName(rawName);
    const detected = await detectFileKind(body, name, declaredType);
    if (!detected) throw new UnsupportedAttachmentError();
    const limit = maxBytesOf(detected.kind);
    if (body.length > limit)
      throw new PayloadTooLargeError(
        `This ${detected.kind === 'image' ? 'image' : 'document'} is ${formatByteSize(body.length)}: ` +
          `${detected.kind === 'image' ? 'images' : 'documents'} may be at most ${formatByteSize(limit)}.`,
      );

    // The slow parts (reading a PDF, resizing an image, hashing) run in the worker pool before the allowance is
    // reserved: a refusal there (a limit, a busy pool) leaves nothing to give back. A damaged or encrypted document
    // gives no text but is kept (its owner may still want to send it); an image sharp cannot read, no thumbnail.
    // The body's bytes travel to the worker and back: from here on, `file.bytes` are the upload's bytes.
    const file = await this.processor.process(body, detected.kind, detected.mediaType);
    const { bytes, text, thumbnail } = file;

    await this.reserve(who.userId, bytes.length);
    const id = randomBytes(16).toString('base64url');
    let fileId: Types.ObjectId | undefined;
    try {
      fileId = await this.storeBytes(id, who.userId, bytes);
      const doc = await this.docs.create({
        _id: id,
        ownerId: who.userId,
        kind: detected.kind,
        mediaType: detected.mediaType,
        name,
        size: bytes.length,
        sha256: file.sha256,
        fileId,
        sessionId: null,
        ...(detected.kind === 'document'
          ? {
              textUnit: text?.unit ?? 'section',
              textParts: text?.parts ?? [],
              pageCount: text?.count ?? 0,
              characters: text?.characters ?? 0,
              textTruncated: text?.truncated ?? false,
            }
          : {}),
        ...(thumbnail ? { thumbnail } : {}),
      });
      return toAttachment(doc.toObject());
    } catch (err) {
      if (fileId) await this.bucket.delete(fileId).catch(() => undefined);
      await this.release(who.userId, bytes.length);
      throw err;
    }
  }

  /** The caller's attachment, or 404 (another person's id answers exactly like one that does not exist). */
  async own(who: Identity, id: string): Promise<AttachmentDocument> {
    const doc = await this.docs
      .findOne({ _id: id, ownerId: who.userId }, { textParts: 0 })
      .maxTimeMS(QUERY_TIME_LIMIT_MS)
      .lean();
    if (!doc) throw new NotFoundError('Attachment not found');
    return doc;
  }

  /** The bytes of one of the caller's attachments, streamed from GridFS. */
  async open(who: Identity, id: string): Promise<{ doc: AttachmentDocument; stream: Readable }> {
    const doc = await this.own(who, id);
    return { doc, stream: this.bucket.openDownloadStream(doc.fileId) };
  }

  /**
   * Deletes one of the caller's attachments: the metadata first (nobody reads it after), then the bytes. No projection
   * on findOneAndDelete: FerretDB v1 does not take one there.
   */
  async remove(who: Identity, id: string): Promise<void> {
    const doc = await this.docs.findOneAndDelete({ _id: id, ownerId: who.userId }).lean();
    if (!doc) throw new NotFoundError('Attachment not found');
    await this.dropBytes(doc.fileId);
    await this.release(who.userId, doc.size);
  }

  /** Deletes every attachment sent in a session (the session is being deleted). */
  async removeForSession(ownerId: string, sessionId: Types.ObjectId): Promise<void> {
    const docs = await this.docs.find({ ownerId, sessionId }, { _id: 1 }).maxTimeMS(QUERY_TIME_LIMIT_MS).lean();
    for (const { _id } of docs) {
      const doc = await this.docs.findOneAndDelete({ _id, ownerId }).lean();
      if (!doc) continue;
      await this.dropBytes(doc.fileId);
      await this.release(ownerId, doc.size);
    }
  }

  /**
   * The attachments a message carries, in the order given: each must be the sender's (else 404) and not sent in
   * another session (else 409); the first message that carries one binds it to its session, atomically, so that two
   * sessions can never both claim it. Reads the images' bytes and the documents' text for the prompt.
   */
  async forMessage(
    who: Identity,
    sessionId: Types.ObjectId,
    ids: string[],
    /** The ids come from a stored message (an edit or a regenerated answer): those deleted since are left out. */
    options: { inherited?: boolean } = {},
  ): Promise<TurnAttachments> {
    if (ids.length === 0) return { stored: [], images: [], documents: [] };
    assertPlanAllows(who.tier, 'attachments', ATTACHMENTS_PLAN);
    const docs = await this.docs
      .find({ _id: { $in: ids }, ownerId: who.userId })
      .maxTimeMS(QUERY_TIME_LIMIT_MS)
      .lean();
    const byId = new Map(docs.map((doc) => [doc._id, doc]));
    const missing = ids.filter((id) => !byId.has(id));
    if (missing.length > 0 && !options.inherited)
      throw new NotFoundError(`Attachment not found: ${missing.join(', ')}`);
    for (const doc of docs) {
      if (doc.sessionId && !doc.sessionId.equals(sessionId)) throw this.usedElsewhere(doc.name);
      if (doc.sessionId) continue;
      const bound = await this.docs
        .updateOne({ _id: doc._id, ownerId: who.userId, sessionId: null }, { $set: { sessionId } })
        .maxTimeMS(QUERY_TIME_LIMIT_MS);
      if (bound.modifiedCount === 0) {
        // Another message claimed it in the meantime: fine if it was in this session.
        const now = await this.docs.findOne({ _id: doc._id }, { sessionId: 1 }).lean();
        if (!now?.sessionId?.equals(sessionId)) throw this.usedElsewhere(doc.name);
      }
    }
    const ordered = ids.flatMap((id) => byId.get(id) ?? []);
    const images = await Promise.all(
      ordered
        .filter((doc) => doc.kind === 'image')
        .map(async (doc) => ({ data: await this.readBytes(doc.fileId), mediaType: doc.mediaType })),
    );
    return {
      stored: ordered.map(toMessageAttachment),
      images,
      documents: ordered.filter((doc) => doc.kind === 'document'),
    };
  }

  private usedElsewhere(name: string): ConflictError {
    return new ConflictError(`"${name}" was sent in another conversation. Upload it again to send it here.`, [
      { path: 'attachmentIds', message: 'sent in another session' },
    ]);
  }

  /**
   * Reserves room for one more attachment of `bytes` in the person's allowance with one conditional update (it
   * matches only while there is room) on the person's usage document, created first when missing. The database
   * applies it atomically, whatever the number of replicas (the embedded FerretDB too, with its patch 0006).
   */
  private async reserve(ownerId: string, bytes: number): Promise<void> {
    const { perPersonCount, perPersonBytes } = this.limits;
    // Simultaneous first uploads may both try to create it: one does, the others find it there.
    await this.usage
      .updateOne({ _id: ownerId }, { $setOnInsert: { count: 0, bytes: 0 } }, { upsert: true })
      .maxTimeMS(QUERY_TIME_LIMIT_MS)
      .catch((err: unknown) => {
        if (!isDuplicateKey(err)) throw err;
      });
    const reserved = await this.usage
      .updateOne(
        { _id: ownerId, count: { $lt: perPersonCount }, bytes: { $lte: perPersonBytes - bytes } },
        { $inc: { count: 1, bytes } },
      )
      .maxTimeMS(QUERY_TIME_LIMIT_MS);
    if (reserved.matchedCount === 0) {
      throw new ConflictError(
        `You keep as many attachments as your account allows (${perPersonCount} files, ` +
          `${formatByteSize(perPersonBytes)} in all). Delete some, or conversations you no longer need, to upload more.`,
        { count: perPersonCount, bytes: perPersonBytes },
      );
    }
  }

  private async release(ownerId: string, bytes: number): Promise<void> {
    await this.usage
      .updateOne({ _id: ownerId }, { $inc: { count: -1, bytes: -bytes } })
      .maxTimeMS(QUERY_TIME_LIMIT_MS)
      .catch((err: unknown) => this.logger.warn({ err }, 'attachment allowance not released'));
  }

  private async storeBytes(id: string, ownerId: string, bytes: Buffer): Promise<Types.ObjectId> {
    const upload = this.bucket.openUploadStream(id, { metadata: { ownerId } });
    await new Promise<void>((resolve, reject) => {
      upload.once('error', reject);
      upload.once('finish', () => resolve());
      upload.end(bytes);
    });
    return upload.id;
  }

  private async readBytes(fileId: Types.ObjectId): Promise<Uint8Array> {
    const chunks: Buffer[] = [];
    for await (const chunk of this.bucket.openDownloadStream(fileId)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  private async dropBytes(fileId: Types.ObjectId): Promise<void> {
    // Bytes already gone (a delete that failed half-way and was retried) are not an error.
    await this.bucket.delete(fileId).catch((err: unknown) => {
      if ((err as { message?: string })?.message?.includes('File not found')) return;
      throw err;
    });
  }
}
