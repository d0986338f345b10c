import { useQuery } from '@tanstack/react-query';
import { apiJson, useAuth } from '@kasa/api-client';
import type { CheckoutResponse, Payment, PlanId } from '@kasa/contracts';

/** POST /api/billing/checkout: choose a plan (see CheckoutResponse for the three outcomes). */
export function startCheckout(planId: PlanId): Promise<CheckoutResponse> {
  return apiJson<CheckoutResponse>('POST', '/api/billing/checkout', { planId });
}

/** Same shape as the server's PAYMENT_REFERENCE_PATTERN, so a mistyped link is not sent to the server. */
const REFERENCE = /^KASA-[0-9A-HJKMNP-TV-Z]{10}$/;

export const isPaymentReference = (value: string | null): value is string => value !== null && REFERENCE.test(value);

/** GET /api/billing/checkout/{reference}: the signed-in person's payment, when the reference is one of theirs. */
export function usePayment(reference: string | null) {
  const { isAuthenticated } = useAuth();
  return useQuery({
    queryKey: ['marketing', 'payment', reference],
    queryFn: () => apiJson<Payment>('GET', `/api/billing/checkout/${encodeURIComponent(reference ?? '')}`),
    enabled: isAuthenticated && isPaymentReference(reference),
    retry: false,
  });
}
