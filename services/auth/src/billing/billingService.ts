import {
  ADD_ONS,
  canBuyAddOn,
  isUpgrade,
  PLANS,
  requiredPlan,
  saleOf,
  type AddOnId,
  type BillingHistoryEntry,
  type BillingHistoryQuery,
  type BillingHistoryResponse,
  type CheckoutResponse,
  type Payment,
  type PlanCurrency,
  type PlanId,
  type Subscription,
  type SubscriptionResponse,
  type User,
  type EnterpriseInquiryDetails,
  type EventActor,
  type SubscriptionTier,
} from '@kasa/contracts';
import {
  AuthenticationError,
  ConflictError,
  createMongoProcessedEventStore,
  InputError,
  NotFoundError,
  planName,
  PlanRequiredError,
  PUBLISH_WAIT_MS,
  ServiceUnavailableError,
  type EventBus,
  type Logger,
  type ProcessedEventStore,
  type PrunableProcessedEventStore,
} from '@kasa/service-kit';
import { Types, type Connection, type Model } from 'mongoose';
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { ZodError } from 'zod';
import type { SubscriptionNotices } from '../notices/billingNotices';
import type { UserService } from '../users/userService';
import { AddOnLedger } from './addOnLedger';
import { WebhookSignatureError, type BillingFact } from './billingFacts';
import { checkoutClaimModel, CheckoutClaims, type CheckoutClaimDocument } from './checkoutClaims';
import { enterpriseInquiryModel, type EnterpriseInquiryDocument } from './enterpriseInquiryModel';
import { currenciesOf, type PaymentProvider, type ProviderSubscription } from './paymentProvider';
import { describePurchase, paymentModel, toPublicPayment, type PaymentDocument } from './paymentModel';
import { addOnById, planById } from './plans';
import { receiptOf, renderReceiptHtml, renderReceiptPdf } from './receipts';
import { newPaymentReference } from './references';
import { SubscriptionLedger, type FactOutcome } from './subscriptionLedger';
import { subscriptionModel, type SubscriptionDocument } from './subscriptionModel';
import { applyChange, entitledTier } from './subscriptionState';
import { inboxEventModel, WebhookInbox, type InboxEventDocument } from './webhookInbox';

const DUPLICATE_KEY = 11000;
const DAY_MS = 24 * 3600_000;

export const ENTERPRISE_INQUIRY_MESSAGE = 'Our sales team will contact you shortly to discuss enterprise solutions.';
export const SUPPORT_EMAIL = 'support@kasa.example';
const PROVIDER_DOWN = 'The payment provider is unavailable. Please try again shortly.';

/** The answer of a checkout before the router adds a fresh token (when `user` is set, the tier changed). */
export type CheckoutResult = Exclude<CheckoutResponse, { outcome: 'checkout' }> | CheckoutOutcome;
type CheckoutOutcome = Omit<Extract<CheckoutResponse, { outcome: 'checkout' }>, 'token'>;

export interface BillingServiceDeps {
  payments: Model<PaymentDocument>;
  inquiries: Model<EnterpriseInquiryDocument>;
  claims: Model<CheckoutClaimDocument>;
  subscriptions: Model<SubscriptionDocument>;
  inbox: Model<InboxEventDocument>;
  /** Ids of the processors' events already applied (the kit's store, in auth's database). */
  processedEvents: ProcessedEventStore & { prune?(olderThan: Date): Promise<number> };
  users: Pick<UserService, 'findById' | 'changeTier'>;
  /** Who takes payments, in order of preference (a checkout goes to the first that sells in its currency). */
  providers: readonly PaymentProvider[];
  bus: Pick<EventBus, 'publishWithin'>;
  logger: Logger;
  /** Where people reach Kasa: the processors' pages send them back to its pages. */
  publicUrl: string;
  /** How long a plan is kept after a renewal fails. */
  graceMs: number;
  now?: () => Date;
  /** E-mails the owner when a renewal fails and when the grace runs out (none when absent). */
  notices?: SubscriptionNotices;
}

/**
 * How long a person's pending checkout is answered again instead of a new one (a processor's page stays open):
 * longer than a Stripe Checkout Session lives (31 minutes, see stripeProvider.ts).
 */
const CHECKOUT_CLAIM_TTL_MS = 35 * 60_000;
/** How long a checkout sent at the same time as another waits for the other's payment to be recorded. */
const CONCURRENT_CHECKOUT_WAIT_MS = 10_000;
/** A checkout not paid within this is given up (the processors' pages expire sooner: Stripe's after 24 hours). */
const PENDING_CHECKOUT_MAX_AGE_MS = 2 * DAY_MS;
/** The sync asks about a pending checkout once it is this old (the person is usually still on the page before). */
const PENDING_CHECKOUT_SYNC_AFTER_MS = 60_000;
/** The sync asks the processor about each live subscription at most this often. */
const SUBSCRIPTION_SYNC_EVERY_MS = 3600_000;
/** Ids of applied webhooks are kept this long (beyond any processor's retries: Paystack's 72 hours, Stripe's 3 days). */
const PROCESSED_EVENTS_KEPT_MS = 30 * DAY_MS;

export function successUrl(reference: string): string {
  return `/billing/success?reference=${encodeURIComponent(reference)}`;
}

/**
 * Plan changes: checkouts through the payment providers (verified with the processor before anything changes), the
 * processors' signed webhooks (kept in an inbox, applied after the answer), subscriptions (cancel, resume, the
 * processor's card and cancellation page), the reconciliation sync, Enterprise inquiries and the payments' history.
 */
export class BillingService {
  private readonly now: () => Date;
  private readonly claims: CheckoutClaims;
  private readonly ledger: SubscriptionLedger;
  private readonly addOns: AddOnLedger;
  private readonly inbox: WebhookInbox;
  private readonly publicUrl: string;

  constructor(private readonly deps: BillingServiceDeps) {
    this.now = deps.now ?? (() => new Date());
    this.claims = new CheckoutClaims(deps.claims, CHECKOUT_CLAIM_TTL_MS, this.now);
    this.publicUrl = deps.publicUrl.replace(/\/+$/, '');
    this.ledger = new SubscriptionLedger({
      subscriptions: deps.subscriptions,
      payments: deps.payments,
      claims: this.claims,
      users: deps.users,
      bus: deps.bus,
      logger: deps.logger,
      graceMs: deps.graceMs,
      now: this.now,
      ...(deps.notices ? { notices: deps.notices } : {}),
    });
    this.addOns = new AddOnLedger({
      payments: deps.payments,
      claims: this.claims,
      bus: deps.bus,
      logger: deps.logger,
      now: this.now,
    });
    this.inbox = new WebhookInbox(deps.inbox, deps.processedEvents, this.now);
  }

  /** Checkouts take no money here (the built-in provider): the web app shows a test-mode banner. */
  get testMode(): boolean {
    return this.deps.providers.some((provider) => provider.testMode);
  }

  async checkout(
    userId: string,
    planId: PlanId,
    requestId?: string,
    currency?: PlanCurrency,
    inquiry?: EnterpriseInquiryDetails,
  ): Promise<CheckoutResult> {
    const user = await this.deps.users.findById(userId).catch(() => {
      throw new AuthenticationError('This account no longer exists');
    });
    const current = user.subscriptionTier;
    const plan = planById(planId);
    if (planId === current && !(await this.canBuyAnotherMonth(userId, planId))) {
      return { outcome: 'already_on_plan', planId, message: `You are already on the ${plan.name} plan.` };
    }
    if (saleOf(planId) === 'none') {
      throw new ConflictError(
        `You are on the ${planById(current).name} plan. To move to the Free plan, cancel your subscription in your ` +
          `billing settings (or write to ${SUPPORT_EMAIL}); your plan stays active until the end of the period paid for.`,
        { currentTier: current },
      );
    }
    if (saleOf(planId) === 'sales') return this.recordEnterpriseInquiry(user, inquiry);
    if (inquiry) throw new InputError(`The ${plan.name} plan is bought by checkout; an inquiry is for Enterprise.`);
    if (planId !== current && !isUpgrade(current, planId)) {
      throw new ConflictError(`Your ${planById(current).name} plan already includes everything in ${plan.name}.`, {
        currentTier: current,
      });
    }
    const { provider, chosenCurrency } = this.providerFor(currency);
    return this.payFor(user, provider, (reference) =>
      this.startPayment(user, planId, provider, chosenCurrency, reference, requestId),
    );
  }

  /**
   * Buys one pack of an add-on (extra API calls) through the same checkout and providers as a plan, as a one-off
   * payment. Only a plan that the plans table lets buy it may (403 naming the plan, read from the database as the
   * checkout does). The calls are added once the payment is verified, never on the checkout's word alone.
   */
  async buyAddOn(userId: string, addOnId: AddOnId, requestId?: string, currency?: PlanCurrency) {
    const user = await this.deps.users.findById(userId).catch(() => {
      throw new AuthenticationError('This account no longer exists');
    });
    const rules = ADD_ONS[addOnId];
    if (!canBuyAddOn(user.subscriptionTier, addOnId)) {
      const needed = planName(requiredPlanOf(addOnId));
      throw new PlanRequiredError(
        rules.feature,
        `${addOnById(addOnId).name} packs are for the ${needed} plan; yours is ${planName(user.subscriptionTier)}. ` +
          (isUpgrade(user.subscriptionTier, requiredPlanOf(addOnId))
            ? `Upgrade to ${needed} to buy them.`
            : `Your plan has no monthly limit to raise.`),
        { addOnId, currentTier: user.subscriptionTier },
      );
    }
    const { provider, chosenCurrency } = this.providerFor(currency);
    return this.payFor(user, provider, (reference) =>
      this.startAddOnPayment(user, addOnId, provider, chosenCurrency, reference, requestId),
    );
  }

  /** A page of the person's completed payments (plans and add-ons), newest first. */
  async history(userId: string, query: BillingHistoryQuery): Promise<BillingHistoryResponse> {
    const filter: Record<string, unknown> = { userId, status: 'completed' };
    if (query.cursor) filter._id = { $lt: new Types.ObjectId(query.cursor) };
    const docs = await this.deps.payments
      .find(filter)
      .sort({ _id: -1 })
      .limit(query.limit + 1)
      .maxTimeMS(5_000)
      .lean();
    const page = docs.slice(0, query.limit);
    return {
      payments: page.map(historyEntryOf),
      nextCursor: docs.length > query.limit ? page.at(-1)!._id.toString() : null,
    };
  }

  /** The receipt of one of the person's completed payments, as a page; anyone else's is answered as unknown. */
  async receiptHtml(userId: string, reference: string): Promise<string> {
    return renderReceiptHtml(await this.receipt(userId, reference));
  }

  /** The same receipt as a PDF. */
  async receiptPdf(userId: string, reference: string): Promise<Buffer> {
    return renderReceiptPdf(await this.receipt(userId, reference));
  }

  private async receipt(userId: string, reference: string) {
    const doc = await this.deps.payments.findOne({ reference, userId, status: 'completed' }).lean();
    if (!doc) throw new NotFoundError('Receipt not found');
    const user = await this.deps.users.findById(userId);
    return receiptOf(doc, user.email);
  }

  /** One of the person's payments; somebody else's reference is answered exactly like an unknown one. */
  async getPayment(userId: string, reference: string): Promise<Payment> {
    const doc = await this.deps.payments.findOne({ reference, userId }).lean();
    if (!doc) throw new NotFoundError('Payment not found');
    return toPublicPayment(doc);
  }

  /**
   * The success page's question: asks the processor about a pending checkout of the caller's and applies what it
   * confirms (the amount and currency must be what was asked); answers the checkout as it stands, with the updated
   * account once paid. A payment the processor does not confirm changes nothing.
   */
  async verify(userId: string, reference: string, requestId?: string): Promise<CheckoutOutcome> {
    let payment = await this.deps.payments.findOne({ reference, userId }).lean();
    if (!payment) throw new NotFoundError('Payment not found');
    const provider = this.providerNamed(payment.provider);
    if (payment.status === 'pending' && provider?.checkCheckout) {
      let fact: BillingFact | null;
      try {
        fact = await provider.checkCheckout({ reference, providerReference: payment.providerReference });
      } catch (err) {
        this.deps.logger.error({ err, reference, provider: provider.name }, 'payment provider failed to verify');
        throw new ServiceUnavailableError(PROVIDER_DOWN);
      }
      if (fact && fact.kind !== 'subscription' && fact.reference === reference)
        await this.apply(fact, provider.name, requestId);
      payment = (await this.deps.payments.findOne({ reference, userId }).lean()) ?? payment;
    }
    const completed = payment.status === 'completed';
    return {
      outcome: 'checkout',
      planId: payment.planId,
      reference,
      status: payment.status,
      redirectUrl: completed || !payment.redirectUrl ? successUrl(reference) : payment.redirectUrl,
      payment: toPublicPayment(payment),
      // An add-on changes no plan: no fresh account (nor token) to give.
      ...(completed && !payment.addOnId ? { user: await this.deps.users.findById(userId) } : {}),
      message: completed
        ? paidMessage(payment)
        : payment.status === 'failed'
          ? 'This payment did not go through, and your plan has not changed.'
          : 'We are waiting for the payment provider to confirm your payment.',
    };
  }

  /** The caller's subscription, with what can be done with it. */
  async getSubscription(userId: string): Promise<SubscriptionResponse> {
    const doc = await this.ledger.get(userId);
    return { subscription: doc ? this.toPublicSubscription(doc) : null, testMode: this.testMode };
  }

  /** A page of the processor where the person changes their card or cancels (Kasa's settings in test mode). */
  async portal(userId: string, requestId?: string): Promise<{ url: string; processor: Subscription['processor'] }> {
    const doc = await this.requireSubscription(userId);
    const view = this.toPublicSubscription(doc);
    if (!view.canManage)
      throw new ConflictError('This plan has nothing to manage with the payment provider.', { status: doc.status });
    const returnUrl = `${this.publicUrl}/settings`;
    if (doc.processor === 'builtin') return { url: returnUrl, processor: 'builtin' };
    const provider = this.providerNamed(doc.processor);
    try {
      const url = await provider!.portalUrl!(providerSubscription(doc), {
        returnUrl,
        idempotencyKey: `${doc.reference}:portal:${requestId ?? randomUUID()}`,
      });
      return { url, processor: doc.processor };
    } catch (err) {
      this.deps.logger.error({ err, reference: doc.reference, provider: doc.processor }, 'billing portal failed');
      throw new ServiceUnavailableError(PROVIDER_DOWN);
    }
  }

  /**
   * Records an operator's Enterprise contract for the person (seats, end date; amount per month as agreed, for the
   * record): Enterprise at once, a fresh token on their next sign-in or refresh, Free again after the end date.
   */
  async grantContract(
    userId: string,
    terms: { seats: number; endsAt: Date; amount?: number; currency?: PlanCurrency },
    requestId?: string,
    actor?: EventActor,
  ): Promise<Subscription> {
    if (terms.endsAt <= this.now()) throw new InputError('The contract must end in the future.');
    const currency = terms.currency ?? 'USD';
    const doc = await this.ledger.grantContract({
      userId,
      seats: terms.seats,
      endsAt: terms.endsAt,
      reference: newPaymentReference(),
      amount: terms.amount ?? PLANS.enterprise.prices[currency],
      currency,
      requestId,
      actor,
    });
    return this.toPublicSubscription(doc);
  }

  /**
   * An operator's plan change with a reason, recorded on the subscription model (see SubscriptionLedger.setByOperator);
   * 409 when the person is on that plan already or pays for a plan that Stripe or Paystack renews.
   */
  async changePlanByOperator(
    userId: string,
    change: { tier: SubscriptionTier; reason: string },
    actor: EventActor,
    requestId?: string,
  ): Promise<{ from: SubscriptionTier; to: SubscriptionTier; subscription: Subscription | null }> {
    const user = await this.deps.users.findById(userId);
    if (user.subscriptionTier === change.tier) {
      throw new ConflictError(`This person is on the ${change.tier} plan already.`, { tier: change.tier });
    }
    const done = await this.ledger.setByOperator({
      userId,
      tier: change.tier,
      reference: newPaymentReference(),
      reason: change.reason,
      actor,
      requestId,
    });
    return {
      from: done.previous,
      to: change.tier,
      subscription: done.subscription ? this.toPublicSubscription(done.subscription) : null,
    };
  }

  /** Cancels at the end of the period paid for; the plan stays until then. */
  cancel(userId: string, requestId?: string): Promise<SubscriptionResponse> {
    return this.setCancelAtPeriodEnd(userId, true, requestId);
  }

  /** Undoes a cancellation before the period ends. */
  resume(userId: string, requestId?: string): Promise<SubscriptionResponse> {
    return this.setCancelAtPeriodEnd(userId, false, requestId);
  }

  /**
   * A processor's webhook: its signature is checked over the raw body (a forged one is a 400 and stores nothing),
   * then it is kept in the inbox and answered; `processWebhook` applies it after the answer. A repeated delivery is
   * answered the same and changes nothing more.
   */
  async receiveWebhook(
    processor: string,
    rawBody: Buffer,
    headers: IncomingHttpHeaders,
  ): Promise<{ id: string; outcome: 'queued' | 'duplicate' }> {
    const provider = this.providerNamed(processor);
    if (!provider?.verifyWebhook) throw new NotFoundError(`This server takes no ${processor} webhooks`);
    let verified: { id: string; type: string };
    try {
      verified = provider.verifyWebhook(rawBody, headers);
    } catch (err) {
      if (!(err instanceof WebhookSignatureError)) throw err;
      this.deps.logger.warn({ processor, reason: err.message }, 'webhook refused: its signature does not check out');
      throw new InputError('The webhook signature does not check out.');
    }
    const outcome = await this.inbox.receive({ ...verified, processor, body: rawBody.toString('utf8') });
    return { id: verified.id, outcome };
  }

  /** Applies one waiting webhook (after its answer went out); one that cannot be applied yet waits for a retry. */
  async processWebhook(id: string): Promise<void> {
    const event = await this.inbox.take(id);
    if (!event) return;
    const provider = this.providerNamed(event.processor);
    if (!provider?.factsOfWebhook) {
      await this.inbox.later(event, `no ${event.processor} provider configured`);
      return;
    }
    try {
      const outcomes: FactOutcome[] = [];
      for (const fact of provider.factsOfWebhook(event.body, event.receivedAt))
        outcomes.push(await this.apply(fact, provider.name));
      if (outcomes.includes('unmatched')) {
        const kept = await this.inbox.later(event, 'not linked to a subscription yet');
        if (!kept) this.deps.logger.warn({ eventId: event._id, type: event.type }, 'webhook dropped: never matched');
        return;
      }
      await this.inbox.done(event);
    } catch (err) {
      if (err instanceof ZodError || err instanceof SyntaxError) {
        // A signed event of a shape Kasa does not read: retrying would not change it.
        this.deps.logger.error({ err, eventId: event._id, type: event.type }, 'webhook of an unexpected shape');
        await this.inbox.done(event);
        return;
      }
      this.deps.logger.warn({ err, eventId: event._id, type: event.type }, 'webhook not applied yet; will retry');
      await this.inbox.later(event, err instanceof Error ? err.message : String(err));
    }
  }

  /** Applies the webhooks that are due (new ones whose first attempt failed, and retries). */
  async processWebhooks(limit = 50): Promise<number> {
    const due = await this.inbox.due(limit);
    for (const id of due) await this.processWebhook(id);
    return due.length;
  }

  /**
   * The reconciliation sync: asks the processors about pending checkouts and live subscriptions and applies what they
   * say (so a lost webhook cannot leave a paid person on Free, nor an unpaid one on a paid plan), moves plans whose
   * grace or period has run out, applies waiting webhooks and forgets old event ids.
   */
  async reconcile(
    options: { checkoutsAfterMs?: number; subscriptionsEveryMs?: number; limit?: number } = {},
  ): Promise<void> {
    const limit = options.limit ?? 50;
    await this.syncPendingPayments(options.checkoutsAfterMs ?? PENDING_CHECKOUT_SYNC_AFTER_MS, limit);
    await this.syncSubscriptions(options.subscriptionsEveryMs ?? SUBSCRIPTION_SYNC_EVERY_MS, limit);
    await this.ledger.applyClock(limit);
    await this.processWebhooks(limit);
    await this.deps.processedEvents.prune?.(new Date(this.now().getTime() - PROCESSED_EVENTS_KEPT_MS));
  }

  /** Re-applies and re-announces plan changes whose event the broker never confirmed (same event ids). */
  async republishPending(olderThanMs = 10_000): Promise<number> {
    const stale = await this.deps.payments
      .find({
        pendingPlanChangedEventId: { $ne: null },
        completedAt: { $lt: new Date(this.now().getTime() - olderThanMs) },
      })
      .limit(100)
      .lean();
    for (const doc of stale) {
      await this.deps.users.changeTier(doc.userId, doc.planId);
      await this.publishPlanChanged(doc);
    }
    return (
      stale.length +
      (await this.ledger.republishPending(olderThanMs)) +
      (await this.addOns.republishPending(olderThanMs))
    );
  }

  private async apply(fact: BillingFact, processor: string, requestId?: string): Promise<FactOutcome> {
    switch (fact.kind) {
      case 'payment_succeeded': {
        // An add-on pack's money raises the month's calls; a plan's starts or renews the subscription.
        const payment = await this.deps.payments.findOne({ reference: fact.reference }, { addOnId: 1 }).lean();
        if (payment?.addOnId) return this.addOns.paymentSucceeded(fact, processor, requestId);
        return this.ledger.paymentSucceeded(fact, processor, requestId);
      }
      case 'payment_ended':
        return this.ledger.paymentEnded(fact, processor);
      case 'subscription':
        return this.ledger.subscriptionChanged(fact, processor, requestId);
    }
  }

  private async syncPendingPayments(afterMs: number, limit: number): Promise<void> {
    const now = this.now();
    const askable = this.deps.providers.filter((provider) => provider.checkCheckout).map((provider) => provider.name);
    if (askable.length === 0) return;
    const pending = await this.deps.payments
      .find({
        status: 'pending',
        provider: { $in: askable },
        updatedAt: { $lte: new Date(now.getTime() - afterMs) },
      })
      .sort({ updatedAt: 1 })
      .limit(limit)
      .lean();
    for (const payment of pending) {
      const provider = this.providerNamed(payment.provider)!;
      try {
        const fact = await provider.checkCheckout!({
          reference: payment.reference,
          providerReference: payment.providerReference,
        });
        if (fact && fact.kind !== 'subscription' && fact.reference === payment.reference)
          await this.apply(fact.kind === 'payment_ended' ? { ...fact, at: now } : fact, provider.name);
        else if (now.getTime() - payment.createdAt.getTime() > PENDING_CHECKOUT_MAX_AGE_MS)
          await this.ledger.paymentEnded(
            { kind: 'payment_ended', reference: payment.reference, why: 'expired', at: now },
            provider.name,
          );
      } catch (err) {
        this.deps.logger.warn({ err, reference: payment.reference, provider: provider.name }, 'checkout not synced');
      }
      // Asked: the next runs take the others first.
      await this.deps.payments.updateOne({ _id: payment._id, status: 'pending' }, { $set: { updatedAt: now } });
    }
  }

  private async syncSubscriptions(everyMs: number, limit: number): Promise<void> {
    const now = this.now();
    const askable = this.deps.providers
      .filter((provider) => provider.fetchSubscription)
      .map((provider) => provider.name);
    if (askable.length === 0) return;
    const due = await this.deps.subscriptions
      .find({
        processor: { $in: askable },
        $and: [
          { $or: [{ status: { $in: ['active', 'past_due'] } }, { appliedTier: { $ne: 'free' } }] },
          { $or: [{ syncedAt: null }, { syncedAt: { $lte: new Date(now.getTime() - everyMs) } }] },
        ],
      })
      .sort({ syncedAt: 1 })
      .limit(limit)
      .lean();
    for (const doc of due) {
      const provider = this.providerNamed(doc.processor)!;
      try {
        const fact = await provider.fetchSubscription!(providerSubscription(doc));
        // The processor's answer is its state as of now, by Kasa's clock (the clock the rest of the state is read by).
        if (fact) await this.ledger.subscriptionChanged({ ...fact, at: this.now() }, provider.name);
      } catch (err) {
        this.deps.logger.warn({ err, userId: doc._id, provider: provider.name }, 'subscription not synced');
      }
      await this.deps.subscriptions.updateOne({ _id: doc._id }, { $set: { syncedAt: now } });
    }
  }

  private async setCancelAtPeriodEnd(userId: string, cancel: boolean, requestId?: string) {
    const doc = await this.requireSubscription(userId);
    const view = this.toPublicSubscription(doc);
    if (cancel && !view.canCancel)
      throw new ConflictError(
        doc.cancelAtPeriodEnd || doc.status === 'canceled'
          ? 'Your subscription is already set to end.'
          : 'This subscription cannot be cancelled here.',
        { status: doc.status, cancelAtPeriodEnd: doc.cancelAtPeriodEnd },
      );
    if (!cancel && !view.canResume)
      throw new ConflictError('There is no cancellation to undo: the subscription renews, or has already ended.', {
        status: doc.status,
        cancelAtPeriodEnd: doc.cancelAtPeriodEnd,
      });
    if (doc.processor !== 'builtin') {
      const provider = this.providerNamed(doc.processor)!;
      try {
        await provider.setCancelAtPeriodEnd!(
          providerSubscription(doc),
          cancel,
          `${doc.reference}:${cancel ? 'cancel' : 'resume'}:${requestId ?? randomUUID()}`,
        );
      } catch (err) {
        this.deps.logger.error(
          { err, reference: doc.reference, provider: doc.processor },
          'subscription change failed',
        );
        throw new ServiceUnavailableError(PROVIDER_DOWN);
      }
    }
    const at = this.now();
    const updated = await this.ledger.change(userId, (current) =>
      current.reference === doc.reference
        ? applyChange(
            current,
            {
              kind: 'subscription',
              subscriptionId: null,
              customerId: null,
              reference: null,
              status: 'active',
              cancelAtPeriodEnd: cancel,
              at: at > current.stateAt ? at : current.stateAt,
            },
            this.deps.graceMs,
          )
        : null,
    );
    return { subscription: updated ? this.toPublicSubscription(updated) : null, testMode: this.testMode };
  }

  private async requireSubscription(userId: string): Promise<SubscriptionDocument> {
    const doc = await this.ledger.get(userId);
    if (!doc) throw new NotFoundError('You have no subscription.');
    return doc;
  }

  /** A Paystack month bought without a plan may be followed by another before it ends (it starts when that ends). */
  private async canBuyAnotherMonth(userId: string, planId: PlanId): Promise<boolean> {
    const doc = await this.ledger.get(userId);
    return Boolean(
      doc && !doc.renews && doc.planId === planId && doc.status === 'active' && this.providerNamed(doc.processor),
    );
  }

  private toPublicSubscription(doc: SubscriptionDocument): Subscription {
    const now = this.now();
    const provider = this.providerNamed(doc.processor);
    const builtin = doc.processor === 'builtin';
    const live =
      doc.status === 'active' && !(doc.currentPeriodEnd && doc.currentPeriodEnd <= now && doc.cancelAtPeriodEnd);
    const changeable =
      builtin ||
      Boolean(
        provider?.setCancelAtPeriodEnd && doc.subscriptionId && (doc.processor !== 'paystack' || doc.subscriptionToken),
      );
    const manageable =
      builtin || Boolean(provider?.portalUrl && (doc.processor === 'stripe' ? doc.customerId : doc.subscriptionId));
    return {
      processor: doc.processor,
      planId: doc.planId,
      planName: planById(doc.planId).name,
      status: doc.status,
      effectiveTier: entitledTier(doc, now),
      amount: doc.amount,
      currency: doc.currency,
      currentPeriodEnd: doc.currentPeriodEnd?.toISOString() ?? null,
      cancelAtPeriodEnd: doc.cancelAtPeriodEnd,
      graceUntil: doc.status === 'past_due' ? (doc.graceUntil?.toISOString() ?? null) : null,
      endedAt: doc.status === 'canceled' ? (doc.endedAt?.toISOString() ?? null) : null,
      reference: doc.reference,
      canManage: manageable && doc.status !== 'canceled',
      canCancel: live && doc.renews && !doc.cancelAtPeriodEnd && changeable,
      canResume: live && doc.renews && doc.cancelAtPeriodEnd && changeable,
      seats: doc.processor === 'contract' ? (doc.seats ?? null) : null,
    };
  }

  private providerNamed(name: string): PaymentProvider | undefined {
    return this.deps.providers.find((provider) => provider.name === name);
  }

  /** The first provider that sells in the currency asked for (or the first provider and its first currency). */
  private providerFor(currency?: PlanCurrency): { provider: PaymentProvider; chosenCurrency: PlanCurrency } {
    const [first] = this.deps.providers;
    if (!first) throw new ServiceUnavailableError('Payments are not configured on this server.');
    if (!currency) return { provider: first, chosenCurrency: currenciesOf(first)[0] ?? 'USD' };
    const provider = this.deps.providers.find((candidate) => currenciesOf(candidate).includes(currency));
    if (!provider) {
      const offered = [...new Set(this.deps.providers.flatMap(currenciesOf))];
      throw new InputError(`Plans are not sold in ${currency} here; choose one of: ${offered.join(', ')}.`, [
        { path: 'currency', message: `one of ${offered.join(', ')}` },
      ]);
    }
    return { provider, chosenCurrency: currency };
  }

  private async recordEnterpriseInquiry(user: User, details?: EnterpriseInquiryDetails): Promise<CheckoutResult> {
    const upsert = () =>
      this.deps.inquiries
        .findOneAndUpdate(
          { userId: user.id },
          {
            $set: {
              username: user.username,
              email: user.email,
              currentTier: user.subscriptionTier,
              status: 'open',
              // Asking again without the form (an older client) keeps what the form said before.
              ...(details
                ? {
                    company: details.company,
                    seats: details.seats,
                    phone: details.phone ?? null,
                    message: details.message ?? null,
                  }
                : {}),
              lastRequestedAt: this.now(),
            },
            $inc: { requestCount: 1 },
          },
          { upsert: true, new: true },
        )
        .lean();
    let doc: EnterpriseInquiryDocument | null;
    try {
      doc = await upsert();
    } catch (err) {
      // Two first inquiries racing: the unique index lets one insert; the other updates it.
      if ((err as { code?: number }).code !== DUPLICATE_KEY) throw err;
      doc = await upsert();
    }
    if (!doc) throw new Error('The enterprise inquiry was not stored');
    return {
      outcome: 'inquiry_received',
      planId: 'enterprise',
      inquiryId: doc._id.toString(),
      message: ENTERPRISE_INQUIRY_MESSAGE,
    };
  }

  /**
   * One checkout per person at a time: the first claims it and pays; checkouts sent meanwhile are answered with the
   * same payment (pending with the same page to finish it on, or completed), never a second one.
   */
  private async payFor(
    user: User,
    provider: PaymentProvider,
    start: (reference: string) => Promise<CheckoutResult>,
  ): Promise<CheckoutResult> {
    if (provider.unavailable) throw new ServiceUnavailableError(provider.unavailable);
    const reference = newPaymentReference();
    const holder = await this.claims.claim(user.id, reference);
    if (holder !== reference) return this.answerHeldCheckout(user.id, holder);
    let keepClaim = false;
    try {
      const result = await start(reference);
      // A payment to finish on the processor's page keeps the claim: asking again answers the same page.
      keepClaim = result.outcome === 'checkout' && result.status === 'pending';
      return result;
    } finally {
      if (!keepClaim)
        await this.claims
          .release(user.id, reference)
          .catch((err: unknown) => this.deps.logger.warn({ err, reference }, 'checkout claim not released'));
    }
  }

  /** The answer for a checkout that another, sent at the same time, already holds. */
  private async answerHeldCheckout(userId: string, reference: string): Promise<CheckoutResult> {
    const deadline = this.now().getTime() + CONCURRENT_CHECKOUT_WAIT_MS;
    for (;;) {
      const doc = await this.deps.payments.findOne({ reference, userId }).lean();
      const settled = doc && (doc.status !== 'pending' || doc.redirectUrl);
      if (doc && settled) {
        if (doc.status === 'failed') throw new ServiceUnavailableError(PROVIDER_DOWN);
        const completed = doc.status === 'completed';
        return {
          outcome: 'checkout',
          planId: doc.planId,
          reference,
          status: doc.status,
          redirectUrl: completed ? successUrl(reference) : (doc.redirectUrl ?? successUrl(reference)),
          payment: toPublicPayment(doc),
          ...(completed && !doc.addOnId ? { user: await this.deps.users.findById(userId) } : {}),
          message: completed ? paidMessage(doc) : 'Complete the payment with our payment provider.',
        };
      }
      if (this.now().getTime() > deadline)
        throw new ConflictError('A checkout of yours is already in progress. Please try again in a moment.');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  private async startPayment(
    user: User,
    planId: PlanId,
    provider: PaymentProvider,
    currency: PlanCurrency,
    reference: string,
    requestId?: string,
  ): Promise<CheckoutResult> {
    const plan = planById(planId);
    const amount = PLANS[planId].prices[currency];
    const created = (
      await this.deps.payments.create({
        reference,
        userId: user.id,
        planId,
        amount,
        currency,
        provider: provider.name,
        status: 'pending',
      })
    ).toObject();
    const earlier = await this.ledger.get(user.id);
    const description = `Kasa ${plan.name} plan, 1 ${plan.period}`;

    let checkout: Awaited<ReturnType<PaymentProvider['createCheckout']>>;
    try {
      checkout = await provider.createCheckout({
        reference,
        userId: user.id,
        email: user.email,
        planId,
        addOnId: null,
        amount,
        currency,
        description,
        successUrl: `${this.publicUrl}${successUrl(reference)}`,
        cancelUrl: `${this.publicUrl}/pricing`,
        customerId: earlier?.processor === provider.name ? earlier.customerId : null,
      });
    } catch (err) {
      this.deps.logger.error({ err, reference, provider: provider.name }, 'payment provider failed');
      await this.deps.payments.updateOne({ _id: created._id }, { $set: { status: 'failed' } });
      throw new ServiceUnavailableError(PROVIDER_DOWN);
    }

    if (checkout.status === 'pending') {
      const pending = await this.deps.payments
        .findOneAndUpdate(
          { _id: created._id },
          { $set: { providerReference: checkout.providerReference, redirectUrl: checkout.redirectUrl } },
          { new: true },
        )
        .lean();
      return {
        outcome: 'checkout',
        planId,
        reference,
        status: 'pending',
        redirectUrl: checkout.redirectUrl,
        payment: toPublicPayment(pending ?? created),
        message: 'Complete the payment with our payment provider.',
      };
    }

    const completed = await this.complete(reference, checkout.providerReference, user, requestId);
    const { user: upgraded } = await this.deps.users.changeTier(user.id, planId);
    await this.publishPlanChanged(completed, requestId);
    if (provider.name === 'builtin') await this.ledger.startBuiltIn(completed, this.now());
    return {
      outcome: 'checkout',
      planId,
      reference,
      status: 'completed',
      redirectUrl: successUrl(reference),
      payment: toPublicPayment(completed),
      user: upgraded,
      message: `Payment received. Welcome to Kasa ${plan.name}!`,
    };
  }

  /** An add-on pack's payment: pending on the processor's page, or (the built-in provider) completed at once. */
  private async startAddOnPayment(
    user: User,
    addOnId: AddOnId,
    provider: PaymentProvider,
    currency: PlanCurrency,
    reference: string,
    requestId?: string,
  ): Promise<CheckoutResult> {
    const rules = ADD_ONS[addOnId];
    const item = { planId: user.subscriptionTier, addOnId, calls: rules.calls };
    const amount = rules.prices[currency];
    const created = (
      await this.deps.payments.create({
        reference,
        userId: user.id,
        ...item,
        amount,
        currency,
        provider: provider.name,
        status: 'pending',
      })
    ).toObject();
    const earlier = await this.ledger.get(user.id);

    let checkout: Awaited<ReturnType<PaymentProvider['createCheckout']>>;
    try {
      checkout = await provider.createCheckout({
        reference,
        userId: user.id,
        email: user.email,
        ...item,
        amount,
        currency,
        description: `Kasa: ${describePurchase(item)}`,
        successUrl: `${this.publicUrl}${successUrl(reference)}`,
        cancelUrl: `${this.publicUrl}/settings`,
        customerId: earlier?.processor === provider.name ? earlier.customerId : null,
      });
    } catch (err) {
      this.deps.logger.error({ err, reference, provider: provider.name }, 'payment provider failed');
      await this.deps.payments.updateOne({ _id: created._id }, { $set: { status: 'failed' } });
      throw new ServiceUnavailableError(PROVIDER_DOWN);
    }

    if (checkout.status === 'pending') {
      const pending = await this.deps.payments
        .findOneAndUpdate(
          { _id: created._id },
          { $set: { providerReference: checkout.providerReference, redirectUrl: checkout.redirectUrl } },
          { new: true },
        )
        .lean();
      return {
        outcome: 'checkout',
        planId: user.subscriptionTier,
        reference,
        status: 'pending',
        redirectUrl: checkout.redirectUrl,
        payment: toPublicPayment(pending ?? created),
        message: 'Complete the payment with our payment provider.',
      };
    }

    const completed = (await this.addOns.complete(reference, checkout.providerReference, requestId)) ?? created;
    return {
      outcome: 'checkout',
      planId: user.subscriptionTier,
      reference,
      status: completed.status,
      redirectUrl: successUrl(reference),
      payment: toPublicPayment(completed),
      message: paidMessage(completed),
    };
  }

  /**
   * Marks the payment completed, with the tier the person had and the outbox marker of the plan change, in one
   * atomic update; only the first completion of a payment wins.
   */
  private async complete(
    reference: string,
    providerReference: string,
    user: User,
    requestId?: string,
  ): Promise<PaymentDocument> {
    const doc = await this.deps.payments
      .findOneAndUpdate(
        { reference, status: 'pending' },
        {
          $set: {
            status: 'completed',
            providerReference,
            previousTier: user.subscriptionTier,
            completedAt: this.now(),
            pendingPlanChangedEventId: randomUUID(),
          },
        },
        { new: true },
      )
      .lean();
    if (!doc) {
      this.deps.logger.warn({ reference, requestId }, 'payment was already completed');
      throw new ConflictError('This payment has already been completed.');
    }
    return doc;
  }

  /**
   * Publishes auth.user.plan_changed and clears the payment's marker once the broker confirms. A broker that is slow
   * or away does not hold up the answer: the marker stays and `republishPending` sends the same event later.
   */
  private async publishPlanChanged(doc: PaymentDocument, requestId?: string): Promise<void> {
    const eventId = doc.pendingPlanChangedEventId;
    if (!eventId) return;
    await this.deps.bus.publishWithin(
      'auth.user.plan_changed',
      { userId: doc.userId, from: doc.previousTier ?? 'free', to: doc.planId, reference: doc.reference },
      PUBLISH_WAIT_MS,
      {
        id: eventId,
        requestId,
        onSettled: (confirmed) =>
          confirmed
            ? this.deps.payments.updateOne(
                { _id: doc._id, pendingPlanChangedEventId: eventId },
                { $set: { pendingPlanChangedEventId: null } },
              )
            : this.deps.logger.warn({ eventId }, 'auth.user.plan_changed not yet published; will retry'),
      },
    );
  }
}

/** The cheapest plan that may buy an add-on. */
const requiredPlanOf = (addOnId: AddOnId) => requiredPlan(ADD_ONS[addOnId].feature);

/** What a completed payment's answer says. */
function paidMessage(doc: Pick<PaymentDocument, 'planId' | 'addOnId' | 'calls'>): string {
  if (doc.addOnId)
    return (
      `Payment received. ${doc.calls?.toLocaleString('en-US') ?? 'Your'} extra API calls are yours until the end ` +
      'of this month.'
    );
  return `Payment received. Welcome to Kasa ${planById(doc.planId).name}!`;
}

/** A completed payment in the history, with its receipt's addresses. */
function historyEntryOf(doc: PaymentDocument): BillingHistoryEntry {
  const receiptUrl = `/api/billing/receipts/${encodeURIComponent(doc.reference)}`;
  return { ...toPublicPayment(doc), receiptUrl, receiptPdfUrl: `${receiptUrl}/receipt.pdf` };
}

/** The ids a provider needs to ask about a subscription or act on it. */
function providerSubscription(doc: SubscriptionDocument): ProviderSubscription {
  return {
    subscriptionId: doc.subscriptionId,
    customerId: doc.customerId,
    subscriptionToken: doc.subscriptionToken,
    reference: doc.reference,
  };
}

/** A BillingService over the auth database's payments, subscriptions, inquiries and webhook inbox. */
export function createBillingService(
  deps: Omit<
    BillingServiceDeps,
    | 'payments'
    | 'inquiries'
    | 'claims'
    | 'subscriptions'
    | 'inbox'
    | 'processedEvents'
    | 'providers'
    | 'publicUrl'
    | 'graceMs'
  > & {
    db: Connection;
    /**
     * Where handled webhook event ids are remembered: the runtime's processed-event store (`runtime.processedEvents`);
     * one over `db` when not given (tests, commands without a runtime), the same collection either way.
     */
    processedEvents?: PrunableProcessedEventStore;
    /** One provider, or several in order of preference. */
    provider: PaymentProvider | readonly PaymentProvider[];
    publicUrl?: string;
    graceMs?: number;
  },
): BillingService {
  const { db, provider, publicUrl, graceMs, processedEvents, ...rest } = deps;
  return new BillingService({
    ...rest,
    providers: Array.isArray(provider) ? provider : [provider as PaymentProvider],
    publicUrl: publicUrl ?? 'http://localhost:8080',
    graceMs: graceMs ?? 7 * DAY_MS,
    payments: paymentModel(db),
    inquiries: enterpriseInquiryModel(db),
    claims: checkoutClaimModel(db),
    subscriptions: subscriptionModel(db),
    inbox: inboxEventModel(db),
    processedEvents: processedEvents ?? createMongoProcessedEventStore(db),
  });
}
