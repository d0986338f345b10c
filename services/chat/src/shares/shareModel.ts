import { randomBytes } from 'node:crypto';
import { Schema, type Connection, type Model, type Types } from 'mongoose';

/** A conversation's read-only link. One per session; stopping sharing deletes it, so its token never works again. */
export interface ShareDocument {
  /** The token in the link: 128 random bits, base64url. */
  _id: string;
  sessionId: Types.ObjectId;
  ownerId: string;
  /** The newest message a reader sees; sharing again moves it to the conversation's latest message. */
  upTo: Types.ObjectId;
  createdAt: Date;
  updatedAt: Date;
}

const shareSchema = new Schema<ShareDocument>(
  {
    _id: { type: String, required: true },
    sessionId: { type: Schema.Types.ObjectId, required: true },
    ownerId: { type: String, required: true },
    upTo: { type: Schema.Types.ObjectId, required: true },
  },
  { timestamps: true, versionKey: false, collection: 'shares' },
);
// One link per conversation (sharing twice keeps the same link); the owner's reads filter on both.
shareSchema.index({ sessionId: 1 }, { unique: true });

export function shareModel(connection: Connection): Model<ShareDocument> {
  return connection.models.Share ?? connection.model<ShareDocument>('Share', shareSchema);
}

export const newShareToken = (): string => randomBytes(16).toString('base64url');
