import type { ProcessedEventStore } from '@kasa/service-kit';
import { Schema, type Connection, type Model } from 'mongoose';

/**
 * A processor's webhook whose signature was verified, kept until its facts are applied: the answer to the processor
 * goes out as soon as this is stored, and the work is done after (and again later if it cannot be done yet, e.g. a
 * subscription event that arrives before the checkout it belongs to).
 */
export interface InboxEventDocument {
  /** The event id (`stripe:evt_…`, `paystack:<sha256>`). */
  _id: string;
  processor: string;
  type: string;
  /** The raw body as received (the signature covered these bytes). */
  body: string;
  receivedAt: Date;
  attempts: number;
  /** Not taken before this (a lease while one process works on it, then the back-off after a failure). */
  nextAttemptAt: Date;
  lastError: string | null;
}

const inboxEventSchema = new Schema<InboxEventDocument>(
  {
    _id: { type: String, required: true },
    processor: { type: String, required: true },
    type: { type: String, required: true },
    body: { type: String, required: true },
    receivedAt: { type: Date, required: true },
    attempts: { type: Number, default: 0 },
    nextAttemptAt: { type: Date, required: true, index: true },
    lastError: { type: String, default: null },
  },
  { versionKey: false, collection: 'billing_webhook_inbox' },
);

export function inboxEventModel(connection: Connection): Model<InboxEventDocument> {
  return (
    connection.models.BillingWebhookInbox ??
    connection.model<InboxEventDocument>('BillingWebhookInbox', inboxEventSchema)
  );
}

const DUPLICATE_KEY = 11000;
/** How long one process may work on an event before another may take it. */
const LEASE_MS = 60_000;
/** Events that cannot be applied are retried with this back-off, at most until they are this old. */
const RETRY_BASE_MS = 10_000;
const RETRY_MAX_MS = 30 * 60_000;
export const INBOX_MAX_AGE_MS = 3 * 24 * 3600_000;

/** The inbox over its collection and the kit's processed-event store (ids of events applied, kept for 30 days). */
export class WebhookInbox {
  constructor(
    private readonly events: Model<InboxEventDocument>,
    private readonly processed: ProcessedEventStore,
    private readonly now: () => Date,
  ) {}

  /** Stores a verified event; `duplicate` when it was applied or is already waiting (a repeated delivery). */
  async receive(event: { id: string; type: string; processor: string; body: string }): Promise<'queued' | 'duplicate'> {
    if (await this.processed.has(event.id)) return 'duplicate';
    const now = this.now();
    try {
      await this.events.create({
        _id: event.id,
        processor: event.processor,
        type: event.type,
        body: event.body,
        receivedAt: now,
        attempts: 0,
        nextAttemptAt: now,
        lastError: null,
      });
      // Applied and out of the inbox between the check above and this insert (it is marked processed before it
      // leaves): still a repeated delivery, and not to be applied again.
      if (await this.processed.has(event.id)) {
        await this.events.deleteOne({ _id: event.id, attempts: 0 });
        return 'duplicate';
      }
      return 'queued';
    } catch (err) {
      if ((err as { code?: number }).code === DUPLICATE_KEY) return 'duplicate';
      throw err;
    }
  }

  /** Takes one waiting event for this process (a lease), or null when another has it or it is not due. */
  async take(id: string): Promise<InboxEventDocument | null> {
    const now = this.now();
    return this.events
      .findOneAndUpdate(
        { _id: id, nextAttemptAt: { $lte: now } },
        { $set: { nextAttemptAt: new Date(now.getTime() + LEASE_MS) }, $inc: { attempts: 1 } },
        { new: true },
      )
      .lean();
  }

  /** Ids of events due for an attempt, oldest first. */
  async due(limit: number): Promise<string[]> {
    const docs = await this.events
      .find({ nextAttemptAt: { $lte: this.now() } }, { _id: 1 })
      .sort({ nextAttemptAt: 1 })
      .limit(limit)
      .lean();
    return docs.map((doc) => doc._id);
  }

  /** The event's facts are applied: remembered as processed, and out of the inbox. */
  async done(event: InboxEventDocument): Promise<void> {
    await this.processed.markProcessed(event._id, event.type);
    await this.events.deleteOne({ _id: event._id });
  }

  /** Not applied yet: tried again later with a growing back-off; dropped (false) once too old to matter. */
  async later(event: InboxEventDocument, reason: string): Promise<boolean> {
    const now = this.now();
    if (now.getTime() - event.receivedAt.getTime() > INBOX_MAX_AGE_MS) {
      await this.events.deleteOne({ _id: event._id });
      return false;
    }
    const backOff = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.min(Math.max(event.attempts - 1, 0), 10));
    await this.events.updateOne(
      { _id: event._id },
      { $set: { nextAttemptAt: new Date(now.getTime() + backOff), lastError: reason.slice(0, 500) } },
    );
    return true;
  }
}
