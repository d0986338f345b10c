import { useQuery } from '@tanstack/react-query';
import { apiJson } from '@kasa/api-client';
import type { PlatformStatusResponse } from '@kasa/contracts';

/** Spec section 9: the status refreshes every 30 seconds. */
export const STATUS_REFRESH_MS = 30_000;

export type DisplayState = 'operational' | 'degraded' | 'down' | 'unknown';

/** Spec section 4: operational, degraded and down; anything else is unknown. */
export function displayState(status: string | undefined): DisplayState {
  return status === 'operational' || status === 'degraded' || status === 'down' ? status : 'unknown';
}

/** GET /api/status, polled every 30 s while the page is open. */
export function usePlatformStatus() {
  return useQuery({
    queryKey: ['marketing', 'status'],
    queryFn: () => apiJson<PlatformStatusResponse>('GET', '/api/status'),
    refetchInterval: STATUS_REFRESH_MS,
    staleTime: 0,
  });
}
