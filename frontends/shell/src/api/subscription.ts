import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiJson, useAuth } from '@kasa/api-client';
import type { BillingPortalResponse, SubscriptionResponse } from '@kasa/contracts';

/** React Query key of the signed-in person's subscription (the Settings page's billing card). */
export const subscriptionQueryKey = (userId: string | undefined) => ['shell', 'subscription', userId ?? null] as const;

/**
 * GET /api/billing/subscription: the person's subscription (null before a first purchase) and the server's test mode.
 * Asked again each time Settings opens (the cached answer shows meanwhile): a renewal, a failed payment or a
 * checkout elsewhere changes it without this browser knowing, and what someone reads about their money must be
 * current. Otherwise the spec's defaults.
 */
export function useSubscription() {
  const { user, isAuthenticated } = useAuth();
  return useQuery({
    queryKey: subscriptionQueryKey(user?.id),
    queryFn: () => apiJson<SubscriptionResponse>('GET', '/api/billing/subscription'),
    enabled: isAuthenticated,
    refetchOnMount: 'always',
  });
}

/** POST /api/billing/portal: the processor's page where the person changes their card or cancels. */
export function openBillingPortal(): Promise<BillingPortalResponse> {
  return apiJson<BillingPortalResponse>('POST', '/api/billing/portal');
}

/**
 * POST /api/billing/subscription/cancel (at the end of the period paid for) or /resume (undo that): the answer is the
 * subscription as it now stands, which replaces the cached one.
 */
export function useSubscriptionChange(change: 'cancel' | 'resume') {
  const queryClient = useQueryClient();
  const { user } = useAuth();
  return useMutation({
    mutationFn: () => apiJson<SubscriptionResponse>('POST', `/api/billing/subscription/${change}`),
    // Not retried: a second cancel of a cancelled subscription is a 409, which would hide that the first worked.
    retry: false,
    onSuccess: (answer) => queryClient.setQueryData(subscriptionQueryKey(user?.id), answer),
  });
}
