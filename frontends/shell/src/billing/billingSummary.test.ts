import type { Subscription } from '@kasa/contracts';
import { billingStanding } from './billingSummary';

const NOW = new Date('2026-03-10T12:00:00Z');
const LATER = '2026-04-10T12:00:00.000Z';
const EARLIER = '2026-03-01T12:00:00.000Z';

function subscription(overrides: Partial<Subscription> = {}): Subscription {
  return {
    processor: 'builtin',
    planId: 'pro',
    planName: 'Pro',
    status: 'active',
    effectiveTier: 'pro',
    amount: 29,
    currency: 'USD',
    currentPeriodEnd: LATER,
    cancelAtPeriodEnd: false,
    graceUntil: null,
    endedAt: null,
    reference: 'KASA-7M3QK9D2XH',
    canManage: true,
    canCancel: true,
    canResume: false,
    seats: null,
    ...overrides,
  };
}

describe('billingStanding', () => {
  it('renews at the end of the period paid for while active', () => {
    expect(billingStanding(subscription(), NOW)).toEqual({ kind: 'renews', date: new Date(LATER) });
  });

  it('has no renewal date until the processor has said one', () => {
    expect(billingStanding(subscription({ currentPeriodEnd: null }), NOW)).toEqual({ kind: 'renews', date: null });
  });

  it('ends at the end of the period once cancelled at period end, and has ended after it', () => {
    const cancelled = subscription({ cancelAtPeriodEnd: true, canCancel: false, canResume: true });
    expect(billingStanding(cancelled, NOW)).toEqual({ kind: 'ending', date: new Date(LATER) });
    expect(billingStanding({ ...cancelled, currentPeriodEnd: EARLIER }, NOW)).toEqual({
      kind: 'ended',
      date: new Date(EARLIER),
    });
  });

  it('keeps the plan until the grace period ends when a renewal failed', () => {
    const pastDue = subscription({ status: 'past_due', graceUntil: LATER, currentPeriodEnd: EARLIER });
    expect(billingStanding(pastDue, NOW)).toEqual({ kind: 'grace', date: new Date(LATER) });
  });

  it('says a cancelled subscription ends at endedAt, or has ended once that is past', () => {
    const canceled = subscription({ status: 'canceled', canManage: false, canCancel: false });
    expect(billingStanding({ ...canceled, endedAt: LATER }, NOW)).toEqual({ kind: 'ending', date: new Date(LATER) });
    expect(billingStanding({ ...canceled, endedAt: EARLIER, effectiveTier: 'free' }, NOW)).toEqual({
      kind: 'ended',
      date: new Date(EARLIER),
    });
  });

  it('tells a month bought outright, which ends with its period, from a cancelled subscription', () => {
    const prepaid = subscription({
      processor: 'paystack',
      cancelAtPeriodEnd: true,
      canManage: false,
      canCancel: false,
      canResume: false,
    });
    expect(billingStanding(prepaid, NOW)).toEqual({ kind: 'paidUntil', date: new Date(LATER) });
    expect(billingStanding({ ...prepaid, currentPeriodEnd: EARLIER }, NOW)).toEqual({
      kind: 'ended',
      date: new Date(EARLIER),
    });
  });

  it('says a subscription renews even before the processor lets it be cancelled or managed', () => {
    const fresh = subscription({ processor: 'stripe', canManage: false, canCancel: false, canResume: false });
    expect(billingStanding(fresh, NOW)).toEqual({ kind: 'renews', date: new Date(LATER) });
  });

  it('reads an unreadable date as no date', () => {
    expect(billingStanding(subscription({ currentPeriodEnd: 'soon' }), NOW)).toEqual({ kind: 'renews', date: null });
  });

  it('is an Enterprise contract with its seats until its end date, then has ended', () => {
    const contract = subscription({
      processor: 'contract',
      planId: 'enterprise',
      cancelAtPeriodEnd: true,
      canManage: false,
      canCancel: false,
      seats: 25,
    });
    expect(billingStanding(contract, NOW)).toEqual({ kind: 'contract', date: new Date(LATER), seats: 25 });
    expect(billingStanding({ ...contract, currentPeriodEnd: EARLIER }, NOW)).toEqual({
      kind: 'ended',
      date: new Date(EARLIER),
    });
  });
});
