import { Schema, type Connection, type Model } from 'mongoose';

/**
 * Failed sign-ins of one email address, known account or not (so that the answers cannot tell them apart). Keyed by
 * the address's SHA-256, so guessed addresses are not stored in clear. Every change is one single-document update.
 */
export interface LoginThrottleDocument {
  /** Hex SHA-256 of the lower-cased email. */
  _id: string;
  /** Failures since the count last started. */
  failures: number;
  /** Sign-in waits until then (null: not waiting). */
  lockedUntil: Date | null;
  /** The count is forgotten from then on: a quiet period after the last failure or the end of the wait. */
  forgetAt: Date;
}

const loginThrottleSchema = new Schema<LoginThrottleDocument>(
  {
    _id: { type: String, required: true },
    failures: { type: Number, required: true },
    lockedUntil: { type: Date, default: null },
    forgetAt: { type: Date, required: true, index: true },
  },
  { versionKey: false, collection: 'login_throttles' },
);

export function loginThrottleModel(connection: Connection): Model<LoginThrottleDocument> {
  return (
    connection.models.LoginThrottle ?? connection.model<LoginThrottleDocument>('LoginThrottle', loginThrottleSchema)
  );
}
