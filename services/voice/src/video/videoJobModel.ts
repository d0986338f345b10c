import type { VideoJobStatus } from '@kasa/contracts';
import type { OutboxEntry } from '@kasa/service-kit';
import { Schema, type Connection, type Model } from 'mongoose';

export type CaptionStyle = 'burned-in' | 'subtitle-track';

/** One video job as stored in kasa_voice (collection `videojobs`). */
export interface VideoJobDocument {
  /** 128 random bits, URL-safe: the job's public id. */
  _id: string;
  userId: string;
  prompt: string;
  /** The catalogue code of the prompt's language (resolved when the job was created). */
  language: string;
  voice?: string;
  renderer: string;
  status: VideoJobStatus;
  progress: number;
  captions?: CaptionStyle;
  /** The finished MP4's id in GridFS (bucket `video`); also its public address. */
  fileId?: string;
  duration?: number;
  error?: string;
  /** The captions of a finished video and when each is spoken (seconds), served as WebVTT; prompts are ≤ 2,000 characters. */
  cues?: { text: string; start: number; end: number }[];
  /** Deliveries that started rendering it; a job that keeps killing its worker is given up after a few. */
  attempts: number;
  /** The process rendering it now, and when that process last said it was still at it. */
  workerId?: string;
  heartbeatAt?: Date;
  /**
   * `voice.video.completed`, stored with the outcome by the same update: the kit's outbox entry (see Outbox), published
   * then, and republished until the broker confirms it (id `voice.video.completed:<job id>` every time).
   */
  completedEvent?: OutboxEntry<'voice.video.completed'>;
  /**
   * The owner's video slot (the kit's concurrency slots, scope `video`) the job holds while unfinished; cleared once
   * given back after the outcome (the sweeper gives back those still set on finished jobs).
   */
  slot?: string;
  finishedAt?: Date;
  createdAt: Date;
  updatedAt: Date;
}

const schema = new Schema<VideoJobDocument>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    prompt: { type: String, required: true },
    language: { type: String, required: true },
    voice: String,
    renderer: { type: String, required: true },
    status: { type: String, required: true, enum: ['queued', 'running', 'succeeded', 'failed'] },
    progress: { type: Number, required: true, default: 0 },
    captions: String,
    fileId: String,
    duration: Number,
    error: String,
    cues: { type: [{ _id: false, text: String, start: Number, end: Number }], default: undefined },
    attempts: { type: Number, required: true, default: 0 },
    workerId: String,
    heartbeatAt: Date,
    completedEvent: Schema.Types.Mixed,
    slot: String,
    finishedAt: Date,
  },
  { timestamps: true, versionKey: false, collection: 'videojobs' },
);
// The caller's jobs, newest first; the sweeper's look-ups by status; a queued job's place in the queue (the queued
// jobs created before it).
schema.index({ userId: 1, createdAt: -1 });
schema.index({ status: 1, updatedAt: 1 });
schema.index({ status: 1, createdAt: 1 });
// The outbox's republisher looks for entries not yet published.
schema.index({ 'completedEvent.state': 1 });

export type VideoJobModel = Model<VideoJobDocument>;

export function videoJobModel(db: Connection): VideoJobModel {
  return (db.models.VideoJob as VideoJobModel | undefined) ?? db.model<VideoJobDocument>('VideoJob', schema);
}

/**
 * Work messages not yet confirmed by the broker, one document per job (an outbox): written before the job, removed
 * once the broker confirmed its message; what is left is sent again by the sweeper. Kept apart from the job document
 * so that marking a message sent never races with the worker writing the job.
 */
export interface VideoOutboxDocument {
  _id: string;
  at: Date;
}

const outboxSchema = new Schema<VideoOutboxDocument>(
  { _id: { type: String, required: true }, at: { type: Date, required: true } },
  { versionKey: false, collection: 'videooutbox' },
);

export type VideoOutboxModel = Model<VideoOutboxDocument>;

export function videoOutboxModel(db: Connection): VideoOutboxModel {
  return (
    (db.models.VideoOutbox as VideoOutboxModel | undefined) ??
    db.model<VideoOutboxDocument>('VideoOutbox', outboxSchema)
  );
}
