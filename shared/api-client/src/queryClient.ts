import { QueryClient, type DefaultOptions } from '@tanstack/react-query';
import { isTimeout } from './failures';
import { getQueryFn, isApiError } from './http';

/**
 * Kasa's one retry policy for reads: once, as the spec's defaults say, but never for a 4xx (asking again will not
 * change the answer) nor after a time limit ran out (the person has waited long enough; Retry is theirs to press).
 */
export function retryUnlessClientError(failureCount: number, error: unknown): boolean {
  if (isApiError(error) && error.status >= 400 && error.status < 500) return false;
  if (isTimeout(error)) return false;
  return failureCount < 1;
}

/**
 * Data fetching per the spec (section 9): fresh 2 minutes, cached 5 minutes, one retry (retryUnlessClientError), no
 * refetch on window focus, no polling; mutations retry once. The default fetcher throws on 401.
 */
export const queryClientDefaults = {
  queries: {
    queryFn: getQueryFn({ on401: 'throw' }),
    staleTime: 2 * 60 * 1000,
    gcTime: 5 * 60 * 1000,
    retry: retryUnlessClientError,
    refetchOnWindowFocus: false,
    refetchInterval: false,
  },
  mutations: { retry: 1 },
} satisfies DefaultOptions;

/** A QueryClient with Kasa's defaults; the shell makes one, remotes running alone make their own. */
export function createQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: queryClientDefaults });
}
