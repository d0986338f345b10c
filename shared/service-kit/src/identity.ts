import { GatewayIdentityHeaders, SubscriptionTier } from '@kasa/contracts';
import { AuthenticationError } from './errors';
import type { RequestHandler, Response } from 'express';
import { z } from 'zod';

/** Who is calling, as the gateway vouched for it after verifying the token or API key. */
export interface Identity {
  userId: string;
  username: string;
  tier: SubscriptionTier;
}

const IdentityHeaders = z.object({
  userId: z.string().trim().min(1).max(128),
  username: z.string().trim().min(1).max(128),
  tier: SubscriptionTier,
});

/** The gateway percent-encodes the username (headers are Latin-1; names are not). */
function decodeHeader(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

/**
 * Requires the identity headers the gateway forwards (`x-kasa-user-id`, `x-kasa-username`, `x-kasa-tier`) and puts
 * the identity on `res.locals.identity`. A service trusts them because only the gateway can reach it (it
 * listens on loopback or inside the cluster's network policy); a request without them gets a 401.
 */
export function requireIdentity(): RequestHandler {
  return (req, res, next) => {
    const parsed = IdentityHeaders.safeParse({
      userId: req.get(GatewayIdentityHeaders.userId),
      username: decodeHeader(req.get(GatewayIdentityHeaders.username)),
      tier: req.get(GatewayIdentityHeaders.tier)?.toLowerCase(),
    });
    if (!parsed.success) {
      next(new AuthenticationError('Authentication required: sign in or send an API key'));
      return;
    }
    res.locals.identity = parsed.data satisfies Identity;
    next();
  };
}

/** The identity `requireIdentity` established; throws a 401 if the route forgot the middleware. */
export function identityOf(res: Response): Identity {
  const identity = res.locals.identity as Identity | undefined;
  if (!identity) throw new AuthenticationError();
  return identity;
}
