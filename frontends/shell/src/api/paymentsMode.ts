import { useQuery } from '@tanstack/react-query';
import { apiJson } from '@kasa/api-client';
import type { PlansResponse } from '@kasa/contracts';

/** React Query key of the server's payments mode (the public plans answer); the shell's keys start with 'shell'. */
export const paymentsModeQueryKey = ['shell', 'payments-mode'] as const;

/**
 * Whether checkouts take no money on this server (`testMode` of the public GET /api/billing/plans, so that signed-out
 * visitors know too). Asked once per page load with the spec's defaults (fresh 2 minutes, cached 5, one retry, no
 * refetch on focus): the Layout that asks stays mounted, so it is not asked again while the app runs. Unknown
 * (loading, or the call failed) counts as not in test mode: the banner shows only when the server says so.
 */
export function usePaymentsTestMode(): boolean {
  const query = useQuery({
    queryKey: paymentsModeQueryKey,
    queryFn: () => apiJson<Pick<PlansResponse, 'testMode'>>('GET', '/api/billing/plans'),
    select: (answer) => answer.testMode === true,
  });
  return query.data === true;
}
