import type { BillingProcessor, PlanCurrency, PlanId, SubscriptionStatus, SubscriptionTier } from '@kasa/contracts';
import { Schema, type Connection, type Model } from 'mongoose';

/** An auth.user.plan_changed event waiting for the broker's confirm (outbox marker). */
export interface PendingPlanChange {
  eventId: string;
  from: SubscriptionTier;
  to: SubscriptionTier;
  reference: string | null;
  /** An operator's change: who (and from where) and why, carried into the event for the audit log. */
  actor?: { userId: string; clientIp?: string } | null;
  reason?: string | null;
}

/**
 * A person's subscription: one document per person (`_id` is their id), replaced when they subscribe again. Every
 * change is a compare-and-set on `version`, so concurrent webhooks, verify calls and syncs never lose one another's
 * writes (single-document atomic updates, as MongoDB and the embedded FerretDB both serve).
 */
export interface SubscriptionDocument {
  _id: string;
  processor: BillingProcessor;
  planId: PlanId;
  status: SubscriptionStatus;
  /** The payment that started it. */
  reference: string;
  amount: number;
  currency: PlanCurrency;
  /** The processor's customer (`cus_…`, `CUS_…`) and subscription (`sub_…`, `SUB_…`) ids, once known. */
  customerId: string | null;
  subscriptionId: string | null;
  /** Paystack's email token of the subscription (its API needs it to cancel or resume). */
  subscriptionToken: string | null;
  /** False for a month bought from Paystack without a plan: nothing will renew it. */
  renews: boolean;
  /** The end of the period paid for; only ever moves later. */
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  /** While past_due: the plan is kept until then. */
  graceUntil: Date | null;
  /** While canceled: the plan is kept until then (the end of the period paid for, or the processor's end). */
  endedAt: Date | null;
  /** The processor's time of the newest state applied: an older fact changes no status. */
  stateAt: Date;
  /** When the reconciliation sync last asked the processor. */
  syncedAt: Date | null;
  /** The tier billing last gave the account because of this subscription. */
  appliedTier: SubscriptionTier;
  /** Plan changes announced but not yet confirmed by the broker; re-sent with the same ids. */
  pendingPlanChanges: PendingPlanChange[];
  /** An Enterprise contract's seats (processor `contract`); null for the processors' subscriptions. */
  seats?: number | null;
  /** Incremented by every write (compare-and-set). */
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

const pendingPlanChangeSchema = new Schema<PendingPlanChange>(
  {
    eventId: { type: String, required: true },
    from: { type: String, required: true },
    to: { type: String, required: true },
    reference: { type: String, default: null },
    actor: { type: Schema.Types.Mixed, default: null },
    reason: { type: String, default: null },
  },
  { _id: false },
);

const subscriptionSchema = new Schema<SubscriptionDocument>(
  {
    _id: { type: String, required: true },
    processor: { type: String, enum: ['stripe', 'paystack', 'builtin', 'contract'], required: true },
    planId: { type: String, enum: ['free', 'pro', 'enterprise'], required: true },
    status: { type: String, enum: ['active', 'past_due', 'canceled'], required: true },
    reference: { type: String, required: true },
    amount: { type: Number, required: true },
    currency: { type: String, enum: ['USD', 'GHS', 'NGN', 'KES'], required: true },
    customerId: { type: String, default: null },
    subscriptionId: { type: String, default: null },
    subscriptionToken: { type: String, default: null },
    renews: { type: Boolean, required: true },
    currentPeriodEnd: { type: Date, default: null },
    cancelAtPeriodEnd: { type: Boolean, default: false },
    graceUntil: { type: Date, default: null },
    endedAt: { type: Date, default: null },
    stateAt: { type: Date, required: true },
    syncedAt: { type: Date, default: null },
    appliedTier: { type: String, enum: ['free', 'pro', 'enterprise'], required: true },
    pendingPlanChanges: { type: [pendingPlanChangeSchema], default: [] },
    seats: { type: Number, default: null },
    version: { type: Number, required: true },
  },
  { timestamps: true, versionKey: false, collection: 'subscriptions' },
);
// The webhooks find a subscription by the processor's ids; the sync walks the least recently asked ones.
subscriptionSchema.index({ processor: 1, subscriptionId: 1 });
subscriptionSchema.index({ processor: 1, customerId: 1 });
subscriptionSchema.index({ status: 1, syncedAt: 1 });

export function subscriptionModel(connection: Connection): Model<SubscriptionDocument> {
  return connection.models.Subscription ?? connection.model<SubscriptionDocument>('Subscription', subscriptionSchema);
}
