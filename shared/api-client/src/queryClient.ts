import { QueryClient, type DefaultOptions } from '@tanstack/react-query';
import { getQueryFn } from './http';

/**
 * Data fetching per the spec (section 9): fresh 2 minutes, cached 5 minutes, one retry, no refetch on window
 * focus, no polling; mutations retry once. The default fetcher throws on 401.
 */
export const queryClientDefaults = {
  queries: {
    queryFn: getQueryFn({ on401: 'throw' }),
    staleTime: 2 * 60 * 1000,
    gcTime: 5 * 60 * 1000,
    retry: 1,
    refetchOnWindowFocus: false,
    refetchInterval: false,
  },
  mutations: { retry: 1 },
} satisfies DefaultOptions;

/** A QueryClient with Kasa's defaults; the shell makes one, remotes running alone make their own. */
export function createQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: queryClientDefaults });
}
