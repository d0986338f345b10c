import { AuthenticationError, PlanRequiredError, requireIdentity, type Identity } from '@kasa/service-kit';
import { allows } from '@kasa/contracts';
import type { RequestHandler } from 'express';

/**
 * Voice features are part of the Pro plan (spec section 6; the plans table decides): a caller without identity gets
 * 401, one whose plan lacks voice a 403 naming the plan, before anything is read or a provider is paid.
 */
export function requireProPlan(feature: string): RequestHandler[] {
  return [
    requireIdentity(),
    (_req, res, next) => {
      const identity = res.locals.identity as Identity | undefined;
      if (!identity) return next(new AuthenticationError(`Authentication required: sign in to use ${feature}`));
      if (!allows(identity.tier, 'voice')) {
        return next(
          new PlanRequiredError(
            'voice',
            `${feature[0]!.toUpperCase()}${feature.slice(1)} is part of the Pro plan. Upgrade to Pro to use it.`,
          ),
        );
      }
      next();
    },
  ];
}
