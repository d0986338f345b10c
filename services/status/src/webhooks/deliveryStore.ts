import { WEBHOOK_LIMITS, type WebhookDelivery, type WebhookDeliveryEventType } from '@kasa/contracts';
import { InputError } from '@kasa/service-kit';
import { Schema, type Connection, type Model } from 'mongoose';
import type { ReadLimits } from '../queries/queryLimits';
import { retryOnDuplicate } from '../retryOnDuplicate';
import { newWebhookId } from './endpointStore';

/** One message to one endpoint, with its attempts so far (collection `webhook_deliveries`). */
export interface WebhookDeliveryDocument {
  _id: string;
  endpointId: string;
  /** The endpoint's owner. */
  userId: string;
  /** `webhook-id`: the event's id, the same on every retry and replay. */
  eventId: string;
  eventType: WebhookDeliveryEventType;
  /**
   * Unique per endpoint (index): the event id for a delivery made from an event or a test message, so that an event
   * heard twice makes one delivery; `replay:<id>` for a replay, which repeats an event id on purpose.
   */
  dedupeKey: string;
  /** The JSON body, kept as sent so that retries and replays send the very same bytes. */
  body: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  /**
   * When the next attempt is due (null once delivered or failed). While an attempt runs it is the end of that
   * attempt's lease: a replica that dies mid-attempt leaves the delivery due again then.
   */
  nextAttemptAt: Date | null;
  /** The lease of the attempt under way; only its holder records the outcome. */
  leaseId: string | null;
  createdAt: Date;
  deliveredAt: Date | null;
  replayOf: string | null;
}

const COLLECTION = 'webhook_deliveries';
const DAY_MS = 86_400_000;

export function webhookDeliveryModel(db: Connection): Model<WebhookDeliveryDocument> {
  const existing = db.models.WebhookDelivery as Model<WebhookDeliveryDocument> | undefined;
  if (existing) return existing;
  const schema = new Schema<WebhookDeliveryDocument>(
    {
      _id: { type: String, required: true },
      endpointId: { type: String, required: true },
      userId: { type: String, required: true },
      eventId: { type: String, required: true },
      eventType: { type: String, required: true },
      dedupeKey: { type: String, required: true },
      body: { type: String, required: true },
      status: { type: String, required: true, enum: ['pending', 'delivered', 'failed'] },
      attempts: { type: Number, required: true, default: 0 },
      lastStatusCode: { type: Number, default: null },
      lastError: { type: String, default: null },
      nextAttemptAt: { type: Date, default: null },
      leaseId: { type: String, default: null },
      createdAt: { type: Date, required: true },
      deliveredAt: { type: Date, default: null },
      replayOf: { type: String, default: null },
    },
    { collection: COLLECTION, versionKey: false },
  );
  // An event heard twice makes one delivery per endpoint.
  schema.index({ endpointId: 1, dedupeKey: 1 }, { unique: true });
  // The worker's due deliveries.
  schema.index({ status: 1, nextAttemptAt: 1 });
  // The delivery log, newest first.
  schema.index({ endpointId: 1, createdAt: -1, _id: -1 });
  // The clean-up (no TTL index: the embedded database has none).
  schema.index({ createdAt: 1 });
  return db.model<WebhookDeliveryDocument>('WebhookDelivery', schema);
}

export const toWebhookDelivery = (doc: WebhookDeliveryDocument): WebhookDelivery => ({
  id: doc._id,
  eventId: doc.eventId,
  eventType: doc.eventType,
  status: doc.status,
  attempts: doc.attempts,
  lastStatusCode: doc.lastStatusCode ?? null,
  lastError: doc.lastError ?? null,
  nextAttemptAt: doc.status === 'pending' && doc.nextAttemptAt ? doc.nextAttemptAt.toISOString() : null,
  createdAt: doc.createdAt.toISOString(),
  deliveredAt: doc.deliveredAt ? doc.deliveredAt.toISOString() : null,
  replayOf: doc.replayOf ?? null,
});

/** `<createdAt in ms>-<id>` of the last delivery of a page: the next page starts below it. */
const encodeCursor = (doc: WebhookDeliveryDocument) => `${doc.createdAt.getTime()}-${doc._id}`;
function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const match = /^(\d{1,15})-([0-9a-f]{24})$/.exec(cursor);
  if (!match) throw new InputError('before: not a cursor this list gave');
  return { createdAt: new Date(Number(match[1])), id: match[2]! };
}

export interface NewDelivery {
  endpointId: string;
  userId: string;
  eventId: string;
  eventType: WebhookDeliveryEventType;
  body: string;
}

/**
 * The deliveries of webhook messages: made pending (one per endpoint and event, whatever the number of times the
 * event is heard), claimed by the worker with a lease, and kept for the log WEBHOOK_LIMITS.deliveryRetentionDays
 * (30 days; a periodic clean-up deletes older ones, and the log never shows them).
 */
export class WebhookDeliveryStore {
  readonly model: Model<WebhookDeliveryDocument>;

  constructor(db: Connection) {
    this.model = webhookDeliveryModel(db);
  }

  /** A pending delivery, due now; the existing one when this endpoint already has this event. */
  async enqueue(delivery: NewDelivery, limits: ReadLimits, now = new Date()): Promise<WebhookDeliveryDocument> {
    const doc = await retryOnDuplicate(() =>
      this.model
        .findOneAndUpdate(
          { endpointId: delivery.endpointId, dedupeKey: delivery.eventId },
          { $setOnInsert: this.fresh(delivery, delivery.eventId, null, now) },
          { upsert: true, new: true },
        )
        .maxTimeMS(limits.maxTimeMS)
        .lean<WebhookDeliveryDocument>(),
    );
    return doc!;
  }

  /** A new pending delivery of the same event id and body (`replayOf` the original). */
  async replay(
    original: WebhookDeliveryDocument,
    limits: ReadLimits,
    now = new Date(),
  ): Promise<WebhookDeliveryDocument> {
    const id = newWebhookId();
    const doc = { ...this.fresh(original, `replay:${id}`, original._id, now), _id: id };
    await this.model.collection.insertOne(doc as never, { maxTimeMS: limits.maxTimeMS });
    return doc;
  }

  async get(endpointId: string, id: string, limits: ReadLimits): Promise<WebhookDeliveryDocument | null> {
    if (!/^[0-9a-f]{24}$/.test(id)) return null;
    return this.model.findOne({ _id: id, endpointId }).maxTimeMS(limits.maxTimeMS).lean<WebhookDeliveryDocument>();
  }

  /** One page of an endpoint's log, newest first, within the retention. */
  async page(
    endpointId: string,
    query: { limit: number; before?: string },
    limits: ReadLimits,
    now = new Date(),
  ): Promise<{ deliveries: WebhookDeliveryDocument[]; nextCursor: string | null }> {
    const after = new Date(now.getTime() - WEBHOOK_LIMITS.deliveryRetentionDays * DAY_MS);
    const cursor = query.before ? decodeCursor(query.before) : undefined;
    const filter = {
      endpointId,
      createdAt: { $gte: after },
      ...(cursor
        ? { $or: [{ createdAt: { $lt: cursor.createdAt } }, { createdAt: cursor.createdAt, _id: { $lt: cursor.id } }] }
        : {}),
    };
    const docs = await this.model
      .find(filter)
      .sort({ createdAt: -1, _id: -1 })
      .limit(query.limit + 1)
      .maxTimeMS(limits.maxTimeMS)
      .lean<WebhookDeliveryDocument[]>();
    const deliveries = docs.slice(0, query.limit);
    return {
      deliveries,
      nextCursor: docs.length > query.limit ? encodeCursor(deliveries[deliveries.length - 1]!) : null,
    };
  }

  /**
   * Claims the most overdue pending delivery for one attempt, atomically (one find-and-modify): its due time moves to
   * the end of the lease and it carries `leaseId`, so no other worker takes it meanwhile. Null when none is due.
   */
  async claimDue(leaseId: string, leaseMs: number, limits: ReadLimits, now = new Date()) {
    return this.model
      .findOneAndUpdate(
        { status: 'pending', nextAttemptAt: { $lte: now } },
        { $set: { nextAttemptAt: new Date(now.getTime() + leaseMs), leaseId } },
        { sort: { nextAttemptAt: 1 }, new: true },
      )
      .maxTimeMS(limits.maxTimeMS)
      .lean<WebhookDeliveryDocument>();
  }

  /** Records an attempt's outcome, if this worker still holds the lease (false otherwise, e.g. deleted meanwhile). */
  async settle(
    id: string,
    leaseId: string,
    outcome: Pick<
      WebhookDeliveryDocument,
      'status' | 'attempts' | 'lastStatusCode' | 'lastError' | 'nextAttemptAt' | 'deliveredAt'
    >,
    limits: ReadLimits,
  ): Promise<boolean> {
    const result = await this.model.updateOne(
      { _id: id, leaseId },
      { $set: { ...outcome, leaseId: null } },
      { maxTimeMS: limits.maxTimeMS },
    );
    return result.matchedCount === 1;
  }

  /** Drops a delivery (its endpoint is gone). */
  async drop(id: string, limits: ReadLimits): Promise<void> {
    await this.model.deleteOne({ _id: id }, { maxTimeMS: limits.maxTimeMS });
  }

  async deleteForEndpoint(endpointId: string, limits: ReadLimits): Promise<number> {
    const result = await this.model.deleteMany({ endpointId }, { maxTimeMS: limits.maxTimeMS });
    return result.deletedCount;
  }

  /** The clean-up: deliveries made before `before`. */
  async deleteOlderThan(before: Date, limits: ReadLimits): Promise<number> {
    const result = await this.model.deleteMany({ createdAt: { $lt: before } }, { maxTimeMS: limits.maxTimeMS });
    return result.deletedCount;
  }

  private fresh(delivery: NewDelivery, dedupeKey: string, replayOf: string | null, now: Date): WebhookDeliveryDocument {
    return {
      _id: newWebhookId(),
      endpointId: delivery.endpointId,
      userId: delivery.userId,
      eventId: delivery.eventId,
      eventType: delivery.eventType,
      dedupeKey,
      body: delivery.body,
      status: 'pending',
      attempts: 0,
      lastStatusCode: null,
      lastError: null,
      nextAttemptAt: now,
      leaseId: null,
      createdAt: now,
      deliveredAt: null,
      replayOf,
    };
  }
}
