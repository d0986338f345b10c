import { useQuery } from '@tanstack/react-query';
import { apiRequest, AUTH_ME_STALE_TIME_MS, isApiError, useAuth } from '@kasa/api-client';

/** React Query key of whether the signed-in person is an operator (one per account). */
export const operatorQueryKey = (userId: string | undefined) => ['shell', 'operator', userId ?? null] as const;

/**
 * Whether the signed-in person is an operator. GET /api/auth/me does not say, so the shell asks the operators' API
 * itself: every /api/admin route is a 404 to anyone who is not one. The answer is cached as long as the person's own
 * record (5 minutes) and not retried; a refusal other than 404 (a 503, no connection) stays an error, for a page to
 * offer Retry.
 */
export async function fetchIsOperator(): Promise<boolean> {
  try {
    await apiRequest('GET', '/api/admin/operators');
    return true;
  } catch (error) {
    if (isApiError(error) && error.status === 404) return false;
    throw error;
  }
}

export function useIsOperator() {
  const { user, isAuthenticated } = useAuth();
  return useQuery({
    queryKey: operatorQueryKey(user?.id),
    queryFn: fetchIsOperator,
    enabled: isAuthenticated,
    staleTime: AUTH_ME_STALE_TIME_MS,
    gcTime: AUTH_ME_STALE_TIME_MS,
    retry: false,
  });
}
