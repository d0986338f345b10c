import { addMonth, type PaymentSucceeded, type SubscriptionChanged } from './billingFacts';
import { applyChange, entitledTier, renewBuiltIn, startFromPayment, type SubscriptionState } from './subscriptionState';

const DAY = 24 * 3600_000;
const GRACE = 7 * DAY;
const t0 = new Date('2026-03-01T10:00:00.000Z');
const at = (ms: number) => new Date(t0.getTime() + ms);

function state(fields: Partial<SubscriptionState> = {}): SubscriptionState {
  return {
    processor: 'stripe',
    planId: 'pro',
    status: 'active',
    reference: 'KASA-AAAAAAAAAA',
    amount: 29,
    currency: 'USD',
    customerId: 'cus_1',
    subscriptionId: 'sub_1',
    subscriptionToken: null,
    renews: true,
    currentPeriodEnd: at(30 * DAY),
    cancelAtPeriodEnd: false,
    graceUntil: null,
    endedAt: null,
    stateAt: t0,
    syncedAt: null,
    appliedTier: 'pro',
    pendingPlanChanges: [],
    ...fields,
  };
}

const change = (fields: Partial<SubscriptionChanged>): SubscriptionChanged => ({
  kind: 'subscription',
  subscriptionId: 'sub_1',
  customerId: 'cus_1',
  reference: null,
  at: at(DAY),
  ...fields,
});

const paid = (fields: Partial<PaymentSucceeded> = {}): PaymentSucceeded => ({
  kind: 'payment_succeeded',
  reference: 'KASA-BBBBBBBBBB',
  paid: null,
  customerId: 'cus_1',
  subscriptionId: 'sub_2',
  periodEnd: null,
  renews: true,
  at: at(DAY),
  ...fields,
});

describe('the tier a subscription gives', () => {
  it('is the plan while active, also when set to end, until the end of the period paid for', () => {
    expect(entitledTier(state(), at(40 * DAY))).toBe('pro');
    const ending = state({ cancelAtPeriodEnd: true });
    expect(entitledTier(ending, at(30 * DAY - 1))).toBe('pro');
    expect(entitledTier(ending, at(30 * DAY))).toBe('free');
  });

  it('is the plan during the grace after a failed renewal, and Free after it', () => {
    const pastDue = state({ status: 'past_due', graceUntil: at(GRACE) });
    expect(entitledTier(pastDue, at(GRACE - 1))).toBe('pro');
    expect(entitledTier(pastDue, at(GRACE))).toBe('free');
  });

  it('is the plan until a cancelled subscription’s end, then Free', () => {
    const canceled = state({ status: 'canceled', endedAt: at(10 * DAY) });
    expect(entitledTier(canceled, at(10 * DAY - 1))).toBe('pro');
    expect(entitledTier(canceled, at(10 * DAY))).toBe('free');
  });
});

describe('applying a processor’s fact', () => {
  it('starts the grace at the first failure; a retry that fails again does not extend it', () => {
    const first = applyChange(state(), change({ status: 'past_due', at: at(DAY) }), GRACE);
    expect(first).toMatchObject({ status: 'past_due', graceUntil: at(DAY + GRACE) });
    const again = applyChange(first, change({ status: 'past_due', at: at(3 * DAY) }), GRACE);
    expect(again.graceUntil).toEqual(at(DAY + GRACE));
    expect(applyChange(again, change({ status: 'active', at: at(4 * DAY) }), GRACE)).toMatchObject({
      status: 'active',
      graceUntil: null,
    });
  });

  it('lets no older fact change the status, yet takes its ids and a later end of the period', () => {
    const pastDue = applyChange(
      state({ subscriptionId: null }),
      change({ status: 'past_due', at: at(5 * DAY) }),
      GRACE,
    );
    const late = applyChange(
      pastDue,
      change({ status: 'active', periodEnd: at(60 * DAY), subscriptionId: 'sub_1', at: at(2 * DAY) }),
      GRACE,
    );
    expect(late).toMatchObject({ status: 'past_due', currentPeriodEnd: at(60 * DAY), subscriptionId: 'sub_1' });
    expect(late.stateAt).toEqual(at(5 * DAY));
    // An earlier end of the period never shortens it.
    expect(applyChange(late, change({ periodEnd: at(30 * DAY), at: at(6 * DAY) }), GRACE).currentPeriodEnd).toEqual(
      at(60 * DAY),
    );
  });

  it('takes facts stamped in the same second as the state in the order they come (processors stamp whole seconds)', () => {
    const synced = state({ stateAt: new Date(t0.getTime() + 400) });
    expect(applyChange(synced, change({ status: 'past_due', at: t0 }), GRACE).status).toBe('past_due');
  });

  it('ends a cancelled subscription at the end of the period paid for, or where the processor says', () => {
    expect(applyChange(state(), change({ status: 'canceled', at: at(DAY) }), GRACE)).toMatchObject({
      status: 'canceled',
      endedAt: at(30 * DAY),
    });
    expect(applyChange(state(), change({ status: 'canceled', endedAt: at(DAY), at: at(DAY) }), GRACE).endedAt).toEqual(
      at(DAY),
    );
    const lapsed = state({ currentPeriodEnd: at(-DAY) });
    expect(applyChange(lapsed, change({ status: 'canceled', at: at(DAY) }), GRACE).endedAt).toEqual(at(DAY));
  });

  it('sets and clears the end at the period’s end (cancel and resume)', () => {
    const cancelled = applyChange(state(), change({ cancelAtPeriodEnd: true, at: at(DAY) }), GRACE);
    expect(cancelled).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });
    expect(applyChange(cancelled, change({ cancelAtPeriodEnd: false, at: at(2 * DAY) }), GRACE).cancelAtPeriodEnd).toBe(
      false,
    );
  });
});

describe('a payment starting a subscription', () => {
  const payment = {
    processor: 'stripe' as const,
    reference: 'KASA-BBBBBBBBBB',
    planId: 'pro' as const,
    amount: 29,
    currency: 'USD' as const,
  };

  it('starts a new subscription, keeping what billing applied before', () => {
    const started = startFromPayment(state({ status: 'canceled', appliedTier: 'free', stateAt: t0 }), payment, paid());
    expect(started).toMatchObject({
      reference: 'KASA-BBBBBBBBBB',
      status: 'active',
      subscriptionId: 'sub_2',
      appliedTier: 'free',
      cancelAtPeriodEnd: false,
    });
  });

  it('changes nothing of a newer subscription when an older payment is told late', () => {
    expect(startFromPayment(state({ stateAt: at(10 * DAY) }), payment, paid({ at: at(DAY) }))).toBeNull();
  });

  it('adds what a repeated report of the same payment knows, without restarting it', () => {
    const current = state({ reference: payment.reference, subscriptionId: null, currentPeriodEnd: null });
    expect(startFromPayment(current, payment, paid({ periodEnd: at(30 * DAY) }))).toMatchObject({
      subscriptionId: 'sub_2',
      currentPeriodEnd: at(30 * DAY),
      status: 'active',
    });
  });

  it('starts a month bought while another runs when that one ends', () => {
    const running = state({
      processor: 'paystack',
      renews: false,
      cancelAtPeriodEnd: true,
      currentPeriodEnd: at(20 * DAY),
    });
    const next = startFromPayment(
      running,
      { ...payment, processor: 'paystack', currency: 'GHS', amount: 350 },
      paid({ renews: false, periodEnd: addMonth(at(DAY)), at: at(DAY) }),
    );
    expect(next).toMatchObject({ renews: false, cancelAtPeriodEnd: true, currentPeriodEnd: addMonth(at(20 * DAY)) });
  });
});

describe('the built-in provider’s subscriptions', () => {
  it('renew month by month until cancelled', () => {
    const builtin = state({ processor: 'builtin', currentPeriodEnd: at(30 * DAY) });
    expect(renewBuiltIn(builtin, at(29 * DAY))).toBeNull();
    // 31 March → 30 April → 30 May, the first end after the 15th of May.
    expect(renewBuiltIn(builtin, at(75 * DAY))?.currentPeriodEnd).toEqual(addMonth(addMonth(at(30 * DAY))));
    expect(renewBuiltIn({ ...builtin, cancelAtPeriodEnd: true }, at(31 * DAY))).toBeNull();
  });
});

describe('a month', () => {
  it('is a calendar month, ending on the last day of a shorter one', () => {
    expect(addMonth(new Date('2026-01-31T12:00:00Z'))).toEqual(new Date('2026-02-28T12:00:00Z'));
    expect(addMonth(new Date('2028-01-31T12:00:00Z'))).toEqual(new Date('2028-02-29T12:00:00Z'));
    expect(addMonth(new Date('2026-12-15T00:00:00Z'))).toEqual(new Date('2027-01-15T00:00:00Z'));
  });
});
