import { Schema, type Connection, type Model, type Types } from 'mongoose';
import type { AttemptOutcome } from './chatProvider';

/** One try of one provider for one reply: what status and analytics count per provider. */
export interface AttemptDocument {
  _id: Types.ObjectId;
  /** The assistant message the attempt wrote to (null for the OpenAI-compatible API, which stores no messages). */
  messageId: Types.ObjectId | null;
  sessionId: Types.ObjectId | null;
  userId: string;
  personaId: string;
  provider: string;
  model: string;
  outcome: AttemptOutcome;
  /** Short, content-free reason of a failure (e.g. `HTTP 429`). */
  detail?: string;
  latencyMs: number;
  firstTokenMs?: number;
  inputTokens?: number;
  outputTokens?: number;
  /** Whether this attempt continued a reply another provider had started. */
  continued: boolean;
  /** Whether this attempt produced the reply's end (the provider the turn is attributed to). */
  answered: boolean;
  startedAt: Date;
}

const attemptSchema = new Schema<AttemptDocument>(
  {
    messageId: { type: Schema.Types.ObjectId, default: null },
    sessionId: { type: Schema.Types.ObjectId, default: null },
    userId: { type: String, required: true },
    personaId: { type: String, required: true },
    provider: { type: String, required: true },
    model: { type: String, required: true },
    outcome: { type: String, required: true },
    detail: String,
    latencyMs: { type: Number, required: true },
    firstTokenMs: Number,
    inputTokens: Number,
    outputTokens: Number,
    continued: { type: Boolean, default: false },
    answered: { type: Boolean, default: false },
    startedAt: { type: Date, required: true },
  },
  { versionKey: false, collection: 'provider_attempts' },
);
attemptSchema.index({ messageId: 1 });
attemptSchema.index({ provider: 1, startedAt: -1 });

export function attemptModel(connection: Connection): Model<AttemptDocument> {
  return connection.models.ProviderAttempt ?? connection.model<AttemptDocument>('ProviderAttempt', attemptSchema);
}
