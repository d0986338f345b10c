import mongoose, { type Connection } from 'mongoose';
import { randomBytes } from 'node:crypto';
import type { Readable, Writable } from 'node:stream';

const BUCKET = 'audio';

export interface AudioMetadata {
  contentType: string;
  language: string;
  voice: string;
  engine: string;
  characters: number;
  /** Seconds; set once the audio is complete. */
  duration?: number;
  userId?: string;
  /** Identifies cacheable audio (the public samples): the same text, voice and format give the same audio. */
  cacheKey?: string;
}

export interface StoredAudio {
  /** The public id (the GridFS file name): 128 random bits, so that an audio address cannot be guessed. */
  id: string;
  fileId: mongoose.Types.ObjectId;
  length: number;
  uploadDate: Date;
  metadata: AudioMetadata;
}

interface FileDocument {
  _id: mongoose.Types.ObjectId;
  filename: string;
  length: number;
  uploadDate: Date;
  metadata?: AudioMetadata;
}

/** Synthesized audio in the service's own database (GridFS bucket `audio`), kept for a limited time. */
export class AudioStore {
  private readonly bucket: mongoose.mongo.GridFSBucket;

  /** `bucketName` other than `audio`: the same storage for other media (finished videos use `video`). */
  constructor(
    private readonly db: Connection,
    private readonly bucketName: string = BUCKET,
  ) {
    if (!db.db) throw new Error('the database connection is not open');
    this.bucket = new mongoose.mongo.GridFSBucket(db.db, { bucketName });
  }

  newId(): string {
    return randomBytes(16).toString('base64url');
  }

  /**
   * Asks the database once: audio streams to the client while it is stored, and a storage failure found only at the
   * end could do no more than cut the stream, so synthesis checks first and answers a clear 503 instead.
   */
  async ensureReachable(): Promise<void> {
    await this.db.db!.admin().ping();
  }

  /** A write stream for new audio; abort it to drop what was written. */
  openUpload(id: string, metadata: AudioMetadata): Writable & { abort(): Promise<void>; id: unknown } {
    return this.bucket.openUploadStream(id, { metadata });
  }

  /** Records the duration once known (GridFS metadata is written when the upload opens). */
  async complete(id: string, duration: number): Promise<void> {
    await this.files().updateOne({ filename: id }, { $set: { 'metadata.duration': duration } });
  }

  async find(id: string): Promise<StoredAudio | undefined> {
    return this.toStored(await this.files().findOne({ filename: id }));
  }

  /** Complete audio made earlier for the same cache key, still far from its expiry. */
  async findCached(cacheKey: string, newerThan: Date): Promise<StoredAudio | undefined> {
    const doc = await this.files().findOne(
      { 'metadata.cacheKey': cacheKey, 'metadata.duration': { $exists: true }, uploadDate: { $gt: newerThan } },
      { sort: { uploadDate: -1 } },
    );
    return this.toStored(doc);
  }

  /** Bytes `start` to `end` inclusive. */
  openRange(audio: StoredAudio, start: number, end: number): Readable {
    return this.bucket.openDownloadStream(audio.fileId, { start, end: end + 1 });
  }

  /** Deletes one file by its public id; nothing happens if there is none. */
  async delete(id: string): Promise<void> {
    const file = await this.files().findOne({ filename: id }, { projection: { _id: 1 } });
    if (file) await this.bucket.delete(file._id);
  }

  /** Deletes audio uploaded before `cutoff`, up to `limit` files per call; returns how many went. */
  async deleteOlderThan(cutoff: Date, limit = 500): Promise<number> {
    const old = await this.files()
      .find({ uploadDate: { $lt: cutoff } }, { projection: { _id: 1 }, limit })
      .toArray();
    for (const file of old) await this.bucket.delete(file._id);
    return old.length;
  }

  private files() {
    return this.db.db!.collection<FileDocument>(`${this.bucketName}.files`);
  }

  private toStored(doc: FileDocument | null): StoredAudio | undefined {
    if (!doc?.metadata) return undefined;
    return {
      id: doc.filename,
      fileId: doc._id,
      length: doc.length,
      uploadDate: doc.uploadDate,
      metadata: doc.metadata,
    };
  }
}
