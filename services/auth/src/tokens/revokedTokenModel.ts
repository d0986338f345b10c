import { Schema, type Connection, type Model } from 'mongoose';

export interface RevokedToken {
  _id: string; // the token's jti
  userId: string;
  /** When the token would have expired; after that the revocation can be forgotten. */
  expiresAt: Date;
  revokedAt: Date;
}

const revokedTokenSchema = new Schema<RevokedToken>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    expiresAt: { type: Date, required: true, index: true },
    revokedAt: { type: Date, required: true },
  },
  { versionKey: false, collection: 'revoked_tokens' },
);

export function revokedTokenModel(connection: Connection): Model<RevokedToken> {
  return connection.models.RevokedToken ?? connection.model<RevokedToken>('RevokedToken', revokedTokenSchema);
}
