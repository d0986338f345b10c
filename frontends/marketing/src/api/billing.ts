import { useQuery, useQueryClient } from '@tanstack/react-query';
import { apiJson, completeSignIn, isApiError, useAuth } from '@kasa/api-client';
import type { CheckoutResponse, EnterpriseInquiryDetails, PlanId } from '@kasa/contracts';
import { nextVerifyDelay } from '../billing/checkoutPhase';

/**
 * POST /api/billing/checkout: choose a plan (see CheckoutResponse for the three outcomes); a plan sold by the sales
 * team takes the inquiry form's answers.
 */
export function startCheckout(planId: PlanId, inquiry?: EnterpriseInquiryDetails): Promise<CheckoutResponse> {
  return apiJson<CheckoutResponse>('POST', '/api/billing/checkout', inquiry ? { planId, inquiry } : { planId });
}

/** A checkout as the verification answers it: `status` completed (with a fresh token), pending or failed. */
export type CheckoutAnswer = Extract<CheckoutResponse, { outcome: 'checkout' }>;

/** Same shape as the server's PAYMENT_REFERENCE_PATTERN, so a mistyped link is not sent to the server. */
const REFERENCE = /^KASA-[0-9A-HJKMNP-TV-Z]{10}$/;

export const isPaymentReference = (value: string | null): value is string => value !== null && REFERENCE.test(value);

/** POST /api/billing/checkout/{reference}/verify: the server asks the processor and applies what it confirms. */
export function verifyCheckout(reference: string): Promise<CheckoutAnswer> {
  return apiJson<CheckoutAnswer>('POST', `/api/billing/checkout/${encodeURIComponent(reference)}/verify`);
}

export const checkoutVerificationKey = (userId: string | null, reference: string | null) =>
  ['marketing', 'checkout-verification', userId, reference] as const;

/**
 * The success page's verification of the signed-in person's checkout. While the processor has not confirmed it, it
 * asks again after 1, 2, 4, 8 and 16 s (`nextVerifyDelay`), then leaves it to the person ("Check again"). Once paid,
 * the fresh token that carries the new plan goes into the shared auth state, as after a sign-in, so the navigation
 * bar's badge shows the plan without a reload. An unknown reference (4xx) is not asked again; a server or network
 * failure once, as every query.
 */
export function useCheckoutVerification(reference: string | null) {
  const { isAuthenticated, user } = useAuth();
  const queryClient = useQueryClient();
  const key = checkoutVerificationKey(user?.id ?? null, reference);
  const query = useQuery({
    queryKey: key,
    queryFn: async () => {
      const answer = await verifyCheckout(reference ?? '');
      if (answer.token && answer.user) {
        void completeSignIn(queryClient, {
          success: true,
          token: answer.token,
          user: answer.user,
          message: answer.message,
        }).catch(() => undefined);
      }
      return answer;
    },
    enabled: isAuthenticated && isPaymentReference(reference),
    retry: (failures, error) => failures < 1 && !(isApiError(error) && error.status < 500),
    refetchInterval: (current) =>
      current.state.data?.status === 'pending' ? nextVerifyDelay(current.state.dataUpdateCount) : false,
    // Every visit asks the processor afresh (a POST: the answer of an earlier visit says nothing about now).
    staleTime: 0,
  });
  return { ...query, answers: queryClient.getQueryState(key)?.dataUpdateCount ?? 0 };
}
