import type { AddOnId, PlanCurrency, PlanId } from '@kasa/contracts';
import type { IncomingHttpHeaders } from 'node:http';
import type { BillingFact, SubscriptionChanged, VerifiedWebhook } from './billingFacts';

export interface CheckoutRequestToProvider {
  /** Kasa's transaction reference; the provider keeps it with the payment (and uses it as the idempotency key). */
  reference: string;
  userId: string;
  /** The account's email address (Paystack's customer; Stripe's when the person is new to it). */
  email: string;
  /** The plan bought; for an add-on, the plan the person has. */
  planId: PlanId;
  /** A one-off add-on pack (paid once, never renewed), or null for a plan. */
  addOnId: AddOnId | null;
  /** In `currency`'s major unit. */
  amount: number;
  currency: PlanCurrency;
  description: string;
  /** Absolute URLs the processor's page sends the person back to. */
  successUrl: string;
  cancelUrl: string;
  /** The person's customer id at this processor from an earlier subscription, so it is reused. */
  customerId: string | null;
}

/**
 * What the provider did with a checkout: `completed` when the payment went through at once; `pending` when the
 * person must finish it on the provider's own page (`redirectUrl`), after which the provider reports back.
 */
export type ProviderCheckout =
  | { status: 'completed'; providerReference: string }
  | { status: 'pending'; providerReference: string; redirectUrl: string };

/** A subscription as the processor knows it: the ids Kasa keeps for asking about it and acting on it. */
export interface ProviderSubscription {
  subscriptionId: string | null;
  customerId: string | null;
  /** Paystack's email token of the subscription. */
  subscriptionToken: string | null;
  /** Kasa's payment reference that started it. */
  reference: string;
}

/** A pending payment, as the provider needs it to ask the processor how it went. */
export interface ProviderPayment {
  reference: string;
  providerReference: string | null;
}

/**
 * The boundary between Kasa's billing and whoever takes the money. Only `createCheckout` is required: the optional
 * capabilities are what a real processor adds (webhooks, questions for the reconciliation sync, its card and
 * cancellation pages).
 */
export interface PaymentProvider {
  /** Stored with each payment and subscription: `builtin`, `stripe`, `paystack`. */
  readonly name: string;
  /** Takes no real money (the built-in provider): the web app shows a test-mode banner. */
  readonly testMode?: boolean;
  /** Set when no checkout can be taken at all: the checkout answers 503 with this and grants nothing. */
  readonly unavailable?: string;
  /** The currencies it sells in, the first by default; USD when absent. */
  readonly currencies?: readonly PlanCurrency[];
  createCheckout(request: CheckoutRequestToProvider): Promise<ProviderCheckout>;
  /** Asks the processor how a pending checkout went; null while nothing is settled. */
  checkCheckout?(payment: ProviderPayment): Promise<BillingFact | null>;
  /** Asks the processor for a subscription's current state (the reconciliation sync); null when it cannot say. */
  fetchSubscription?(subscription: ProviderSubscription): Promise<SubscriptionChanged | null>;
  /** A page of the processor where the person changes their card or cancels. */
  portalUrl?(
    subscription: ProviderSubscription,
    options: { returnUrl: string; idempotencyKey: string },
  ): Promise<string>;
  /** Cancels at the end of the period (true) or resumes (false) at the processor. */
  setCancelAtPeriodEnd?(subscription: ProviderSubscription, cancel: boolean, idempotencyKey: string): Promise<void>;
  /** Checks a webhook's signature over its raw body (throws `WebhookSignatureError`); nothing is read before. */
  verifyWebhook?(rawBody: Buffer, headers: IncomingHttpHeaders): VerifiedWebhook;
  /** The facts of a webhook body whose signature was verified when it arrived. */
  factsOfWebhook?(body: string, receivedAt: Date): BillingFact[];
}

/**
 * The provider Kasa runs with when no payment processor is configured: every checkout completes at once, locally,
 * with no card and no network. It stands in for a real processor on development machines and in tests; its
 * subscriptions renew by themselves every month until cancelled (see SubscriptionLedger).
 */
export class BuiltInPaymentProvider implements PaymentProvider {
  readonly name = 'builtin';
  readonly testMode = true;
  readonly currencies = ['USD', 'GHS', 'NGN', 'KES'] as const;

  async createCheckout(request: CheckoutRequestToProvider): Promise<ProviderCheckout> {
    return { status: 'completed', providerReference: `builtin_${request.reference}` };
  }
}

/** Production with no processor configured: nothing is sold, rather than plans given away. */
export class UnconfiguredPaymentProvider implements PaymentProvider {
  readonly name = 'none';
  readonly unavailable =
    'Payments are not configured on this server, so plans cannot be bought yet. Please try again later.';

  createCheckout(): Promise<ProviderCheckout> {
    return Promise.reject(new Error(this.unavailable));
  }
}

/**
 * The provider without a processor that the configuration chooses: `KASA_PAYMENTS=builtin` (development, tests and
 * the local platform of `npm start`), or by default the built-in one outside production and none in production.
 * Stripe and Paystack are built by `paymentProvidersFor` in paymentProviders.ts.
 */
export function paymentProviderFor(settings: {
  NODE_ENV: 'development' | 'production' | 'test';
  KASA_PAYMENTS?: readonly string[] | 'builtin' | 'none';
}): PaymentProvider {
  const listed = typeof settings.KASA_PAYMENTS === 'string' ? [settings.KASA_PAYMENTS] : settings.KASA_PAYMENTS;
  const choice = listed?.[0] ?? (settings.NODE_ENV === 'production' ? 'none' : 'builtin');
  return choice === 'builtin' ? new BuiltInPaymentProvider() : new UnconfiguredPaymentProvider();
}

/** The currencies a provider sells in (USD when it does not say). */
export const currenciesOf = (provider: PaymentProvider): readonly PlanCurrency[] => provider.currencies ?? ['USD'];
