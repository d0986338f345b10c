import { saleOf, type SubscriptionStatus } from '@kasa/contracts';
import type { IncomingHttpHeaders } from 'node:http';
import Stripe from 'stripe';
import { z } from 'zod';
import {
  toMinorUnits,
  WebhookSignatureError,
  type BillingFact,
  type PaymentSucceeded,
  type SubscriptionChanged,
  type VerifiedWebhook,
} from './billingFacts';
import type {
  CheckoutRequestToProvider,
  PaymentProvider,
  ProviderCheckout,
  ProviderPayment,
  ProviderSubscription,
} from './paymentProvider';

export interface StripeSettings {
  secretKey: string;
  /** The webhook endpoint's signing secret (`whsec_…`). */
  webhookSecret: string;
  /** Pro's monthly Price (`price_…`). */
  pricePro: string;
  /** Another address for the API (stripe-mock in tests). */
  apiBase?: string;
  /** How old a signed event may be, in seconds. */
  toleranceSeconds: number;
}

// The parts of Stripe's objects that Kasa reads (API version of the SDK, 2026-08-26.dahlia), validated on arrival:
// a webhook is only signed, not necessarily of the shape we expect.
const IdOf = z
  .union([z.string(), z.object({ id: z.string() })])
  .transform((value) => (typeof value === 'string' ? value : value.id));
const Metadata = z.record(z.string(), z.string()).nullish();

const CheckoutSession = z.object({
  id: z.string(),
  mode: z.string(),
  status: z.string().nullable(),
  payment_status: z.string(),
  client_reference_id: z.string().nullable(),
  amount_total: z.number().nullable(),
  currency: z.string().nullable(),
  customer: IdOf.nullable(),
  subscription: IdOf.nullable(),
  metadata: Metadata,
});
type CheckoutSession = z.infer<typeof CheckoutSession>;

const SubscriptionObject = z.object({
  id: z.string(),
  status: z.string(),
  customer: IdOf,
  cancel_at_period_end: z.boolean(),
  ended_at: z.number().nullable(),
  metadata: Metadata,
  items: z.object({ data: z.array(z.object({ current_period_end: z.number() })) }),
});
type SubscriptionObject = z.infer<typeof SubscriptionObject>;

const InvoiceObject = z.object({
  id: z.string(),
  customer: IdOf.nullable(),
  parent: z
    .object({
      subscription_details: z.object({ subscription: IdOf, metadata: Metadata }).nullable(),
    })
    .nullable(),
  lines: z.object({ data: z.array(z.object({ period: z.object({ end: z.number() }) })) }),
});

const EventEnvelope = z.object({
  id: z.string(),
  type: z.string(),
  created: z.number(),
  data: z.object({ object: z.unknown() }),
});

const fromUnix = (seconds: number) => new Date(seconds * 1000);

/** How long a Checkout Session may be paid: Stripe allows 30 minutes to 24 hours. */
const CHECKOUT_SESSION_LIFETIME_SECONDS = 31 * 60;

/** Stripe's subscription statuses in Kasa's terms; undefined for the ones that change nothing (incomplete, paused). */
function statusOf(stripeStatus: string): SubscriptionStatus | undefined {
  if (stripeStatus === 'active' || stripeStatus === 'trialing') return 'active';
  if (stripeStatus === 'past_due' || stripeStatus === 'unpaid') return 'past_due';
  if (stripeStatus === 'canceled' || stripeStatus === 'incomplete_expired') return 'canceled';
  return undefined;
}

function subscriptionFact(sub: SubscriptionObject, at: Date): SubscriptionChanged {
  const ends = sub.items.data.map((item) => item.current_period_end);
  return {
    kind: 'subscription',
    subscriptionId: sub.id,
    customerId: sub.customer,
    reference: sub.metadata?.reference ?? null,
    status: statusOf(sub.status),
    periodEnd: ends.length > 0 ? fromUnix(Math.max(...ends)) : undefined,
    cancelAtPeriodEnd: sub.cancel_at_period_end,
    ...(sub.ended_at !== null ? { endedAt: fromUnix(sub.ended_at) } : {}),
    at,
  };
}

function paidSessionFact(session: CheckoutSession, at: Date): PaymentSucceeded | null {
  const reference = session.client_reference_id ?? session.metadata?.reference ?? null;
  // A plan is a subscription; an add-on pack a one-off payment.
  if (!reference || (session.mode !== 'subscription' && session.mode !== 'payment')) return null;
  if (session.payment_status !== 'paid' && session.payment_status !== 'no_payment_required') return null;
  return {
    kind: 'payment_succeeded',
    reference,
    paid:
      session.amount_total !== null && session.currency
        ? { amountMinor: session.amount_total, currency: session.currency.toUpperCase() }
        : null,
    customerId: session.customer,
    subscriptionId: session.subscription,
    periodEnd: null,
    renews: session.mode === 'subscription',
    at,
  };
}

/**
 * Stripe through its official SDK: a Checkout Session in subscription mode with Pro's Price, the Customer Portal for
 * card changes and cancellation, signed webhooks (`Stripe-Signature`, checked by the SDK with a tolerance), and the
 * subscription's state for the reconciliation sync. Every call that changes something at Stripe carries an
 * idempotency key made from the payment reference, so a retry never makes a second session or change.
 */
export class StripeProvider implements PaymentProvider {
  readonly name = 'stripe';
  readonly currencies = ['USD'] as const;
  private readonly stripe: Stripe;

  constructor(private readonly settings: StripeSettings) {
    const base = settings.apiBase ? new URL(settings.apiBase) : undefined;
    this.stripe = new Stripe(settings.secretKey, {
      ...(base
        ? {
            host: base.hostname,
            port: base.port || (base.protocol === 'https:' ? 443 : 80),
            protocol: base.protocol === 'https:' ? 'https' : 'http',
          }
        : {}),
      maxNetworkRetries: 2,
      timeout: 20_000,
      telemetry: false,
      appInfo: { name: 'Kasa' },
    });
  }

  async createCheckout(request: CheckoutRequestToProvider): Promise<ProviderCheckout> {
    if (request.addOnId) return this.createOneOffCheckout(request);
    if (saleOf(request.planId) !== 'checkout')
      throw new Error(`Stripe sells the plans sold by checkout only (asked for ${request.planId})`);
    const metadata = { reference: request.reference, userId: request.userId, planId: request.planId };
    const session = await this.stripe.checkout.sessions.create(
      {
        mode: 'subscription',
        line_items: [{ price: this.settings.pricePro, quantity: 1 }],
        client_reference_id: request.reference,
        success_url: request.successUrl,
        cancel_url: request.cancelUrl,
        ...(request.customerId ? { customer: request.customerId } : { customer_email: request.email }),
        metadata,
        subscription_data: { metadata },
        // Stripe's shortest life for a session: it ends before the person's checkout claim does (35 minutes), so
        // a checkout started after that can never leave two sessions open to pay.
        expires_at: Math.floor(Date.now() / 1000) + CHECKOUT_SESSION_LIFETIME_SECONDS,
      },
      { idempotencyKey: request.reference },
    );
    if (!session.url) throw new Error('Stripe answered a checkout session without a page to pay on');
    return { status: 'pending', providerReference: session.id, redirectUrl: session.url };
  }

  /**
   * An add-on pack: a Checkout Session in `payment` mode (paid once, nothing renews) at the add-on's price from the
   * plans table, so no Price need be set up at Stripe for it.
   */
  private async createOneOffCheckout(request: CheckoutRequestToProvider): Promise<ProviderCheckout> {
    const metadata = {
      reference: request.reference,
      userId: request.userId,
      planId: request.planId,
      addOnId: request.addOnId ?? '',
    };
    const session = await this.stripe.checkout.sessions.create(
      {
        mode: 'payment',
        line_items: [
          {
            price_data: {
              currency: request.currency.toLowerCase(),
              unit_amount: toMinorUnits(request.amount),
              product_data: { name: request.description },
            },
            quantity: 1,
          },
        ],
        client_reference_id: request.reference,
        success_url: request.successUrl,
        cancel_url: request.cancelUrl,
        ...(request.customerId ? { customer: request.customerId } : { customer_email: request.email }),
        metadata,
        payment_intent_data: { metadata },
        expires_at: Math.floor(Date.now() / 1000) + CHECKOUT_SESSION_LIFETIME_SECONDS,
      },
      { idempotencyKey: request.reference },
    );
    if (!session.url) throw new Error('Stripe answered a checkout session without a page to pay on');
    return { status: 'pending', providerReference: session.id, redirectUrl: session.url };
  }

  async checkCheckout(payment: ProviderPayment): Promise<BillingFact | null> {
    if (!payment.providerReference) return null;
    const session = CheckoutSession.parse(await this.stripe.checkout.sessions.retrieve(payment.providerReference));
    const now = new Date();
    if (session.status === 'expired')
      return { kind: 'payment_ended', reference: payment.reference, why: 'expired', at: now };
    return paidSessionFact(session, now);
  }

  async fetchSubscription(subscription: ProviderSubscription): Promise<SubscriptionChanged | null> {
    if (!subscription.subscriptionId) return null;
    const sub = SubscriptionObject.parse(await this.stripe.subscriptions.retrieve(subscription.subscriptionId));
    return subscriptionFact(sub, new Date());
  }

  async portalUrl(subscription: ProviderSubscription, options: { returnUrl: string; idempotencyKey: string }) {
    if (!subscription.customerId) throw new Error('no Stripe customer to open the portal for');
    const session = await this.stripe.billingPortal.sessions.create(
      { customer: subscription.customerId, return_url: options.returnUrl },
      { idempotencyKey: options.idempotencyKey },
    );
    return session.url;
  }

  async setCancelAtPeriodEnd(subscription: ProviderSubscription, cancel: boolean, idempotencyKey: string) {
    if (!subscription.subscriptionId) throw new Error('no Stripe subscription to change');
    await this.stripe.subscriptions.update(
      subscription.subscriptionId,
      { cancel_at_period_end: cancel },
      { idempotencyKey },
    );
  }

  verifyWebhook(rawBody: Buffer, headers: IncomingHttpHeaders): VerifiedWebhook {
    const signature = headers['stripe-signature'];
    if (typeof signature !== 'string' || signature === '') throw new WebhookSignatureError('No Stripe-Signature');
    let event: { id: string; type: string };
    try {
      event = this.stripe.webhooks.constructEvent(
        rawBody,
        signature,
        this.settings.webhookSecret,
        this.settings.toleranceSeconds,
      );
    } catch (err) {
      throw new WebhookSignatureError(err instanceof Error ? err.message : 'Invalid Stripe-Signature');
    }
    return { id: `stripe:${event.id}`, type: event.type };
  }

  factsOfWebhook(body: string): BillingFact[] {
    const event = EventEnvelope.parse(JSON.parse(body));
    const at = fromUnix(event.created);
    const object = event.data.object;
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded': {
        const fact = paidSessionFact(CheckoutSession.parse(object), at);
        return fact ? [fact] : [];
      }
      case 'checkout.session.expired':
      case 'checkout.session.async_payment_failed': {
        const session = CheckoutSession.parse(object);
        const reference = session.client_reference_id ?? session.metadata?.reference;
        return reference ? [{ kind: 'payment_ended', reference, why: event.type, at }] : [];
      }
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted':
      case 'customer.subscription.paused':
      case 'customer.subscription.resumed': {
        const fact = subscriptionFact(SubscriptionObject.parse(object), at);
        // A deleted subscription has ended, whatever status it last had.
        return [event.type === 'customer.subscription.deleted' ? { ...fact, status: 'canceled' } : fact];
      }
      case 'invoice.paid':
      case 'invoice.payment_succeeded':
      case 'invoice.payment_failed': {
        const invoice = InvoiceObject.parse(object);
        const details = invoice.parent?.subscription_details;
        if (!details) return [];
        const ends = invoice.lines.data.map((line) => line.period.end);
        const failed = event.type === 'invoice.payment_failed';
        return [
          {
            kind: 'subscription',
            subscriptionId: details.subscription,
            customerId: invoice.customer,
            reference: details.metadata?.reference ?? null,
            status: failed ? 'past_due' : 'active',
            ...(!failed && ends.length > 0 ? { periodEnd: fromUnix(Math.max(...ends)) } : {}),
            at,
          },
        ];
      }
      default:
        return [];
    }
  }
}
