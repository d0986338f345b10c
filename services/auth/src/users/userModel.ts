import type { SubscriptionTier, User } from '@kasa/contracts';
import type { OutboxEntry } from '@kasa/service-kit';
import { Schema, type Connection, type Model, type Types } from 'mongoose';

export interface UserDocument {
  _id: Types.ObjectId;
  username: string;
  /** Lower-cased username: uniqueness is case-insensitive ("Ama" and "ama" are one name). */
  usernameKey: string;
  email: string;
  /** Absent for an account made by a single sign-on (sso/): a password sign-in to it fails like a wrong password. */
  passwordHash?: string | null;
  subscriptionTier: SubscriptionTier;
  /**
   * `auth.user.registered`, stored with the account by the same write: the service kit's outbox entry, published then
   * and republished (same id) until the broker confirms it (see Outbox, ADR 0018).
   */
  registeredEvent?: OutboxEntry<'auth.user.registered'>;
  /** The one team the person belongs to, or null. Claimed with a conditional update, so two joins cannot race. */
  teamId?: string | null;
  /** When the owner was last e-mailed about a registration attempt with their address (at most hourly). */
  registrationNoticeAt?: Date | null;
  /** Runs this Kasa (operators/operatorService.ts): read from here on every operator request, never from a token. */
  operator?: boolean;
  /**
   * Set while an operator has the account suspended (operators/suspensions.ts): its sign-ins and API keys are refused
   * here and the gateways refuse its tokens. With who did it and why, for the console.
   */
  suspendedAt?: Date | null;
  suspensionReason?: string | null;
  suspendedBy?: string | null;
  /** `auth.user.suspended` and `auth.user.restored`, stored by the write that suspends or restores (the kit's outbox). */
  suspendedEvent?: OutboxEntry<'auth.user.suspended'>;
  restoredEvent?: OutboxEntry<'auth.user.restored'>;
  /** The last successful sign-in (one write per sign-in, after its answer). */
  lastSignInAt?: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

const userSchema = new Schema<UserDocument>(
  {
    username: { type: String, required: true },
    usernameKey: { type: String, required: true, unique: true },
    email: { type: String, required: true, unique: true },
    passwordHash: { type: String, default: null },
    subscriptionTier: { type: String, enum: ['free', 'pro', 'enterprise'], default: 'free' },
    registeredEvent: Schema.Types.Mixed,
    teamId: { type: String, default: null, index: true },
    registrationNoticeAt: { type: Date, default: null },
    operator: { type: Boolean, index: true },
    suspendedAt: { type: Date, default: null, index: true },
    suspensionReason: { type: String, default: null },
    suspendedBy: { type: String, default: null },
    suspendedEvent: Schema.Types.Mixed,
    restoredEvent: Schema.Types.Mixed,
    lastSignInAt: { type: Date, default: null },
  },
  { timestamps: true, versionKey: false, collection: 'users' },
);
// The outbox's republisher looks for registrations not yet published.
userSchema.index({ 'registeredEvent.state': 1 });
userSchema.index({ 'suspendedEvent.state': 1 });
userSchema.index({ 'restoredEvent.state': 1 });

export function userModel(connection: Connection): Model<UserDocument> {
  return connection.models.User ?? connection.model<UserDocument>('User', userSchema);
}

/** The public view of a user: never the hash or internal markers. */
export function toPublicUser(
  doc: Pick<UserDocument, '_id' | 'username' | 'email' | 'subscriptionTier' | 'createdAt'>,
): User {
  return {
    id: doc._id.toString(),
    username: doc.username,
    email: doc.email,
    subscriptionTier: doc.subscriptionTier,
    createdAt: doc.createdAt.toISOString(),
  };
}
