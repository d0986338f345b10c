import { randomUUID } from 'node:crypto';
import { GatewayIdentityHeaders, type SubscriptionTier } from '@kasa/contracts';

/** A short unique suffix for names and ids, so that tests sharing a database never collide. */
export function unique(): string {
  return randomUUID().replace(/-/g, '').slice(0, 12);
}

export interface TestIdentity {
  userId: string;
  username: string;
  tier: SubscriptionTier;
}

/** A new person on the given plan (a fresh id each call). */
export function newIdentity(tier: SubscriptionTier = 'free', userId = `user-${unique()}`): TestIdentity {
  return { userId, username: `ama_${userId.slice(-6)}`, tier };
}

/**
 * The headers the gateway forwards once it has verified a token or API key, for calling a service directly in its
 * own tests (`x-kasa-user-id`, `x-kasa-username`, `x-kasa-tier`).
 */
export function identityHeaders(who: TestIdentity | SubscriptionTier = 'free'): Record<string, string> {
  const identity = typeof who === 'string' ? newIdentity(who) : who;
  return {
    [GatewayIdentityHeaders.userId]: identity.userId,
    [GatewayIdentityHeaders.username]: encodeURIComponent(identity.username),
    [GatewayIdentityHeaders.tier]: identity.tier,
  };
}

/** A registration body that passes the platform's rules, unique per call. */
export function newAccount(prefix = 'ama'): { username: string; email: string; password: string } {
  const id = unique();
  return { username: `${prefix}_${id}`, email: `${prefix}.${id}@example.com`, password: `Kasa-${id}-pass!` };
}
