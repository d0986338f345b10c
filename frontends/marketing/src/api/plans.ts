import { useQuery } from '@tanstack/react-query';
import { apiJson } from '@kasa/api-client';
import type { PlansResponse } from '@kasa/contracts';

export const plansQueryKey = ['marketing', 'plans'] as const;

/** GET /api/billing/plans: the plans, add-ons and FAQ, shared by the pricing page and the landing teaser. */
export function usePlans() {
  return useQuery({
    queryKey: plansQueryKey,
    queryFn: () => apiJson<PlansResponse>('GET', '/api/billing/plans'),
    // The plans change with a deploy only.
    staleTime: 10 * 60 * 1000,
  });
}
