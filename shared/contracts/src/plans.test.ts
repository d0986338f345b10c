import { DEFAULT_MONTHLY_API_CALLS } from './billing';
import {
  ADD_ONS,
  allows,
  canBuyAddOn,
  isPaid,
  isUpgrade,
  limitsOf,
  PLAN_FEATURES,
  PLAN_ORDER,
  PLANS,
  requiredPlan,
  saleOf,
} from './plans';

describe('the plans table', () => {
  it('answers what each plan includes from one row', () => {
    expect(allows('free', 'voice')).toBe(false);
    expect(allows('pro', 'voice')).toBe(true);
    expect(allows('pro', 'video')).toBe(false);
    expect(allows('enterprise', 'video')).toBe(true);
    expect(allows(undefined, 'voice')).toBe(false);
    expect(allows('platinum', 'voice')).toBe(false);
  });

  it('names the cheapest plan for every feature, and every feature is sold somewhere', () => {
    for (const feature of PLAN_FEATURES) expect(PLAN_ORDER).toContain(requiredPlan(feature));
    expect(requiredPlan('attachments')).toBe('pro');
    expect(requiredPlan('customPersonas')).toBe('enterprise');
  });

  it('orders the plans for upgrades and downgrades', () => {
    expect(PLAN_ORDER).toEqual(['free', 'pro', 'enterprise']);
    expect(isUpgrade('free', 'pro')).toBe(true);
    expect(isUpgrade('enterprise', 'pro')).toBe(false);
  });

  it('is where the monthly quotas and prices come from', () => {
    expect(DEFAULT_MONTHLY_API_CALLS).toEqual({ free: 1_000, pro: 50_000, enterprise: null });
    expect(PLANS.pro.prices.USD).toBe(29);
  });

  it('says how many webhook endpoints each plan may register', () => {
    expect(PLAN_ORDER.map((tier) => limitsOf(tier).webhookEndpoints)).toEqual([1, 10, 50]);
    expect(PLANS.free.limits.concurrentReplies).toBe(PLANS.enterprise.limits.concurrentReplies);
  });

  it('says which plans are paid for and how each is sold', () => {
    expect(isPaid('free')).toBe(false);
    expect(isPaid('pro')).toBe(true);
    expect(isPaid('enterprise')).toBe(true);
    expect(isPaid(undefined)).toBe(false);
    expect(PLAN_ORDER.map(saleOf)).toEqual(['none', 'checkout', 'sales']);
  });

  it('sells extra-calls packs to the plans that allow them, at a price in every currency', () => {
    expect(canBuyAddOn('free', 'extra-calls')).toBe(false);
    expect(canBuyAddOn('pro', 'extra-calls')).toBe(true);
    expect(canBuyAddOn('enterprise', 'extra-calls')).toBe(false);
    expect(requiredPlan(ADD_ONS['extra-calls'].feature)).toBe('pro');
    expect(ADD_ONS['extra-calls'].calls).toBe(10_000);
    expect(ADD_ONS['extra-calls'].prices.USD).toBe(5);
  });
});
