import type { BillingProcessor, PersonDetail, SubscriptionStatus } from '@kasa/contracts';
import type { Translate } from '../i18n/useT';

export type KeyState = 'active' | 'revoked' | 'expired';

/** A key's state: revoked, expired (its expiry has passed) or active. */
export function keyState(key: PersonDetail['apiKeys'][number], now = Date.now()): KeyState {
  if (key.revokedAt) return 'revoked';
  if (key.expiresAt && Date.parse(key.expiresAt) <= now) return 'expired';
  return 'active';
}

/** Who bills a subscription: the processors' names as they are, Kasa's own two in words. */
export function processorLabel(t: Translate, processor: BillingProcessor): string {
  switch (processor) {
    case 'stripe':
      return 'Stripe';
    case 'paystack':
      return 'Paystack';
    case 'builtin':
      return t('processor.builtin');
    case 'contract':
      return t('processor.contract');
  }
}

export function subscriptionStatusLabel(t: Translate, status: SubscriptionStatus): string {
  switch (status) {
    case 'active':
      return t('subscription.active');
    case 'past_due':
      return t('subscription.pastDue');
    case 'canceled':
      return t('subscription.canceled');
  }
}

/** A team role in words; a role this console does not know yet is shown as the API names it. */
export function teamRoleLabel(t: Translate, role: string): string {
  if (role === 'owner') return t('team.owner');
  if (role === 'admin') return t('team.admin');
  if (role === 'member') return t('team.member');
  return role;
}
