import type { SubscriptionStatus } from '@kasa/contracts';

// What a payment processor told Kasa (in a signed webhook, or answering a question of ours), in Kasa's terms. Each
// processor's module turns its own objects into these; the subscription ledger applies them the same way for all.

/** The money of one of Kasa's checkouts arrived. */
export interface PaymentSucceeded {
  kind: 'payment_succeeded';
  /** Kasa's payment reference, as the processor returned it. */
  reference: string;
  /**
   * What was paid, in the currency's minor unit (cents, pesewas, kobo) and its ISO code as the processor reports
   * them; it must match what the checkout asked for, or nothing changes. Null when the processor does not say.
   */
  paid: { amountMinor: number; currency: string } | null;
  /** The person at the processor (`cus_…`, `CUS_…`), when known. */
  customerId: string | null;
  /** The subscription the payment started (`sub_…`, `SUB_…`), when known. */
  subscriptionId: string | null;
  /** The end of the period paid for, when known. */
  periodEnd: Date | null;
  /** Whether the processor renews it every month (a Paystack payment without a plan buys one month). */
  renews: boolean;
  /** When it happened, by the processor's clock. */
  at: Date;
}

/** One of Kasa's checkouts ended without money (expired, failed, abandoned). */
export interface PaymentEnded {
  kind: 'payment_ended';
  reference: string;
  why: string;
  at: Date;
}

/**
 * What a processor says about a subscription: a whole snapshot (Stripe's subscription object, a sync's answer) or
 * one change (an invoice paid, a renewal failed, a cancellation). Fields left out are not known from this fact.
 */
export interface SubscriptionChanged {
  kind: 'subscription';
  /** The processor's subscription id; with `customerId` and `reference`, how the ledger finds whose it is. */
  subscriptionId: string | null;
  customerId: string | null;
  /** Kasa's payment reference that started it, when the processor carries it (Stripe's metadata). */
  reference: string | null;
  /** Paystack's email token, which its API needs to cancel or resume the subscription. */
  subscriptionToken?: string | null;
  status?: SubscriptionStatus;
  /** The end of the period paid for. It only ever moves later. */
  periodEnd?: Date | null;
  cancelAtPeriodEnd?: boolean;
  /** For `canceled`: when it ended or ends. Absent: at the end of the period paid for. */
  endedAt?: Date | null;
  /** When the processor was in this state, by its clock; an older fact never overrides a newer one. */
  at: Date;
}

export type BillingFact = PaymentSucceeded | PaymentEnded | SubscriptionChanged;

/** A webhook whose signature was verified: its id (idempotency key) and type. */
export interface VerifiedWebhook {
  /** Unique per event, prefixed by the processor (`stripe:evt_…`, `paystack:<sha256 of the body>`). */
  id: string;
  type: string;
}

/** A webhook whose signature or age does not check out: 400, and nothing is stored or changed. */
export class WebhookSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookSignatureError';
  }
}

/** One calendar month after `from` (the 31st of January gives the last day of February), as processors bill. */
export function addMonth(from: Date): Date {
  const next = new Date(from.getTime());
  const day = next.getUTCDate();
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + 1);
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(day, lastDay));
  return next;
}

/** A price in a currency's minor unit: every currency Kasa charges in has 100 of them. */
export const toMinorUnits = (amount: number): number => Math.round(amount * 100);
