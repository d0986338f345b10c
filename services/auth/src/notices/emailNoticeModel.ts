import type { EventData } from '@kasa/contracts';
import { Schema, type Connection, type Model } from 'mongoose';

/**
 * An e-mail notice waiting for the broker's confirm (the outbox of `auth.email.requested`): stored before it is
 * published, deleted once confirmed, re-published with the same event id while it stays.
 */
export interface EmailNoticeDocument {
  /** The event id. */
  _id: string;
  data: EventData<'auth.email.requested'>;
  requestId?: string | null;
  createdAt: Date;
}

const emailNoticeSchema = new Schema<EmailNoticeDocument>(
  {
    _id: { type: String, required: true },
    data: { type: Schema.Types.Mixed, required: true },
    requestId: { type: String, default: null },
    createdAt: { type: Date, required: true, index: true },
  },
  { versionKey: false, collection: 'email_notices' },
);

export function emailNoticeModel(connection: Connection): Model<EmailNoticeDocument> {
  return connection.models.EmailNotice ?? connection.model<EmailNoticeDocument>('EmailNotice', emailNoticeSchema);
}
