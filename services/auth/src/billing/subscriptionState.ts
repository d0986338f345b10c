import type { SubscriptionTier } from '@kasa/contracts';
import { addMonth, type PaymentSucceeded, type SubscriptionChanged } from './billingFacts';
import type { SubscriptionDocument } from './subscriptionModel';

// The rules of a subscription's life, as pure functions of its state and a processor's fact: which facts apply (an
// older one never overrides a newer state; the period paid for only ever grows), how a failed renewal starts the
// grace period, and which tier the subscription gives at a moment. SubscriptionLedger stores what they decide.

/** A subscription's state: the stored document without its bookkeeping. */
export type SubscriptionState = Omit<SubscriptionDocument, '_id' | 'version' | 'createdAt' | 'updatedAt'>;

/** The tier a subscription gives at `now`: its plan while paid for (or within grace), else Free. */
export function entitledTier(state: SubscriptionState, now: Date): SubscriptionTier {
  switch (state.status) {
    case 'active':
      return state.cancelAtPeriodEnd && state.currentPeriodEnd && now >= state.currentPeriodEnd ? 'free' : state.planId;
    case 'past_due':
      return state.graceUntil && now < state.graceUntil ? state.planId : 'free';
    case 'canceled':
      return state.endedAt && now < state.endedAt ? state.planId : 'free';
  }
}

const later = (a: Date | null, b: Date | null | undefined): Date | null => (!b ? a : !a || b > a ? b : a);

/**
 * Processors stamp their events in whole seconds, Kasa's own changes (a sync's answer, a cancellation) in
 * milliseconds: a fact is older than the state only by more than this, and facts within it apply in arrival order.
 */
const TIMESTAMP_RESOLUTION_MS = 1_000;

/**
 * The state after a fact about the subscription. Ids and the period paid for are taken from any fact (they only
 * fill in or grow); status and cancellation only from a fact at least as recent as the state (`stateAt`), so
 * repeated, late and out-of-order deliveries change nothing they should not.
 */
export function applyChange(state: SubscriptionState, fact: SubscriptionChanged, graceMs: number): SubscriptionState {
  const next: SubscriptionState = {
    ...state,
    customerId: state.customerId ?? fact.customerId,
    subscriptionId: state.subscriptionId ?? fact.subscriptionId,
    subscriptionToken: fact.subscriptionToken ?? state.subscriptionToken,
    currentPeriodEnd: later(state.currentPeriodEnd, fact.periodEnd),
  };
  if (fact.at.getTime() <= state.stateAt.getTime() - TIMESTAMP_RESOLUTION_MS) return next;
  if (fact.at > state.stateAt) next.stateAt = fact.at;
  if (fact.cancelAtPeriodEnd !== undefined) next.cancelAtPeriodEnd = fact.cancelAtPeriodEnd;
  switch (fact.status) {
    case 'active':
      return { ...next, status: 'active', graceUntil: null, endedAt: null };
    case 'past_due':
      // Grace runs from the first failure; the processor's retries do not extend it.
      return {
        ...next,
        status: 'past_due',
        graceUntil:
          state.status === 'past_due' && state.graceUntil ? state.graceUntil : new Date(fact.at.getTime() + graceMs),
        endedAt: null,
      };
    case 'canceled': {
      // Ended where the processor says, else at the end of the period paid for (never before the cancellation).
      const paidThrough = next.currentPeriodEnd && next.currentPeriodEnd > fact.at ? next.currentPeriodEnd : fact.at;
      return { ...next, status: 'canceled', endedAt: fact.endedAt ?? paidThrough, graceUntil: null };
    }
    default:
      return next;
  }
}

/** What a payment the subscription is started (or extended) by. */
export interface StartingPayment {
  processor: SubscriptionState['processor'];
  reference: string;
  planId: SubscriptionState['planId'];
  amount: number;
  currency: SubscriptionState['currency'];
}

/**
 * The state after a checkout's money arrived: the subscription it started, or (the same payment told again) the
 * same one with what is new. A payment older than the person's current subscription changes nothing of it. A
 * Paystack month bought while another bought month runs starts when that one ends.
 */
export function startFromPayment(
  current: SubscriptionState | null,
  payment: StartingPayment,
  fact: PaymentSucceeded,
): SubscriptionState | null {
  if (current && current.reference === payment.reference) {
    return applyChange(
      current,
      {
        kind: 'subscription',
        subscriptionId: fact.subscriptionId,
        customerId: fact.customerId,
        reference: fact.reference,
        status: 'active',
        periodEnd: fact.periodEnd,
        at: fact.at,
      },
      0,
    );
  }
  if (current && fact.at < current.stateAt) return null;
  const runningMonth =
    current && !current.renews && !fact.renews && current.status === 'active' && current.currentPeriodEnd
      ? current.currentPeriodEnd
      : null;
  const periodEnd = runningMonth && runningMonth > fact.at ? addMonth(runningMonth) : fact.periodEnd;
  return {
    processor: payment.processor,
    planId: payment.planId,
    status: 'active',
    reference: payment.reference,
    amount: payment.amount,
    currency: payment.currency,
    customerId: fact.customerId ?? (current?.processor === payment.processor ? current.customerId : null),
    subscriptionId: fact.subscriptionId,
    subscriptionToken: null,
    renews: fact.renews,
    currentPeriodEnd: periodEnd,
    // Nothing renews a bought month: it ends with its period.
    cancelAtPeriodEnd: !fact.renews,
    graceUntil: null,
    endedAt: null,
    stateAt: fact.at,
    syncedAt: null,
    appliedTier: current?.appliedTier ?? 'free',
    pendingPlanChanges: current?.pendingPlanChanges ?? [],
  };
}

/** A built-in (test-mode) subscription whose period ended renews by itself, month by month, unless cancelled. */
export function renewBuiltIn(state: SubscriptionState, now: Date): SubscriptionState | null {
  if (state.processor !== 'builtin' || state.status !== 'active' || state.cancelAtPeriodEnd) return null;
  if (!state.currentPeriodEnd || state.currentPeriodEnd > now) return null;
  let end = state.currentPeriodEnd;
  while (end <= now) end = addMonth(end);
  return { ...state, currentPeriodEnd: end, stateAt: now };
}
