import {
  OPENAI_RESPONSES_LIMITS,
  type OpenAIResponseObject,
  type OpenAIResponsesConversationItem,
} from '@kasa/contracts';
import { initModels, withTransientRetry, type Logger } from '@kasa/service-kit';
import { Schema, type Connection, type Model } from 'mongoose';
import type { WriteGate } from '../conversations/writeGate';

/**
 * A response kept for `previous_response_id`, GET and DELETE (POST /v1/responses with `store`, the default). The
 * conversation and the response are JSON texts: a caller's JSON Schemas have keys (`$schema`, `$ref`) that a stored
 * document may not, and nothing in them is queried.
 */
export interface StoredResponseDocument {
  /** The response's id (`resp_…`). */
  _id: string;
  ownerId: string;
  /** The items before the output (the stored history continued and the request's input), as JSON. */
  conversation: string;
  /** The response object as it was answered, as JSON. */
  response: string;
  createdAt: Date;
  /** Past this, the response is gone for its owner and the periodic clean-up deletes it. */
  expiresAt: Date;
}

const storedResponseSchema = new Schema<StoredResponseDocument>(
  {
    _id: { type: String, required: true },
    ownerId: { type: String, required: true },
    conversation: { type: String, required: true },
    response: { type: String, required: true },
    createdAt: { type: Date, required: true },
    expiresAt: { type: Date, required: true },
  },
  { versionKey: false, collection: 'openai_responses' },
);
// No TTL index (the embedded database has none): reads skip expired documents and `sweep` deletes them.
storedResponseSchema.index({ expiresAt: 1 });

export function storedResponseModel(connection: Connection): Model<StoredResponseDocument> {
  return (
    connection.models.OpenAIStoredResponse ??
    connection.model<StoredResponseDocument>('OpenAIStoredResponse', storedResponseSchema)
  );
}

/** A stored response, read back. */
export interface StoredResponse {
  conversation: OpenAIResponsesConversationItem[];
  response: OpenAIResponseObject;
}

/**
 * The one writer of `openai_responses`: each response belongs to the person who asked for it, and every read and
 * delete is scoped to them (another person's id is not found, like an unknown one).
 */
export class ResponseStore {
  private readonly model: Model<StoredResponseDocument>;
  private readonly retentionMs: number;

  constructor(
    private readonly deps: {
      db: Connection;
      logger: Logger;
      /** The process's queue of database writes. */
      writes?: WriteGate;
      /** How long a response is kept (default: OPENAI_RESPONSES_LIMITS.storedDays). */
      retentionMs?: number;
    },
  ) {
    this.model = storedResponseModel(deps.db);
    this.retentionMs = deps.retentionMs ?? OPENAI_RESPONSES_LIMITS.storedDays * 24 * 60 * 60_000;
  }

  static async init(db: Connection): Promise<void> {
    await initModels(storedResponseModel(db));
  }

  /** The owner's response with this id, unless it expired; null otherwise. */
  async find(ownerId: string, id: string): Promise<StoredResponse | null> {
    const doc = await this.model
      .findOne({ _id: id, ownerId, expiresAt: { $gt: new Date() } })
      .lean<StoredResponseDocument>();
    if (!doc) return null;
    return {
      conversation: JSON.parse(doc.conversation) as OpenAIResponsesConversationItem[],
      response: JSON.parse(doc.response) as OpenAIResponseObject,
    };
  }

  /** Keeps a finished response (before it is answered, so that a continuation sent at once finds it). */
  async save(
    ownerId: string,
    conversation: OpenAIResponsesConversationItem[],
    response: OpenAIResponseObject,
  ): Promise<void> {
    const now = new Date();
    const doc = {
      _id: response.id,
      ownerId,
      conversation: JSON.stringify(conversation),
      response: JSON.stringify(response),
      createdAt: now,
      expiresAt: new Date(now.getTime() + this.retentionMs),
    };
    const insert = () => this.model.insertMany([doc]).then(() => undefined);
    await withTransientRetry(() => (this.deps.writes ? this.deps.writes.run(insert, 'first') : insert()), {
      logger: this.deps.logger,
      what: 'store a response',
    });
  }

  /** Deletes the owner's response; false when they have none with this id. */
  async remove(ownerId: string, id: string): Promise<boolean> {
    const result = await this.model.deleteOne({ _id: id, ownerId, expiresAt: { $gt: new Date() } });
    return result.deletedCount > 0;
  }

  /** Deletes the expired responses; the number deleted. */
  async sweep(): Promise<number> {
    const result = await this.model.deleteMany({ expiresAt: { $lte: new Date() } });
    return result.deletedCount;
  }
}
