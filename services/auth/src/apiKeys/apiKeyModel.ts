import type { ApiKey, ApiKeyScope } from '@kasa/contracts';
import { Schema, type Connection, type Model, type Types } from 'mongoose';

/** A stored API key: its SHA-256 hash and the parts that may be shown, never the key itself. */
export interface ApiKeyDocument {
  _id: Types.ObjectId;
  userId: string;
  name: string;
  /** The key's first eight characters (`ksk_ab12`), shown in lists and sent with the revocation event. */
  prefix: string;
  lastFour: string;
  /** Hex SHA-256 of the whole key: how a presented key is looked up. */
  hash: string;
  scopes: ApiKeyScope[];
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  /** A team key: owned by the team (its owner and admins manage it), created by `userId`. */
  teamId?: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const apiKeySchema = new Schema<ApiKeyDocument>(
  {
    userId: { type: String, required: true },
    name: { type: String, required: true },
    prefix: { type: String, required: true },
    lastFour: { type: String, required: true },
    hash: { type: String, required: true, unique: true },
    scopes: { type: [String], required: true },
    expiresAt: { type: Date, default: null },
    lastUsedAt: { type: Date, default: null },
    revokedAt: { type: Date, default: null },
    teamId: { type: String, default: null },
  },
  { timestamps: true, versionKey: false, collection: 'api_keys' },
);
apiKeySchema.index({ userId: 1, createdAt: -1 });
apiKeySchema.index({ teamId: 1, createdAt: -1 });

export function apiKeyModel(connection: Connection): Model<ApiKeyDocument> {
  return connection.models.ApiKey ?? connection.model<ApiKeyDocument>('ApiKey', apiKeySchema);
}

/** The owner's view of a key: masked, with its dates. */
export function toPublicApiKey(doc: ApiKeyDocument): ApiKey {
  return {
    id: doc._id.toString(),
    name: doc.name,
    maskedKey: `${doc.prefix}…${doc.lastFour}`,
    scopes: doc.scopes,
    createdAt: doc.createdAt.toISOString(),
    expiresAt: doc.expiresAt?.toISOString() ?? null,
    lastUsedAt: doc.lastUsedAt?.toISOString() ?? null,
    revokedAt: doc.revokedAt?.toISOString() ?? null,
    teamId: doc.teamId ?? null,
  };
}
