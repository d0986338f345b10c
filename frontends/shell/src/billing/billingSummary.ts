import type { Subscription } from '@kasa/contracts';

/**
 * What the Settings page says about a subscription (the contract's fields read together):
 * - `renews`: active, and the processor charges again at `date` (the end of the period paid for);
 * - `paidUntil`: active, a month bought outright that does not renew (nothing to cancel, resume or manage);
 * - `ending`: cancelled (at period end, or by the processor) but the plan stays until `date`;
 * - `grace`: a renewal failed; the plan stays until `date` while the processor retries, then Free;
 * - `ended`: the plan ended at `date`; the account is on Free;
 * - `contract`: an Enterprise contract agreed with sales, for `seats` seats until `date` (nothing to renew or manage).
 * `date` is null where the processor has not said yet.
 */
export type BillingStanding =
  | { kind: 'renews'; date: Date | null }
  | { kind: 'paidUntil'; date: Date | null }
  | { kind: 'ending'; date: Date | null }
  | { kind: 'grace'; date: Date | null }
  | { kind: 'ended'; date: Date | null }
  | { kind: 'contract'; date: Date | null; seats: number | null };

export type BillingStandingKind = BillingStanding['kind'];

const dateOf = (iso: string | null): Date | null => {
  if (!iso) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
};

/** Where a subscription stands at `now`. */
export function billingStanding(subscription: Subscription, now: Date = new Date()): BillingStanding {
  const periodEnd = dateOf(subscription.currentPeriodEnd);
  switch (subscription.status) {
    case 'past_due':
      return { kind: 'grace', date: dateOf(subscription.graceUntil) ?? periodEnd };
    case 'canceled': {
      const end = dateOf(subscription.endedAt) ?? periodEnd;
      return end && end > now ? { kind: 'ending', date: end } : { kind: 'ended', date: end };
    }
    case 'active':
      if (subscription.processor === 'contract' && !(periodEnd && periodEnd <= now)) {
        return { kind: 'contract', date: periodEnd, seats: subscription.seats };
      }
      if (!subscription.cancelAtPeriodEnd) return { kind: 'renews', date: periodEnd };
      if (periodEnd && periodEnd <= now) return { kind: 'ended', date: periodEnd };
      // A month bought outright (Paystack without a plan: mobile money) ends with its period too, but was never a
      // subscription to cancel: nothing to resume or manage, and another month can be bought before it ends.
      if (!subscription.canResume && !subscription.canManage) return { kind: 'paidUntil', date: periodEnd };
      return { kind: 'ending', date: periodEnd };
  }
}
