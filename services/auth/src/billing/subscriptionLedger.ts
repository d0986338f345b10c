import { isPaid, PLANS, type BillingProcessor, type User } from '@kasa/contracts';
import { ConflictError, NotFoundError, PUBLISH_WAIT_MS, type EventBus, type Logger } from '@kasa/service-kit';
import type { Model } from 'mongoose';
import { randomUUID } from 'node:crypto';
import type { SubscriptionNotices } from '../notices/billingNotices';
import type { UserService } from '../users/userService';
import {
  addMonth,
  toMinorUnits,
  type PaymentEnded,
  type PaymentSucceeded,
  type SubscriptionChanged,
} from './billingFacts';
import type { CheckoutClaims } from './checkoutClaims';
import type { PaymentDocument } from './paymentModel';
import type { PendingPlanChange, SubscriptionDocument } from './subscriptionModel';
import { applyChange, entitledTier, renewBuiltIn, startFromPayment, type SubscriptionState } from './subscriptionState';

const DUPLICATE_KEY = 11000;

/** What became of a fact: applied (or already was), ignored (not ours, or older than what we know), rejected (the
 * amount or currency does not match), or unmatched (nobody's yet: tried again later). */
export type FactOutcome = 'applied' | 'ignored' | 'rejected' | 'unmatched';

export interface SubscriptionLedgerDeps {
  subscriptions: Model<SubscriptionDocument>;
  payments: Model<PaymentDocument>;
  claims: Pick<CheckoutClaims, 'release'>;
  users: Pick<UserService, 'findById' | 'changeTier'>;
  bus: Pick<EventBus, 'publishWithin'>;
  logger: Logger;
  /** How long a plan is kept after a renewal fails. */
  graceMs: number;
  now: () => Date;
  /** E-mails the owner when a renewal fails and when the grace runs out (none when absent). */
  notices?: SubscriptionNotices;
}

export const isBillingProcessor = (name: string): name is BillingProcessor =>
  name === 'stripe' || name === 'paystack' || name === 'builtin';

/**
 * The subscriptions in auth's database, one per person, and the one writer of them: it applies the processors'
 * facts (by the rules of subscriptionState.ts), and moves the account to the tier the subscription gives, through
 * `users.changeTier` and `auth.user.plan_changed` (an outbox marker on the subscription until the broker confirms).
 */
export class SubscriptionLedger {
  constructor(private readonly deps: SubscriptionLedgerDeps) {}

  get(userId: string): Promise<SubscriptionDocument | null> {
    return this.deps.subscriptions.findById(userId).lean();
  }

  /** A checkout's money arrived: the payment completes, the subscription starts, the account gets the plan. */
  async paymentSucceeded(fact: PaymentSucceeded, processor: string, requestId?: string): Promise<FactOutcome> {
    const { payments, logger } = this.deps;
    const payment = await payments.findOne({ reference: fact.reference }).lean();
    if (!payment || payment.provider !== processor || !isBillingProcessor(processor)) {
      logger.warn({ reference: fact.reference, processor }, 'a payment for an unknown reference changes nothing');
      return 'ignored';
    }
    if (fact.paid) {
      const asked = { amountMinor: toMinorUnits(payment.amount), currency: payment.currency };
      if (fact.paid.amountMinor !== asked.amountMinor || fact.paid.currency !== asked.currency) {
        logger.error(
          { reference: payment.reference, processor, paid: fact.paid, asked },
          'the amount or currency paid is not what the checkout asked for; nothing changes',
        );
        return 'rejected';
      }
    }
    const user = await this.deps.users.findById(payment.userId).catch(() => null);
    // The first completion wins; money that arrives for a checkout given up on (expired) still counts.
    await payments.updateOne(
      { _id: payment._id, status: { $ne: 'completed' } },
      {
        $set: {
          status: 'completed',
          completedAt: this.deps.now(),
          previousTier: user?.subscriptionTier ?? null,
          redirectUrl: null,
        },
      },
    );
    await this.deps.claims.release(payment.userId, payment.reference).catch((err: unknown) => {
      logger.warn({ err, reference: payment.reference }, 'checkout claim not released');
    });
    await this.mutate(payment.userId, (current) => startFromPayment(current, { ...payment, processor }, fact));
    await this.applyTier(payment.userId, requestId);
    return 'applied';
  }

  /** A checkout ended without money: its payment fails and the person may check out again. */
  async paymentEnded(fact: PaymentEnded, processor: string): Promise<FactOutcome> {
    const payment = await this.deps.payments
      .findOneAndUpdate(
        { reference: fact.reference, provider: processor, status: 'pending' },
        { $set: { status: 'failed', redirectUrl: null } },
        { new: true },
      )
      .lean();
    if (!payment) return 'ignored';
    this.deps.logger.info({ reference: fact.reference, why: fact.why }, 'checkout ended without payment');
    await this.deps.claims.release(payment.userId, payment.reference);
    return 'applied';
  }

  /** A processor's word about a subscription: stored by the rules, then the account's tier follows. */
  async subscriptionChanged(fact: SubscriptionChanged, processor: string, requestId?: string): Promise<FactOutcome> {
    const found = await this.findFor(fact, processor);
    if (!found) return 'unmatched';
    if (found.subscriptionId && fact.subscriptionId && found.subscriptionId !== fact.subscriptionId) return 'ignored';
    if (fact.reference && found.reference !== fact.reference) return 'ignored';
    const graceMs = this.deps.graceMs;
    // What the write changed: a renewal that failed just now (grace starts), or a grace the processor ended.
    const seen = { enteredGrace: false, graceBefore: null as Date | null };
    const stored = await this.mutate(found._id, (current) => {
      seen.enteredGrace = false;
      seen.graceBefore = null;
      if (!current || current.reference !== found.reference) return null;
      const next = applyChange(current, fact, graceMs);
      seen.enteredGrace = current.status !== 'past_due' && next.status === 'past_due';
      seen.graceBefore = current.status === 'past_due' ? current.graceUntil : null;
      return next;
    });
    if (seen.enteredGrace && stored) await this.deps.notices?.renewalFailed(stored, requestId);
    await this.applyTier(found._id, requestId, undefined, seen.graceBefore);
    return 'applied';
  }

  /** Records what a local change did (the built-in provider, or a cancellation the processor accepted). */
  async change(userId: string, change: (current: SubscriptionState) => SubscriptionState | null) {
    const doc = await this.mutate(userId, (current) => (current ? change(current) : null));
    await this.applyTier(userId);
    return doc;
  }

  /**
   * An operator's Enterprise contract (agreed with sales, invoiced outside Kasa): the account has Enterprise with
   * `seats` seats until `endsAt`, then goes back to Free by the clock (`applyClock`) unless the contract is recorded
   * again with a later end. A subscription a processor still renews is not replaced (it would go on charging).
   */
  async grantContract(input: {
    userId: string;
    seats: number;
    endsAt: Date;
    reference: string;
    amount: number;
    currency: SubscriptionDocument['currency'];
    requestId?: string;
    actor?: OperatorChange['actor'];
  }): Promise<SubscriptionDocument> {
    const now = this.deps.now();
    const current = await this.get(input.userId);
    assertNotRenewingElsewhere(current, 'record the contract');
    const doc = await this.mutate(input.userId, (existing) => ({
      processor: 'contract',
      planId: 'enterprise',
      status: 'active',
      reference: input.reference,
      amount: input.amount,
      currency: input.currency,
      customerId: null,
      subscriptionId: null,
      subscriptionToken: null,
      renews: false,
      currentPeriodEnd: input.endsAt,
      // Nothing renews a contract: it ends on its date unless recorded again.
      cancelAtPeriodEnd: true,
      graceUntil: null,
      endedAt: null,
      stateAt: now,
      syncedAt: null,
      appliedTier: existing?.appliedTier ?? 'free',
      pendingPlanChanges: existing?.pendingPlanChanges ?? [],
      seats: input.seats,
    }));
    const operator = input.actor
      ? { actor: input.actor, reason: `Enterprise contract ${input.reference} (${input.seats} seats)` }
      : undefined;
    await this.applyTier(input.userId, input.requestId, operator);
    return (await this.get(input.userId)) ?? doc!;
  }

  /**
   * An operator's plan change with a reason (a goodwill upgrade, a refund, a correction): the subscription becomes
   * an operator-recorded one (`contract`, no end date, nothing renews it) on the plan, or ends at once for Free, and the
   * account moves to the tier with `auth.user.plan_changed` carrying who and why. As with a contract, a subscription
   * that Stripe or Paystack still renews is not replaced (409): it would go on charging.
   */
  async setByOperator(input: {
    userId: string;
    tier: User['subscriptionTier'];
    reference: string;
    reason: string;
    actor: NonNullable<OperatorChange['actor']>;
    requestId?: string;
  }): Promise<{ previous: User['subscriptionTier']; subscription: SubscriptionDocument | null }> {
    const now = this.deps.now();
    const current = await this.get(input.userId);
    assertNotRenewingElsewhere(current, 'change the plan');
    const user = await this.deps.users.findById(input.userId);
    if (input.tier === 'free') {
      if (current && entitledTier(current, now) !== 'free') {
        await this.mutate(input.userId, (existing) =>
          existing ? { ...existing, status: 'canceled', endedAt: now, cancelAtPeriodEnd: true, stateAt: now } : null,
        );
      }
    } else {
      await this.mutate(input.userId, (existing) => ({
        processor: 'contract',
        planId: input.tier,
        status: 'active',
        reference: input.reference,
        amount: 0,
        currency: existing?.currency ?? 'USD',
        customerId: null,
        subscriptionId: null,
        subscriptionToken: null,
        renews: false,
        // No end date: the plan stays until an operator changes it again.
        currentPeriodEnd: null,
        cancelAtPeriodEnd: false,
        graceUntil: null,
        endedAt: null,
        stateAt: now,
        syncedAt: null,
        appliedTier: existing?.appliedTier ?? user.subscriptionTier,
        pendingPlanChanges: existing?.pendingPlanChanges ?? [],
        seats: input.tier === 'enterprise' ? (existing?.seats ?? null) : null,
      }));
    }
    // The account moves even where billing's own rule would keep a hand-set higher tier: the operator decided.
    const change: PendingPlanChange = {
      eventId: randomUUID(),
      from: user.subscriptionTier,
      to: input.tier,
      reference: isPaid(input.tier) ? input.reference : null,
      actor: input.actor,
      reason: input.reason,
    };
    const marked = await this.mutate(input.userId, (existing) =>
      existing
        ? { ...existing, appliedTier: input.tier, pendingPlanChanges: [...existing.pendingPlanChanges, change] }
        : null,
    );
    await this.deps.users.changeTier(input.userId, input.tier);
    this.deps.logger.info({ userId: input.userId, from: change.from, to: input.tier }, 'plan changed by an operator');
    if (marked) await this.publish(input.userId, change, input.requestId);
    else {
      // Nobody ever subscribed (a Free account moved to Free): no subscription to carry the outbox marker.
      await this.publishOnce(input.userId, change, input.requestId);
    }
    return { previous: change.from, subscription: await this.get(input.userId) };
  }

  /** The built-in provider's completed checkout: a test-mode subscription, renewing monthly until cancelled. */
  async startBuiltIn(payment: PaymentDocument, at: Date): Promise<void> {
    await this.mutate(payment.userId, (current) => {
      const started = startFromPayment(
        current,
        { ...payment, processor: 'builtin' },
        {
          kind: 'payment_succeeded',
          reference: payment.reference,
          paid: null,
          customerId: null,
          subscriptionId: null,
          periodEnd: addMonth(at),
          renews: true,
          at,
        },
      );
      // The checkout itself changed the tier and announced it.
      return started && { ...started, appliedTier: payment.planId };
    });
  }

  /** The person's subscriptions whose tier may have moved by the clock alone (grace over, period ended). */
  async applyClock(limit = 100): Promise<number> {
    const now = this.deps.now();
    const due = await this.deps.subscriptions
      .find({
        $or: [
          { status: 'past_due', graceUntil: { $lte: now }, appliedTier: { $ne: 'free' } },
          { status: 'active', cancelAtPeriodEnd: true, currentPeriodEnd: { $lte: now }, appliedTier: { $ne: 'free' } },
          { status: 'canceled', endedAt: { $lte: now }, appliedTier: { $ne: 'free' } },
          { processor: 'builtin', status: 'active', cancelAtPeriodEnd: false, currentPeriodEnd: { $lte: now } },
        ],
      })
      .limit(limit)
      .lean();
    for (const doc of due) {
      const renewed = renewBuiltIn(doc, now);
      if (renewed) await this.mutate(doc._id, (current) => (current ? renewBuiltIn(current, now) : null));
      await this.applyTier(doc._id);
    }
    return due.length;
  }

  /** Re-sends plan changes the broker never confirmed (same event ids), re-applying the tier first. */
  async republishPending(olderThanMs = 10_000): Promise<number> {
    const stale = await this.deps.subscriptions
      .find({
        'pendingPlanChanges.eventId': { $exists: true },
        updatedAt: { $lt: new Date(this.deps.now().getTime() - olderThanMs) },
      })
      .limit(100)
      .lean();
    for (const doc of stale) {
      const latest = doc.pendingPlanChanges.at(-1);
      if (latest && latest.to === doc.appliedTier) await this.deps.users.changeTier(doc._id, latest.to);
      for (const change of doc.pendingPlanChanges) await this.publish(doc._id, change);
    }
    return stale.length;
  }

  /**
   * Moves the account to the tier the subscription gives now, if billing has not already. An account moved above
   * the subscription's plan by hand (Enterprise, agreed with sales) is not billing's to change.
   */
  async applyTier(
    userId: string,
    requestId?: string,
    operator?: OperatorChange,
    /** The grace the fact just applied ended (a processor that cancels a past-due subscription). */
    endedGrace?: Date | null,
  ): Promise<User | null> {
    const doc = await this.get(userId);
    if (!doc) return null;
    const target = entitledTier(doc, this.deps.now());
    if (target === doc.appliedTier) return null;
    const user = await this.deps.users.findById(userId).catch((err: unknown) => {
      if (err instanceof NotFoundError) return null;
      throw err;
    });
    if (!user) return null;
    const handSet = PLANS[user.subscriptionTier].rank > PLANS[doc.planId].rank;
    const change: PendingPlanChange = {
      eventId: randomUUID(),
      from: user.subscriptionTier,
      to: target,
      reference: isPaid(target) ? doc.reference : null,
      ...(operator ?? {}),
    };
    const announce = !handSet && user.subscriptionTier !== target;
    const marked = await this.mutate(userId, (current) =>
      current && current.appliedTier === doc.appliedTier
        ? {
            ...current,
            appliedTier: target,
            pendingPlanChanges: announce ? [...current.pendingPlanChanges, change] : current.pendingPlanChanges,
          }
        : null,
    );
    if (!announce || !marked?.pendingPlanChanges.some((pending) => pending.eventId === change.eventId)) return null;
    const { user: changed } = await this.deps.users.changeTier(userId, target);
    this.deps.logger.info(
      { userId, from: change.from, to: target, reference: doc.reference, processor: doc.processor },
      'plan changed by billing',
    );
    await this.publish(userId, change, requestId);
    // Back on Free because a grace after a failed renewal is over (by the clock, or the processor ended it).
    const graceEnded = target === 'free' ? (doc.status === 'past_due' ? doc.graceUntil : endedGrace) : null;
    if (graceEnded) await this.deps.notices?.planLapsed(doc, graceEnded, requestId);
    return changed;
  }

  /** Publishes a plan change and drops its marker once the broker confirms (never holding up the caller). */
  private async publish(userId: string, change: PendingPlanChange, requestId?: string): Promise<void> {
    await this.deps.bus.publishWithin(
      'auth.user.plan_changed',
      {
        userId,
        from: change.from,
        to: change.to,
        ...(change.reference ? { reference: change.reference } : {}),
        ...(change.actor ? { actor: change.actor } : {}),
        ...(change.reason ? { reason: change.reason } : {}),
      },
      PUBLISH_WAIT_MS,
      {
        id: change.eventId,
        requestId,
        onSettled: (confirmed) =>
          confirmed
            ? this.mutate(userId, (current) =>
                current && current.pendingPlanChanges.some((pending) => pending.eventId === change.eventId)
                  ? {
                      ...current,
                      pendingPlanChanges: current.pendingPlanChanges.filter((p) => p.eventId !== change.eventId),
                    }
                  : null,
              )
            : this.deps.logger.warn(
                { eventId: change.eventId },
                'auth.user.plan_changed not yet published; will retry',
              ),
      },
    );
  }

  /** A plan change without a subscription to keep its outbox marker: published once, waiting at most 2 s. */
  private async publishOnce(userId: string, change: PendingPlanChange, requestId?: string): Promise<void> {
    await this.deps.bus.publishWithin(
      'auth.user.plan_changed',
      {
        userId,
        from: change.from,
        to: change.to,
        ...(change.actor ? { actor: change.actor } : {}),
        ...(change.reason ? { reason: change.reason } : {}),
      },
      PUBLISH_WAIT_MS,
      { id: change.eventId, requestId },
    );
  }

  /** Whose subscription a fact is about: by the processor's subscription id, then its customer, then the payment. */
  private async findFor(fact: SubscriptionChanged, processor: string): Promise<SubscriptionDocument | null> {
    const { subscriptions, payments } = this.deps;
    if (fact.subscriptionId) {
      const bySubscription = await subscriptions.findOne({ processor, subscriptionId: fact.subscriptionId }).lean();
      if (bySubscription) return bySubscription;
    }
    if (fact.reference) {
      const payment = await payments.findOne({ reference: fact.reference, provider: processor }).lean();
      if (payment) return this.get(payment.userId);
    }
    if (fact.customerId) {
      // A customer's subscription whose id is not known yet (Paystack's subscription.create comes after the charge).
      return subscriptions
        .findOne({ processor, customerId: fact.customerId, subscriptionId: null })
        .sort({ stateAt: -1 })
        .lean();
    }
    return null;
  }

  /**
   * Writes the state `change` makes of the current one (null: nothing to write), as a compare-and-set on `version`
   * so concurrent writers never lose one another's changes; answers the stored document.
   */
  private async mutate(
    userId: string,
    change: (current: SubscriptionDocument | null) => SubscriptionState | null,
  ): Promise<SubscriptionDocument | null> {
    const { subscriptions } = this.deps;
    for (let attempt = 0; attempt < 8; attempt++) {
      const current = await subscriptions.findById(userId).lean();
      const next = change(current);
      if (!next) return current;
      if (!current) {
        try {
          return (await subscriptions.create({ ...next, _id: userId, version: 1 })).toObject();
        } catch (err) {
          if ((err as { code?: number }).code !== DUPLICATE_KEY) throw err;
          continue;
        }
      }
      const updated = await subscriptions
        .findOneAndUpdate(
          { _id: userId, version: current.version },
          { $set: stateOf(next), $inc: { version: 1 } },
          { new: true },
        )
        .lean();
      if (updated) return updated;
    }
    throw new Error(`subscription of ${userId}: too many concurrent changes`);
  }
}

/** Who recorded a plan change by hand, and why. */
type OperatorChange = Pick<PendingPlanChange, 'actor' | 'reason'>;

/**
 * Refuses to replace a subscription that Stripe or Paystack still renews (it would go on charging the person): 409,
 * naming the processor, so the operator cancels it first.
 */
function assertNotRenewingElsewhere(current: SubscriptionDocument | null, what: string): void {
  if (
    current &&
    current.processor !== 'contract' &&
    current.processor !== 'builtin' &&
    current.status !== 'canceled' &&
    current.renews &&
    !current.cancelAtPeriodEnd
  ) {
    throw new ConflictError(
      `This person pays for ${current.planId} through ${current.processor}, which renews it: cancel that subscription first, then ${what}.`,
      { processor: current.processor, planId: current.planId },
    );
  }
}

/** The state's fields, without the document's own bookkeeping that a caller may have spread in. */
function stateOf(state: SubscriptionState): SubscriptionState {
  const fields: Partial<SubscriptionDocument> = { ...state };
  delete fields._id;
  delete fields.version;
  delete fields.createdAt;
  delete fields.updatedAt;
  return fields as SubscriptionState;
}
