import { allows, requiredPlan, type PlanFeature, type SubscriptionTier } from '@kasa/contracts';
import type { RequestHandler } from 'express';
import { NotAllowedError } from './errors';
import { identityOf } from './identity';

const PLAN_NAMES: Record<SubscriptionTier, string> = { free: 'Free', pro: 'Pro', enterprise: 'Enterprise' };

/**
 * 403: the caller's plan does not allow the feature. `details.plan` names the cheapest plan that does (from the plans
 * table), which the web app's upgrade prompts read.
 */
export class PlanRequiredError extends NotAllowedError {
  readonly plan: SubscriptionTier;
  constructor(
    readonly feature: PlanFeature,
    /** The route's own sentence; by default "This is part of the Pro plan. Upgrade to Pro to use it." */
    message?: string,
    details?: Record<string, unknown>,
  ) {
    const plan = requiredPlan(feature);
    const name = PLAN_NAMES[plan];
    super(message ?? `This is part of the ${name} plan. Upgrade to ${name} to use it.`, { plan, ...details });
    this.plan = plan;
  }
}

/** Throws PlanRequiredError unless the tier allows the feature (PLANS in @kasa/contracts decides). */
export function assertPlanAllows(
  tier: SubscriptionTier,
  feature: PlanFeature,
  message?: string,
  details?: Record<string, unknown>,
): void {
  if (!allows(tier, feature)) throw new PlanRequiredError(feature, message, details);
}

/**
 * Express middleware after `requireIdentity()`: refuses (403 naming the plan) a caller whose plan does not allow the
 * feature, before the body is read or any work starts.
 */
export function requirePlan(feature: PlanFeature, message?: string): RequestHandler {
  return (_req, res, next) => {
    if (allows(identityOf(res).tier, feature)) return next();
    next(new PlanRequiredError(feature, message));
  };
}

/** A plan's display name ("Pro"), for messages. */
export const planName = (tier: SubscriptionTier): string => PLAN_NAMES[tier];
