import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson, apiRequest, useAuth } from '@kasa/api-client';
import type { AddOnCheckoutRequest, BillingHistoryResponse, CheckoutResponse } from '@kasa/contracts';

/** Payments shown per page of the billing history. */
export const HISTORY_PAGE_SIZE = 10;

/** React Query key of the signed-in person's billing history (the Settings page's billing card). */
export const billingHistoryQueryKey = (userId: string | undefined) =>
  ['shell', 'billing-history', userId ?? null] as const;

/**
 * GET /api/billing/history: the person's completed payments, newest first, a page at a time (`Show more` asks for
 * the next). Asked again each time Settings opens, as the subscription is: a payment made elsewhere must show.
 */
export function useBillingHistory() {
  const { user, isAuthenticated } = useAuth();
  return useInfiniteQuery({
    queryKey: billingHistoryQueryKey(user?.id),
    queryFn: ({ pageParam }) =>
      apiJson<BillingHistoryResponse>(
        'GET',
        `/api/billing/history?limit=${HISTORY_PAGE_SIZE}${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ''}`,
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled: isAuthenticated,
    refetchOnMount: 'always',
  });
}

/** A receipt's page (HTML), read with the person's credentials: the dialog shows it in a sandboxed frame. */
export async function fetchReceiptHtml(url: string): Promise<string> {
  return (await apiRequest('GET', url, undefined, { accept: 'text/html' })).text();
}

/** A receipt's PDF, read with the person's credentials and saved under `fileName`. */
export async function downloadReceiptPdf(url: string, fileName: string): Promise<void> {
  const blob = await (await apiRequest('GET', url, undefined, { accept: 'application/pdf' })).blob();
  const href = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = href;
    link.download = fileName;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // After the click has handed the file to the browser.
    setTimeout(() => URL.revokeObjectURL(href), 10_000);
  }
}

/**
 * POST /api/billing/add-ons/checkout: one pack of an add-on, in the currency shown to the person. Completed at once in test mode (the history then shows
 * it); otherwise the answer's `redirectUrl` is the processor's page to pay on.
 */
export function useBuyAddOn() {
  const queryClient = useQueryClient();
  const { user } = useAuth();
  return useMutation({
    mutationFn: (request: AddOnCheckoutRequest) =>
      apiJson<CheckoutResponse>('POST', '/api/billing/add-ons/checkout', request),
    // Not retried: a second purchase must be the person's own decision.
    retry: false,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: billingHistoryQueryKey(user?.id) }),
  });
}
