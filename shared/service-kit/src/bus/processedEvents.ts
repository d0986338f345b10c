import { Schema, type Connection, type Model } from 'mongoose';

/** Remembers which events a consumer has handled, so a redelivered or republished event is handled once. */
export interface ProcessedEventStore {
  /** true if this consumer already handled the event id */
  has(eventId: string): Promise<boolean>;
  markProcessed(eventId: string, type: string): Promise<void>;
}

/** A ProcessedEventStore that can forget old ids (there is no TTL index: FerretDB has none). */
export interface PrunableProcessedEventStore extends ProcessedEventStore {
  /** Forgets events processed before `olderThan`; returns how many were removed. */
  prune(olderThan: Date): Promise<number>;
}

/** One handled event: `_id` is the CloudEvents id. */
interface ProcessedEvent {
  _id: string;
  type: string;
  processedAt: Date;
}

const PROCESSED_EVENTS_COLLECTION = 'processed_events';
const MODEL_NAME = 'KasaProcessedEvent';

const processedEventSchema = new Schema<ProcessedEvent>(
  {
    _id: { type: String, required: true },
    type: { type: String, required: true },
    processedAt: { type: Date, required: true, index: true },
  },
  { versionKey: false, collection: PROCESSED_EVENTS_COLLECTION },
);

/**
 * Processed-event ids kept in the consuming service's own database (collection `processed_events`, `_id` = event id,
 * with `type` and `processedAt`). There is no TTL index (FerretDB has none): call `prune(olderThan)` periodically,
 * keeping ids for longer than any redelivery or republish can take (a few days is plenty).
 */
export function createMongoProcessedEventStore(connection: Connection): PrunableProcessedEventStore {
  const model =
    (connection.models[MODEL_NAME] as Model<ProcessedEvent> | undefined) ??
    connection.model<ProcessedEvent>(MODEL_NAME, processedEventSchema, PROCESSED_EVENTS_COLLECTION);
  return {
    async has(eventId) {
      return (await model.exists({ _id: eventId })) !== null;
    },
    async markProcessed(eventId, type) {
      // An upsert keeps the first processedAt and never fails on a second mark of the same id.
      await model.updateOne({ _id: eventId }, { $setOnInsert: { type, processedAt: new Date() } }, { upsert: true });
    },
    /** Forgets events processed before `olderThan`; returns how many were removed. */
    async prune(olderThan) {
      const result = await model.deleteMany({ processedAt: { $lt: olderThan } });
      return result.deletedCount;
    },
  };
}
