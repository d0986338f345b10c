import type { AuditAction } from '@kasa/contracts';
import { Schema, type Connection, type Model } from 'mongoose';

/**
 * One entry of the audit log (`audit_log`): append-only, written only by the audit consumer from integration events,
 * one per event (`_id` is the event's id, so a redelivered event never adds a second entry). Nothing updates or
 * deletes entries.
 */
export interface AuditEntryDocument {
  /** The CloudEvents id of the event the entry comes from. */
  _id: string;
  /** When it happened (the event's time). */
  at: Date;
  action: AuditAction;
  /** Who acted: an operator, the account's owner, a team admin; null when the platform acted (billing, the clock). */
  actorId: string | null;
  /**
   * Whom it concerned: an account id, or `email:<address>` for a refused sign-in or an invitation with an address
   * nobody uses, or `team:<id>` for a team's settings.
   */
  targetId: string | null;
  clientIp: string | null;
  requestId: string | null;
  /** What else the event said (a reason, the plans before and after, a key's prefix): never a secret. */
  details: Record<string, unknown>;
  /** The team it concerned (its membership, seats, single sign-on, a team key), which its owner and admins read. */
  teamId?: string;
}

const auditEntrySchema = new Schema<AuditEntryDocument>(
  {
    _id: { type: String, required: true },
    at: { type: Date, required: true },
    action: { type: String, required: true },
    actorId: { type: String, default: null },
    targetId: { type: String, default: null },
    clientIp: { type: String, default: null },
    requestId: { type: String, default: null },
    details: { type: Schema.Types.Mixed, default: {} },
    teamId: { type: String },
  },
  { versionKey: false, collection: 'audit_log', minimize: false },
);
// Newest first, alone or by one filter: each filter of the console has its index (time, then id, for the cursor).
auditEntrySchema.index({ at: -1, _id: -1 });
auditEntrySchema.index({ actorId: 1, at: -1, _id: -1 });
auditEntrySchema.index({ targetId: 1, at: -1, _id: -1 });
auditEntrySchema.index({ action: 1, at: -1, _id: -1 });
// A team's own log (its owner's and admins' page).
auditEntrySchema.index({ teamId: 1, at: -1, _id: -1 });

export function auditEntryModel(connection: Connection): Model<AuditEntryDocument> {
  return connection.models.AuditEntry ?? connection.model<AuditEntryDocument>('AuditEntry', auditEntrySchema);
}
