import { Schema, type Connection, type Model } from 'mongoose';

/**
 * The first-run setup link's secret, kept as a SHA-256 hash: one document (`_id: 'first-run'`), replaced each time a
 * new link is made, consumed by the one compare-and-set that marks it used.
 */
export interface SetupTokenDocument {
  _id: string;
  tokenHash: string;
  expiresAt: Date;
  usedAt: Date | null;
  usedBy: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const setupTokenSchema = new Schema<SetupTokenDocument>(
  {
    _id: { type: String, required: true },
    tokenHash: { type: String, required: true },
    expiresAt: { type: Date, required: true },
    usedAt: { type: Date, default: null },
    usedBy: { type: String, default: null },
  },
  { timestamps: true, versionKey: false, collection: 'operator_setup' },
);

export function setupTokenModel(connection: Connection): Model<SetupTokenDocument> {
  return connection.models.SetupToken ?? connection.model<SetupTokenDocument>('SetupToken', setupTokenSchema);
}
