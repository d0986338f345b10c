import { Schema, type Connection, type Model } from 'mongoose';

/**
 * One sign-in through a team's identity provider, between `POST /api/auth/sso/start` and the provider's callback
 * (`sso_flows`). `_id` is the SHA-256 of the `state` sent to the provider (the state itself is never stored); the PKCE
 * verifier is sealed; `bindingHash` is the SHA-256 of the `kasa_sso` cookie given to the browser that started it, so a
 * callback opened in another browser is refused. One conditional update uses it up (`usedAt`): a replayed state finds
 * nothing.
 */
export interface SsoFlowDocument {
  _id: string;
  teamId: string;
  /** The configuration's version the flow started with (its cached provider configuration). */
  ssoVersion: number;
  verifierSealed: string;
  nonce: string;
  bindingHash: string;
  /** The address typed at the start, for the audit log of a refusal before the provider answered. */
  email: string;
  expiresAt: Date;
  usedAt: Date | null;
  createdAt: Date;
}

const ssoFlowSchema = new Schema<SsoFlowDocument>(
  {
    _id: { type: String, required: true },
    teamId: { type: String, required: true },
    ssoVersion: { type: Number, required: true },
    verifierSealed: { type: String, required: true },
    nonce: { type: String, required: true },
    bindingHash: { type: String, required: true },
    email: { type: String, required: true },
    expiresAt: { type: Date, required: true, index: true },
    usedAt: { type: Date, default: null },
    createdAt: { type: Date, required: true },
  },
  { versionKey: false, collection: 'sso_flows' },
);

export function ssoFlowModel(connection: Connection): Model<SsoFlowDocument> {
  return connection.models.SsoFlow ?? connection.model<SsoFlowDocument>('SsoFlow', ssoFlowSchema);
}

/**
 * A finished single sign-on waiting for the web app (`sso_handoffs`): the callback puts a one-time code in the page's
 * address (its fragment, never sent to a server or a Referer), and the page exchanges it within 60 s for the access
 * token. `_id` is the SHA-256 of the code; one conditional update uses it up.
 */
export interface SsoHandoffDocument {
  _id: string;
  userId: string;
  /** Whether the sign-in made the account (the page then says welcome). */
  created: boolean;
  expiresAt: Date;
  usedAt: Date | null;
}

const ssoHandoffSchema = new Schema<SsoHandoffDocument>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    created: { type: Boolean, default: false },
    expiresAt: { type: Date, required: true, index: true },
    usedAt: { type: Date, default: null },
  },
  { versionKey: false, collection: 'sso_handoffs' },
);

export function ssoHandoffModel(connection: Connection): Model<SsoHandoffDocument> {
  return connection.models.SsoHandoff ?? connection.model<SsoHandoffDocument>('SsoHandoff', ssoHandoffSchema);
}
