import type { AddOnId, Payment, PaymentStatus, PlanCurrency, PlanId, SubscriptionTier } from '@kasa/contracts';
import { Schema, type Connection, type Model, type Types } from 'mongoose';
import { addOnById, planById } from './plans';

/** One checkout of a paid plan or an add-on: what was bought, by whom, through which provider, and how it went. */
export interface PaymentDocument {
  _id: Types.ObjectId;
  reference: string;
  userId: string;
  /** The plan bought; for an add-on, the plan the person had when buying it. */
  planId: PlanId;
  /** The add-on bought (one pack), or null for a plan. */
  addOnId: AddOnId | null;
  /** For an extra-calls pack: the calls it adds. */
  calls: number | null;
  /** For an extra-calls pack: the month (UTC, `2026-12`) its calls were added to, set when it completed. */
  quotaMonth: string | null;
  /** Id of the auth.user.calls_added event; set until the broker confirms it, then cleared (outbox marker). */
  pendingCallsAddedEventId: string | null;
  /** In `currency`'s major unit: what the checkout asks the processor for (PLANS[plan].prices). */
  amount: number;
  currency: PlanCurrency;
  provider: string;
  /** The processor's handle of the checkout: Stripe's Checkout Session id, Paystack's access code. */
  providerReference: string | null;
  /** Where the person finishes a pending payment (the processor's page); null once settled or when none. */
  redirectUrl: string | null;
  status: PaymentStatus;
  /** The tier the person had when the payment completed (the `from` of auth.user.plan_changed). */
  previousTier: SubscriptionTier | null;
  completedAt: Date | null;
  /** Id of the auth.user.plan_changed event; set until the broker confirms it, then cleared (outbox marker). */
  pendingPlanChangedEventId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const paymentSchema = new Schema<PaymentDocument>(
  {
    reference: { type: String, required: true, unique: true },
    userId: { type: String, required: true, index: true },
    planId: { type: String, enum: ['free', 'pro', 'enterprise'], required: true },
    addOnId: { type: String, default: null },
    calls: { type: Number, default: null },
    quotaMonth: { type: String, default: null },
    pendingCallsAddedEventId: { type: String, default: null, index: true },
    amount: { type: Number, required: true },
    currency: { type: String, enum: ['USD', 'GHS', 'NGN', 'KES'], required: true },
    provider: { type: String, required: true },
    providerReference: { type: String, default: null },
    redirectUrl: { type: String, default: null },
    status: { type: String, enum: ['pending', 'completed', 'failed'], required: true },
    previousTier: { type: String, enum: ['free', 'pro', 'enterprise', null], default: null },
    completedAt: { type: Date, default: null },
    pendingPlanChangedEventId: { type: String, default: null, index: true },
  },
  { timestamps: true, versionKey: false, collection: 'payments' },
);
// The reconciliation sync asks the processors about pending checkouts, least recently changed first.
paymentSchema.index({ status: 1, updatedAt: 1 });
// A person's billing history, newest first, a page at a time.
paymentSchema.index({ userId: 1, status: 1, _id: -1 });

export function paymentModel(connection: Connection): Model<PaymentDocument> {
  return connection.models.Payment ?? connection.model<PaymentDocument>('Payment', paymentSchema);
}

/** What a payment bought, in words (the history, the receipt, the processor's page). */
export function describePurchase(doc: Pick<PaymentDocument, 'planId' | 'addOnId' | 'calls'>): string {
  if (doc.addOnId) {
    const addOn = addOnById(doc.addOnId);
    return doc.calls ? `${addOn.name}: ${doc.calls.toLocaleString('en-US')} calls` : addOn.name;
  }
  const plan = planById(doc.planId);
  return `Kasa ${plan.name} plan, 1 ${plan.period}`;
}

/** The owner's view of a payment. */
export function toPublicPayment(doc: PaymentDocument): Payment {
  return {
    reference: doc.reference,
    planId: doc.planId,
    planName: planById(doc.planId).name,
    addOnId: doc.addOnId ?? null,
    calls: doc.calls ?? null,
    description: describePurchase(doc),
    status: doc.status,
    amount: doc.amount,
    currency: doc.currency,
    provider: doc.provider,
    createdAt: doc.createdAt.toISOString(),
    completedAt: doc.completedAt?.toISOString() ?? null,
  };
}
