import { PLAN_ORDER, PLANS, type SubscriptionTier } from '@kasa/contracts';

/** The limits of the public API: calls per month by plan (null: unlimited) and requests per minute. */
export interface QuotaLimits {
  monthly: Record<SubscriptionTier, number | null>;
  perMinute: number;
}

const PLAN_NAMES: Record<SubscriptionTier, string> = { free: 'Free', pro: 'Pro', enterprise: 'Enterprise' };
/** The plan above, from the plans table (none above the top one). */
const nextPlan = (tier: SubscriptionTier): SubscriptionTier | undefined => PLAN_ORDER[PLANS[tier].rank + 1];

const formatCount = (n: number) => n.toLocaleString('en-US');
const formatDay = (ms: number) =>
  new Date(ms).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/**
 * e.g. "Monthly API call quota of the Free plan (1,000 calls) reached; upgrade to Pro for 50,000 calls a month.
 * The quota resets on 1 August 2026 (UTC)."
 */
export function monthlyQuotaMessage(limits: QuotaLimits, tier: SubscriptionTier, resetMs: number): string {
  const limit = limits.monthly[tier] ?? 0;
  const next = nextPlan(tier);
  const nextLimit = next ? limits.monthly[next] : undefined;
  const upgrade =
    next && nextLimit !== undefined
      ? `; upgrade to ${PLAN_NAMES[next]} for ${nextLimit === null ? 'unlimited calls' : `${formatCount(nextLimit)} calls a month`}`
      : '';
  return (
    `Monthly API call quota of the ${PLAN_NAMES[tier]} plan (${formatCount(limit)} calls) reached${upgrade}. ` +
    `The quota resets on ${formatDay(resetMs)} (UTC).`
  );
}

/** e.g. "Rate limit of 1,000 requests per minute reached for this API key; try again in 12 seconds." */
export function perMinuteMessage(limits: QuotaLimits, withApiKey: boolean, retryAfterSeconds: number): string {
  const who = withApiKey ? 'this API key' : 'your account';
  const wait = `${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}`;
  return `Rate limit of ${formatCount(limits.perMinute)} requests per minute reached for ${who}; try again in ${wait}.`;
}
