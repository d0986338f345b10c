import { Schema, type Connection, type Model } from 'mongoose';

/**
 * A team's single sign-on (`team_sso`, one per team: `_id` is the team's id). The client secret is stored sealed
 * (secretBox.ts, additional data `team:<id>:sso-client-secret`), never in the clear. `version` changes with every save,
 * so cached provider configurations (oidcClient.ts) are keyed by team and version.
 */
export interface TeamSsoDocument {
  _id: string;
  issuer: string;
  clientId: string;
  clientSecretSealed: string | null;
  domains: string[];
  requireSso: boolean;
  version: number;
  updatedBy: string;
  createdAt: Date;
  updatedAt: Date;
}

const teamSsoSchema = new Schema<TeamSsoDocument>(
  {
    _id: { type: String, required: true },
    issuer: { type: String, required: true },
    clientId: { type: String, required: true },
    clientSecretSealed: { type: String, default: null },
    domains: { type: [String], default: [] },
    requireSso: { type: Boolean, default: false },
    version: { type: Number, default: 1 },
    updatedBy: { type: String, required: true },
  },
  { timestamps: true, versionKey: false, collection: 'team_sso' },
);

export function teamSsoModel(connection: Connection): Model<TeamSsoDocument> {
  return connection.models.TeamSso ?? connection.model<TeamSsoDocument>('TeamSso', teamSsoSchema);
}

/**
 * Which team an e-mail domain signs in with (`sso_domains`): `_id` is the domain, so two teams can never claim the same
 * one (the primary key is unique on MongoDB and FerretDB alike). `requireSso` is copied here so that password sign-in
 * reads one small document by its key.
 */
export interface SsoDomainDocument {
  _id: string;
  teamId: string;
  requireSso: boolean;
}

const ssoDomainSchema = new Schema<SsoDomainDocument>(
  {
    _id: { type: String, required: true },
    teamId: { type: String, required: true, index: true },
    requireSso: { type: Boolean, default: false },
  },
  { versionKey: false, collection: 'sso_domains' },
);

export function ssoDomainModel(connection: Connection): Model<SsoDomainDocument> {
  return connection.models.SsoDomain ?? connection.model<SsoDomainDocument>('SsoDomain', ssoDomainSchema);
}
