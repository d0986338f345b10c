import { PUBLISH_WAIT_MS, type EventBus, type Logger } from '@kasa/service-kit';
import type { Model } from 'mongoose';
import { randomUUID } from 'node:crypto';
import { toMinorUnits, type PaymentSucceeded } from './billingFacts';
import type { CheckoutClaims } from './checkoutClaims';
import type { PaymentDocument } from './paymentModel';
import type { FactOutcome } from './subscriptionLedger';

export interface AddOnLedgerDeps {
  payments: Model<PaymentDocument>;
  claims: Pick<CheckoutClaims, 'release'>;
  bus: Pick<EventBus, 'publishWithin'>;
  logger: Logger;
  now: () => Date;
}

/** The calendar month (UTC) of a moment, as the gateway names its monthly quota windows: `2026-12`. */
export function quotaMonthOf(at: Date): string {
  return `${at.getUTCFullYear()}-${String(at.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** How many of a person's packs one month's total is read from at most (a person buys a handful a month). */
const MAX_PACKS_A_MONTH = 1_000;

/**
 * Add-on packs once paid: the payment completes (only on a verified fact: the built-in provider's own completion, a
 * processor's signed webhook or its answer to our question, with the amount and currency asked for), its calls go
 * to the month it completed in, and `auth.user.calls_added` tells the gateway, which raises that month's quota at once.
 * Nothing about the plan or the subscription changes. The event waits as an outbox marker on the payment until the
 * broker confirms it, and carries the month's total so that a repeat never adds twice.
 */
export class AddOnLedger {
  constructor(private readonly deps: AddOnLedgerDeps) {}

  /** A pack's money arrived: completes its payment (the first time only) and announces the calls. */
  async paymentSucceeded(fact: PaymentSucceeded, processor: string, requestId?: string): Promise<FactOutcome> {
    const { payments, logger } = this.deps;
    const payment = await payments.findOne({ reference: fact.reference }).lean();
    if (!payment?.addOnId || payment.provider !== processor) {
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
    await this.complete(payment.reference, null, requestId);
    return 'applied';
  }

  /**
   * Marks a pack's payment completed (the first completion wins; money for a checkout given up on still counts), with
   * the month its calls belong to, then announces them. Answers the payment as it stands.
   */
  async complete(
    reference: string,
    providerReference: string | null,
    requestId?: string,
  ): Promise<PaymentDocument | null> {
    const { payments, claims, logger } = this.deps;
    const at = this.deps.now();
    const completed = await payments
      .findOneAndUpdate(
        { reference, addOnId: { $ne: null }, status: { $ne: 'completed' } },
        {
          $set: {
            status: 'completed',
            completedAt: at,
            quotaMonth: quotaMonthOf(at),
            redirectUrl: null,
            pendingCallsAddedEventId: randomUUID(),
            ...(providerReference ? { providerReference } : {}),
          },
        },
        { new: true },
      )
      .lean();
    if (!completed) return payments.findOne({ reference }).lean();
    await claims.release(completed.userId, reference).catch((err: unknown) => {
      logger.warn({ err, reference }, 'checkout claim not released');
    });
    logger.info({ reference, userId: completed.userId, addOnId: completed.addOnId }, 'add-on pack paid');
    await this.publish(completed, requestId);
    return completed;
  }

  /** Re-sends the announcements the broker never confirmed (same event ids). */
  async republishPending(olderThanMs = 10_000): Promise<number> {
    const stale = await this.deps.payments
      .find({
        pendingCallsAddedEventId: { $ne: null },
        completedAt: { $lt: new Date(this.deps.now().getTime() - olderThanMs) },
      })
      .limit(100)
      .lean();
    for (const doc of stale) await this.publish(doc);
    return stale.length;
  }

  /** The extra calls a person bought for a month, all packs together. */
  async callsOfMonth(userId: string, month: string): Promise<number> {
    const packs = await this.deps.payments
      .find({ userId, status: 'completed', addOnId: { $ne: null }, quotaMonth: month }, { calls: 1 })
      .limit(MAX_PACKS_A_MONTH)
      .maxTimeMS(5_000)
      .lean();
    return packs.reduce((sum, pack) => sum + (pack.calls ?? 0), 0);
  }

  /** Publishes auth.user.calls_added and clears the marker once the broker confirms (never holding up the caller). */
  private async publish(doc: PaymentDocument, requestId?: string): Promise<void> {
    const eventId = doc.pendingCallsAddedEventId;
    if (!eventId || !doc.addOnId || !doc.calls || !doc.quotaMonth) return;
    const month = doc.quotaMonth;
    let monthCalls: number;
    try {
      monthCalls = await this.callsOfMonth(doc.userId, month);
    } catch (err) {
      this.deps.logger.warn({ err, eventId }, 'auth.user.calls_added not yet published; will retry');
      return;
    }
    await this.deps.bus.publishWithin(
      'auth.user.calls_added',
      {
        userId: doc.userId,
        reference: doc.reference,
        addOnId: doc.addOnId,
        calls: doc.calls,
        month,
        monthCalls: Math.max(monthCalls, doc.calls),
      },
      PUBLISH_WAIT_MS,
      {
        id: eventId,
        requestId,
        onSettled: (confirmed) =>
          confirmed
            ? this.deps.payments.updateOne(
                { _id: doc._id, pendingCallsAddedEventId: eventId },
                { $set: { pendingCallsAddedEventId: null } },
              )
            : this.deps.logger.warn({ eventId }, 'auth.user.calls_added not yet published; will retry'),
      },
    );
  }
}
