import type { CheckoutResponse, Payment, PlanId, User } from '@kasa/contracts';
import {
  AuthenticationError,
  ConflictError,
  NotFoundError,
  ServiceUnavailableError,
  type EventBus,
  type Logger,
} from '@kasa/service-kit';
import type { Connection, Model } from 'mongoose';
import { randomUUID } from 'node:crypto';
import type { UserService } from '../users/userService';
import { checkoutClaimModel, CheckoutClaims, type CheckoutClaimDocument } from './checkoutClaims';
import { enterpriseInquiryModel, type EnterpriseInquiryDocument } from './enterpriseInquiryModel';
import type { PaymentProvider } from './paymentProvider';
import { paymentModel, toPublicPayment, type PaymentDocument } from './paymentModel';
import { planById } from './plans';
import { newPaymentReference } from './references';
import { waitForConfirm } from '../events/waitForConfirm';

const DUPLICATE_KEY = 11000;

export const ENTERPRISE_INQUIRY_MESSAGE = 'Our sales team will contact you shortly to discuss enterprise solutions.';
export const SUPPORT_EMAIL = 'support@kasa.example';

/** The answer of a checkout before the router adds a fresh token (when `user` is set, the tier changed). */
export type CheckoutResult = Exclude<CheckoutResponse, { outcome: 'checkout' }> | CheckoutOutcome;
type CheckoutOutcome = Omit<Extract<CheckoutResponse, { outcome: 'checkout' }>, 'token'>;

export interface BillingServiceDeps {
  payments: Model<PaymentDocument>;
  inquiries: Model<EnterpriseInquiryDocument>;
  claims: Model<CheckoutClaimDocument>;
  users: Pick<UserService, 'findById' | 'changeTier'>;
  provider: PaymentProvider;
  bus: Pick<EventBus, 'publish'>;
  logger: Logger;
  now?: () => Date;
}

/** How long a person's pending checkout is answered again instead of a new one (a processor's page stays open). */
const CHECKOUT_CLAIM_TTL_MS = 30 * 60_000;
/** How long a checkout sent at the same time as another waits for the other's payment to be recorded. */
const CONCURRENT_CHECKOUT_WAIT_MS = 10_000;

export function successUrl(reference: string): string {
  return `/billing/success?reference=${encodeURIComponent(reference)}`;
}

/** Plan changes: checkouts through the payment provider, Enterprise inquiries, and the payments' history. */
export class BillingService {
  private readonly now: () => Date;
  private readonly claims: CheckoutClaims;

  constructor(private readonly deps: BillingServiceDeps) {
    this.now = deps.now ?? (() => new Date());
    this.claims = new CheckoutClaims(deps.claims, CHECKOUT_CLAIM_TTL_MS, this.now);
  }

  async checkout(userId: string, planId: PlanId, requestId?: string): Promise<CheckoutResult> {
    const user = await this.deps.users.findById(userId).catch(() => {
      throw new AuthenticationError('This account no longer exists');
    });
    const current = user.subscriptionTier;
    const plan = planById(planId);
    if (planId === current) {
      return { outcome: 'already_on_plan', planId, message: `You are already on the ${plan.name} plan.` };
    }
    if (planId === 'free') {
      throw new ConflictError(
        `You are on the ${planById(current).name} plan. To move to the Free plan, write to ${SUPPORT_EMAIL}; ` +
          'your plan stays active until then.',
        { currentTier: current },
      );
    }
    if (planId === 'enterprise') return this.recordEnterpriseInquiry(user);
    if (current === 'enterprise') {
      throw new ConflictError('Your Enterprise plan already includes everything in Pro.', { currentTier: current });
    }
    return this.payFor(user, planId, requestId);
  }

  /** One of the person's payments; somebody else's reference is answered exactly like an unknown one. */
  async getPayment(userId: string, reference: string): Promise<Payment> {
    const doc = await this.deps.payments.findOne({ reference, userId }).lean();
    if (!doc) throw new NotFoundError('Payment not found');
    return toPublicPayment(doc);
  }

  /** Re-applies and re-announces plan changes whose event the broker never confirmed (same event id). */
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
    return stale.length;
  }

  private async recordEnterpriseInquiry(user: User): Promise<CheckoutResult> {
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
  private async payFor(user: User, planId: PlanId, requestId?: string): Promise<CheckoutResult> {
    if (this.deps.provider.unavailable) throw new ServiceUnavailableError(this.deps.provider.unavailable);
    const reference = newPaymentReference();
    const holder = await this.claims.claim(user.id, reference);
    if (holder !== reference) return this.answerHeldCheckout(user.id, holder);
    let keepClaim = false;
    try {
      const result = await this.startPayment(user, planId, reference, requestId);
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
        if (doc.status === 'failed')
          throw new ServiceUnavailableError('The payment provider is unavailable. Please try again shortly.');
        const plan = planById(doc.planId);
        const completed = doc.status === 'completed';
        return {
          outcome: 'checkout',
          planId: doc.planId,
          reference,
          status: doc.status,
          redirectUrl: completed ? successUrl(reference) : (doc.redirectUrl ?? successUrl(reference)),
          payment: toPublicPayment(doc),
          ...(completed ? { user: await this.deps.users.findById(userId) } : {}),
          message: completed
            ? `Payment received. Welcome to Kasa ${plan.name}!`
            : 'Complete the payment with our payment provider.',
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
    reference: string,
    requestId?: string,
  ): Promise<CheckoutResult> {
    const plan = planById(planId);
    const created = (
      await this.deps.payments.create({
        reference,
        userId: user.id,
        planId,
        amount: plan.price,
        currency: plan.currency,
        provider: this.deps.provider.name,
        status: 'pending',
      })
    ).toObject();

    let checkout: Awaited<ReturnType<PaymentProvider['createCheckout']>>;
    try {
      checkout = await this.deps.provider.createCheckout({
        reference,
        userId: user.id,
        planId,
        amount: plan.price,
        currency: plan.currency,
        description: `Kasa ${plan.name} plan, 1 ${plan.period}`,
      });
    } catch (err) {
      this.deps.logger.error({ err, reference, provider: this.deps.provider.name }, 'payment provider failed');
      await this.deps.payments.updateOne({ _id: created._id }, { $set: { status: 'failed' } });
      throw new ServiceUnavailableError('The payment provider is unavailable. Please try again shortly.');
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
    const publish = this.deps.bus
      .publish(
        'auth.user.plan_changed',
        { userId: doc.userId, from: doc.previousTier ?? 'free', to: doc.planId, reference: doc.reference },
        { id: eventId, requestId },
      )
      .then(() =>
        this.deps.payments.updateOne(
          { _id: doc._id, pendingPlanChangedEventId: eventId },
          { $set: { pendingPlanChangedEventId: null } },
        ),
      )
      .catch((err: unknown) =>
        this.deps.logger.warn({ err, eventId }, 'auth.user.plan_changed not yet published; will retry'),
      );
    await waitForConfirm(publish);
  }
}

/** A BillingService over the auth database's payments and inquiries. */
export function createBillingService(
  deps: Omit<BillingServiceDeps, 'payments' | 'inquiries' | 'claims'> & { db: Connection },
): BillingService {
  const { db, ...rest } = deps;
  return new BillingService({
    ...rest,
    payments: paymentModel(db),
    inquiries: enterpriseInquiryModel(db),
    claims: checkoutClaimModel(db),
  });
}
