import { PAYMENT_REFERENCE_PATTERN, saleOf, type PlanCurrency, type SubscriptionStatus } from '@kasa/contracts';
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { z } from 'zod';
import {
  addMonth,
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
import { PaystackClient, PaystackSubscription, PaystackTransaction } from './paystackClient';

export interface PaystackSettings {
  secretKey: string;
  baseUrl: string;
  /** The currency the Paystack account charges in. */
  currency: Extract<PlanCurrency, 'GHS' | 'NGN' | 'KES'>;
  /** Pro's monthly plan (`PLN_…`); without it a payment buys one month that does not renew. */
  planPro?: string;
}

const WebhookEnvelope = z.object({ event: z.string(), data: z.record(z.string(), z.unknown()) });

const Invoice = z.object({
  paid: z.boolean().nullish(),
  status: z.string().nullish(),
  paid_at: z.string().nullish(),
  period_end: z.string().nullish(),
  updated_at: z.string().nullish(),
  updatedAt: z.string().nullish(),
  subscription: z.object({
    subscription_code: z.string(),
    email_token: z.string().nullish(),
    next_payment_date: z.string().nullish(),
  }),
  customer: z.object({ customer_code: z.string() }).nullish(),
});

const dateOf = (value: string | null | undefined): Date | null => {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
};

/** Paystack's subscription statuses in Kasa's terms. */
function stateOf(status: string): { status?: SubscriptionStatus; cancelAtPeriodEnd?: boolean } {
  switch (status) {
    case 'active':
      return { status: 'active', cancelAtPeriodEnd: false };
    case 'non-renewing':
      return { status: 'active', cancelAtPeriodEnd: true };
    case 'attention':
      return { status: 'past_due' };
    case 'completed':
    case 'cancelled':
      return { status: 'canceled' };
    default:
      return {};
  }
}

function subscriptionFact(sub: PaystackSubscription, at: Date): SubscriptionChanged {
  return {
    kind: 'subscription',
    subscriptionId: sub.subscription_code,
    customerId: sub.customer ?? null,
    reference: null,
    subscriptionToken: sub.email_token ?? null,
    ...stateOf(sub.status),
    ...(dateOf(sub.next_payment_date) ? { periodEnd: dateOf(sub.next_payment_date) } : {}),
    at,
  };
}

/**
 * Paystack (cedis, naira, shillings; cards and mobile money) over its REST API: a transaction initialized with Kasa's
 * reference (and Pro's plan when configured, so Paystack renews it by card), verified with Paystack before anything
 * changes, webhooks signed with HMAC-SHA512 of the raw body under the secret key, and its subscriptions' state for the
 * reconciliation sync. Paystack's webhooks carry no event id: the id is the SHA-256 of the signed body, which
 * Paystack sends unchanged on every retry.
 */
export class PaystackProvider implements PaymentProvider {
  readonly name = 'paystack';
  readonly currencies: readonly PlanCurrency[];
  private readonly client: PaystackClient;

  constructor(private readonly settings: PaystackSettings) {
    this.currencies = [settings.currency];
    this.client = new PaystackClient({ secretKey: settings.secretKey, baseUrl: settings.baseUrl });
  }

  async createCheckout(request: CheckoutRequestToProvider): Promise<ProviderCheckout> {
    // Only a plan renews (by card, on Pro's Paystack plan, the one plan sold by checkout); an add-on is paid once.
    const renewing = !request.addOnId && saleOf(request.planId) === 'checkout' && this.settings.planPro;
    const initialized = await this.client.initializeTransaction({
      email: request.email,
      amount: toMinorUnits(request.amount),
      currency: request.currency,
      reference: request.reference,
      callback_url: request.successUrl,
      // A plan renews by card only; a month bought without one may be paid with mobile money too.
      ...(renewing ? { plan: this.settings.planPro, channels: ['card'] } : {}),
      metadata: {
        reference: request.reference,
        userId: request.userId,
        planId: request.planId,
        ...(request.addOnId ? { addOnId: request.addOnId } : {}),
        cancel_action: request.cancelUrl,
      },
    });
    if (initialized.reference !== request.reference)
      throw new Error(`Paystack initialized ${initialized.reference} instead of ${request.reference}`);
    return {
      status: 'pending',
      providerReference: initialized.access_code,
      redirectUrl: initialized.authorization_url,
    };
  }

  async checkCheckout(payment: ProviderPayment): Promise<BillingFact | null> {
    const transaction = await this.client.verifyTransaction(payment.reference);
    if (!transaction || transaction.reference !== payment.reference) return null;
    return this.transactionFact(transaction);
  }

  async fetchSubscription(subscription: ProviderSubscription): Promise<SubscriptionChanged | null> {
    const now = new Date();
    if (subscription.subscriptionId)
      return subscriptionFact(await this.client.fetchSubscription(subscription.subscriptionId), now);
    // Its subscription.create never arrived: the customer's subscriptions on Pro's plan say which it is.
    if (!subscription.customerId || !this.settings.planPro) return null;
    const customer = await this.client.fetchCustomer(subscription.customerId);
    const onPro = customer.subscriptions.filter((sub) => sub.plan === this.settings.planPro);
    const current = onPro.find((sub) => sub.status !== 'completed' && sub.status !== 'cancelled') ?? onPro.at(-1);
    return current ? { ...subscriptionFact(current, now), customerId: customer.customer_code } : null;
  }

  async portalUrl(subscription: ProviderSubscription): Promise<string> {
    if (!subscription.subscriptionId) throw new Error('no Paystack subscription to manage');
    return this.client.manageLink(subscription.subscriptionId);
  }

  async setCancelAtPeriodEnd(subscription: ProviderSubscription, cancel: boolean): Promise<void> {
    if (!subscription.subscriptionId || !subscription.subscriptionToken)
      throw new Error('no Paystack subscription (code and email token) to change');
    if (cancel) await this.client.disableSubscription(subscription.subscriptionId, subscription.subscriptionToken);
    else await this.client.enableSubscription(subscription.subscriptionId, subscription.subscriptionToken);
  }

  verifyWebhook(rawBody: Buffer, headers: IncomingHttpHeaders): VerifiedWebhook {
    const signature = headers['x-paystack-signature'];
    if (typeof signature !== 'string' || !/^[0-9a-f]{128}$/i.test(signature))
      throw new WebhookSignatureError('No valid x-paystack-signature');
    const expected = createHmac('sha512', this.settings.secretKey).update(rawBody).digest();
    if (!timingSafeEqual(expected, Buffer.from(signature, 'hex')))
      throw new WebhookSignatureError('The x-paystack-signature does not match the body');
    let json: unknown;
    try {
      json = JSON.parse(rawBody.toString('utf8'));
    } catch {
      throw new WebhookSignatureError('A signed body that is not JSON');
    }
    const envelope = WebhookEnvelope.safeParse(json);
    if (!envelope.success) throw new WebhookSignatureError('A signed body that is not a Paystack event');
    return { id: `paystack:${createHash('sha256').update(rawBody).digest('hex')}`, type: envelope.data.event };
  }

  factsOfWebhook(body: string, receivedAt: Date): BillingFact[] {
    const { event, data } = WebhookEnvelope.parse(JSON.parse(body));
    switch (event) {
      case 'charge.success': {
        const transaction = PaystackTransaction.parse(data);
        // Renewals are charged under Paystack's own references; they reach Kasa as invoice.update.
        if (!PAYMENT_REFERENCE_PATTERN.test(transaction.reference)) return [];
        const fact = this.transactionFact(transaction);
        return fact ? [fact] : [];
      }
      case 'subscription.create':
      case 'subscription.not_renew':
      case 'subscription.disable': {
        const sub = PaystackSubscription.parse(data);
        const fact = subscriptionFact(sub, dateOf(sub.updatedAt) ?? dateOf(sub.createdAt) ?? receivedAt);
        if (event === 'subscription.not_renew') return [{ ...fact, status: 'active', cancelAtPeriodEnd: true }];
        if (event === 'subscription.disable') return [{ ...fact, status: 'canceled' }];
        return [fact];
      }
      case 'invoice.update':
      case 'invoice.payment_failed': {
        const invoice = Invoice.parse(data);
        const paid = invoice.paid === true || invoice.status === 'success';
        if (event === 'invoice.update' && !paid) return [];
        const periodEnd = dateOf(invoice.subscription.next_payment_date) ?? dateOf(invoice.period_end);
        return [
          {
            kind: 'subscription',
            subscriptionId: invoice.subscription.subscription_code,
            customerId: invoice.customer?.customer_code ?? null,
            reference: null,
            subscriptionToken: invoice.subscription.email_token ?? null,
            status: paid ? 'active' : 'past_due',
            ...(paid && periodEnd ? { periodEnd } : {}),
            at:
              (paid ? dateOf(invoice.paid_at) : null) ??
              dateOf(invoice.updated_at) ??
              dateOf(invoice.updatedAt) ??
              receivedAt,
          },
        ];
      }
      default:
        return [];
    }
  }

  /** A verified transaction's meaning: its money arrived (with what was paid, checked by the ledger), or not. */
  private transactionFact(transaction: PaystackTransaction): BillingFact | null {
    if (transaction.status === 'failed' || transaction.status === 'reversed')
      return { kind: 'payment_ended', reference: transaction.reference, why: transaction.status, at: new Date() };
    if (transaction.status !== 'success') return null;
    const paidAt = dateOf(transaction.paid_at) ?? new Date();
    const renews = Boolean(this.settings.planPro && transaction.plan === this.settings.planPro);
    const fact: PaymentSucceeded = {
      kind: 'payment_succeeded',
      reference: transaction.reference,
      paid: { amountMinor: transaction.amount, currency: transaction.currency.toUpperCase() },
      customerId: transaction.customer.customer_code,
      subscriptionId: null,
      periodEnd: addMonth(paidAt),
      renews,
      at: paidAt,
    };
    return fact;
  }
}
