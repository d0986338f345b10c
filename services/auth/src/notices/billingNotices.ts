import type { PlanId } from '@kasa/contracts';
import { NotFoundError, type Logger } from '@kasa/service-kit';
import type { UserService } from '../users/userService';
import type { EmailNotices } from './emailNotices';

/** The subscription a billing notice is about (the ledger's document, read after its change). */
export interface NoticedSubscription {
  /** The person's id (one subscription per person). */
  _id: string;
  /** The payment that started this subscription: with the grace end, it makes the notice's id. */
  reference: string;
  planId: PlanId;
  graceUntil: Date | null;
}

/** What billing tells the owner by e-mail; each notice goes once per transition, however often a fact arrives. */
export interface SubscriptionNotices {
  /** The renewal payment failed: the plan is kept until `graceUntil`. */
  renewalFailed(subscription: NoticedSubscription, requestId?: string): Promise<void>;
  /** The grace that ended at `graceUntil` is over: the account is on Free now. */
  planLapsed(subscription: NoticedSubscription, graceUntil: Date, requestId?: string): Promise<void>;
}

/**
 * The billing notices as account notices (`renewal_failed`, `plan_lapsed`). Their event ids are made from the
 * subscription (its starting payment's reference) and the end of the grace, so a webhook delivered twice, a sync that
 * tells the same state, or two replicas applying it at once store and send one notice. Never throws: a notice that
 * cannot be stored is logged, and billing goes on.
 */
export class BillingNotices implements SubscriptionNotices {
  constructor(
    private readonly deps: {
      notices: Pick<EmailNotices, 'send'>;
      users: Pick<UserService, 'findById'>;
      logger: Logger;
      now?: () => Date;
    },
  ) {}

  async renewalFailed(subscription: NoticedSubscription, requestId?: string): Promise<void> {
    const graceUntil = subscription.graceUntil;
    // A failure told so late that its grace is already over: the lapse notice says what matters.
    if (!graceUntil || graceUntil <= this.now()) return;
    await this.notify('renewal_failed', subscription, graceUntil, requestId);
  }

  async planLapsed(subscription: NoticedSubscription, graceUntil: Date, requestId?: string): Promise<void> {
    await this.notify('plan_lapsed', subscription, graceUntil, requestId);
  }

  private async notify(
    notice: 'renewal_failed' | 'plan_lapsed',
    subscription: NoticedSubscription,
    graceUntil: Date,
    requestId?: string,
  ): Promise<void> {
    const { logger } = this.deps;
    try {
      const user = await this.deps.users.findById(subscription._id).catch((err: unknown) => {
        if (err instanceof NotFoundError) return null;
        throw err;
      });
      if (!user) return;
      await this.deps.notices.send(
        {
          userId: subscription._id,
          email: user.email,
          notice,
          occurredAt: this.now(),
          planId: subscription.planId,
          graceUntil,
          eventId: billingNoticeId(notice, subscription.reference, graceUntil),
        },
        requestId,
      );
    } catch (err) {
      logger.warn({ err, userId: subscription._id, notice }, 'billing notice not stored');
    }
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }
}

/** The one event id of a billing notice for a subscription's grace: `renewal_failed:KASA-…:2026-12-14T10:00:00.000Z`. */
export function billingNoticeId(notice: 'renewal_failed' | 'plan_lapsed', reference: string, graceUntil: Date): string {
  return `${notice}:${reference}:${graceUntil.toISOString()}`;
}
