import type { AccountNotice } from '@kasa/contracts';
import type { OutboxEntry } from '@kasa/service-kit';
import { Schema, type Connection, type Model } from 'mongoose';

/**
 * An e-mail notice to an account's owner: one document per notice, carrying its `auth.email.requested` event in
 * `requestedEvent` (the kit's outbox entry, written with the document, published after it and republished until the
 * broker confirms). Its `_id` is the event id, so a notice with a deterministic id (one per billing transition) is
 * stored, and sent, once. Published notices are kept for a while as that record, then pruned.
 */
export interface EmailNoticeDocument {
  /** The event id. */
  _id: string;
  userId: string;
  notice: AccountNotice;
  createdAt: Date;
  requestedEvent: OutboxEntry<'auth.email.requested'>;
}

/** The document field the outbox entry lives in. */
export const NOTICE_EVENT_FIELD = 'requestedEvent';

const emailNoticeSchema = new Schema<EmailNoticeDocument>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    notice: { type: String, required: true },
    createdAt: { type: Date, required: true },
    // Written and read by the kit's Outbox only.
    requestedEvent: { type: Schema.Types.Mixed, required: true },
  },
  { versionKey: false, collection: 'email_notices' },
);
// The republisher looks for entries by state; the pruning for old published ones.
emailNoticeSchema.index({ [`${NOTICE_EVENT_FIELD}.state`]: 1, createdAt: 1 });
emailNoticeSchema.index({ userId: 1, createdAt: -1 });

export function emailNoticeModel(connection: Connection): Model<EmailNoticeDocument> {
  return connection.models.EmailNotice ?? connection.model<EmailNoticeDocument>('EmailNotice', emailNoticeSchema);
}
