import type { SubscriptionTier } from './auth';

// No zod here: the web app imports this file as it is (`@kasa/contracts/src/plans`), so its gates ask the same table
// as the services' without loading the contracts' schemas.

/**
 * Everything a plan can unlock. Every gate in the services and the web app names one of these and asks `allows`;
 * none compares tiers itself.
 * - voice: speech in and out (synthesis, transcription, voice messages, voice mode);
 * - languages: replying in (and choosing) any of the 120+ languages, not only English and the browser's language;
 * - attachments: images and documents sent with messages;
 * - geo: answers that use the caller's location;
 * - customPersonas: personas of one's own;
 * - video: video generation;
 * - teams: teams with seats, team keys and shared quota;
 * - extraCalls: extra-calls packs on top of the monthly calls.
 */
export const PLAN_FEATURES = [
  'voice',
  'languages',
  'attachments',
  'geo',
  'customPersonas',
  'video',
  'teams',
  'extraCalls',
] as const;
export type PlanFeature = (typeof PLAN_FEATURES)[number];

/** Currencies Kasa charges in: US dollars, and the cedi, naira and shilling through Paystack. */
export const PLAN_CURRENCIES = ['USD', 'GHS', 'NGN', 'KES'] as const;
export type PlanCurrency = (typeof PLAN_CURRENCIES)[number];

/** What one plan allows: the one row of the table that every gate, quota and price reads. */
export interface PlanRules {
  tier: SubscriptionTier;
  /** Listed from the cheapest plan up; a plan's rank orders upgrades and downgrades. */
  rank: number;
  features: readonly PlanFeature[];
  /** API calls a month (null: unlimited). The gateway enforces them; status reports usage against them. */
  monthlyCalls: number | null;
  limits: {
    /** Replies being written at once, per person (/api/chat and /v1 together). */
    concurrentReplies: number;
    /** Speech syntheses at once, per person. */
    concurrentSyntheses: number;
    /** Transcriptions at once, per person. */
    concurrentTranscriptions: number;
    /** Attachments being processed at once, per person. */
    concurrentUploads: number;
    /** Video jobs queued or running at once, per person. */
    concurrentVideos: number;
    /** Developer webhook endpoints one person (or team) may register. */
    webhookEndpoints: number;
  };
  /** The monthly price in each currency's major unit (0: free). */
  prices: Readonly<Record<PlanCurrency, number>>;
  /**
   * How the plan is bought: `none` (nothing to pay), `checkout` (paid through the payment processors) or `sales`
   * (agreed with the sales team, who invoice it).
   */
  sale: 'none' | 'checkout' | 'sales';
  /** One-off packs this plan may buy on top of it (see ADD_ONS). */
  addOns: readonly AddOnId[];
}

/** One-off add-ons: what they are called by the API and the web app. */
export const ADD_ON_IDS = ['extra-calls'] as const;
export type AddOnId = (typeof ADD_ON_IDS)[number];

/** A one-off pack bought on top of a plan. */
export interface AddOnRules {
  id: AddOnId;
  /** The feature a plan must allow to buy it (`allows(tier, feature)`); PlanRules.addOns lists the same. */
  feature: PlanFeature;
  /** API calls it adds to the month it is bought in (UTC calendar month); they end with that month. */
  calls: number;
  /** The price of one pack in each currency's major unit. */
  prices: Readonly<Record<PlanCurrency, number>>;
}

/**
 * The add-ons table: an extra-calls pack adds 10,000 API calls to the month it is bought in, on top of the plan's
 * monthly calls (the FAQ's "Pro can buy extra calls").
 */
export const ADD_ONS: Readonly<Record<AddOnId, AddOnRules>> = {
  'extra-calls': {
    id: 'extra-calls',
    feature: 'extraCalls',
    calls: 10_000,
    prices: { USD: 5, GHS: 60, NGN: 7_500, KES: 650 },
  },
};

const SHARED_LIMITS: Omit<PlanRules['limits'], 'webhookEndpoints'> = {
  concurrentReplies: 10,
  concurrentSyntheses: 2,
  concurrentTranscriptions: 2,
  // The most files one message carries (ATTACHMENT_LIMITS.perMessage): the composer uploads them all at once.
  concurrentUploads: 4,
  concurrentVideos: 2,
};

/** The table. Prices outside USD are set per market (not converted), as Paystack's plans are. */
export const PLANS: Readonly<Record<SubscriptionTier, PlanRules>> = {
  free: {
    tier: 'free',
    rank: 0,
    features: [],
    monthlyCalls: 1_000,
    limits: { ...SHARED_LIMITS, webhookEndpoints: 1 },
    prices: { USD: 0, GHS: 0, NGN: 0, KES: 0 },
    sale: 'none',
    addOns: [],
  },
  pro: {
    tier: 'pro',
    rank: 1,
    features: ['voice', 'languages', 'attachments', 'geo', 'extraCalls'],
    monthlyCalls: 50_000,
    limits: { ...SHARED_LIMITS, webhookEndpoints: 10 },
    prices: { USD: 29, GHS: 350, NGN: 45_000, KES: 3_700 },
    sale: 'checkout',
    addOns: ['extra-calls'],
  },
  enterprise: {
    tier: 'enterprise',
    rank: 2,
    features: ['voice', 'languages', 'attachments', 'geo', 'customPersonas', 'video', 'teams'],
    monthlyCalls: null,
    limits: { ...SHARED_LIMITS, webhookEndpoints: 50 },
    prices: { USD: 199, GHS: 2_400, NGN: 310_000, KES: 25_500 },
    sale: 'sales',
    addOns: [],
  },
};

/** The plans from the cheapest up. */
export const PLAN_ORDER: readonly SubscriptionTier[] = Object.values(PLANS)
  .sort((a, b) => a.rank - b.rank)
  .map((plan) => plan.tier);

/** Whether a plan allows a feature. An unknown or missing tier allows nothing. */
export function allows(tier: SubscriptionTier | string | null | undefined, feature: PlanFeature): boolean {
  const plan = tier ? PLANS[tier as SubscriptionTier] : undefined;
  return plan?.features.includes(feature) ?? false;
}

/** The cheapest plan that allows a feature: the one an upgrade message names. */
export function requiredPlan(feature: PlanFeature): SubscriptionTier {
  const tier = PLAN_ORDER.find((candidate) => allows(candidate, feature));
  if (!tier) throw new Error(`no plan allows ${feature}`);
  return tier;
}

/** Whether moving from one plan to another is an upgrade (prorated at once) rather than a downgrade. */
export const isUpgrade = (from: SubscriptionTier, to: SubscriptionTier): boolean => PLANS[to].rank > PLANS[from].rank;

/** The plan's limits, e.g. `limitsOf(tier).concurrentSyntheses`, `limitsOf(tier).webhookEndpoints`. */
export const limitsOf = (tier: SubscriptionTier): PlanRules['limits'] => PLANS[tier].limits;

/** Whether a plan is paid for (every plan but Free). An unknown or missing tier is not. */
export function isPaid(tier: SubscriptionTier | string | null | undefined): boolean {
  const plan = tier ? PLANS[tier as SubscriptionTier] : undefined;
  return plan !== undefined && plan.sale !== 'none';
}

/** How a plan is bought (see PlanRules.sale). */
export const saleOf = (tier: SubscriptionTier): PlanRules['sale'] => PLANS[tier].sale;

/** Whether a plan may buy an add-on: the plan lists it and allows its feature. */
export function canBuyAddOn(tier: SubscriptionTier | string | null | undefined, addOn: AddOnId): boolean {
  const plan = tier ? PLANS[tier as SubscriptionTier] : undefined;
  return Boolean(plan?.addOns.includes(addOn)) && allows(tier, ADD_ONS[addOn].feature);
}
