import { isKasaError } from '@kasa/sdk';
import { QueryClient } from '@tanstack/react-query';

/**
 * A 4xx will not change by asking again (and the SDK itself retries 429s and 502–504 with back-off): only other
 * failures are retried.
 */
function retryOnce(failureCount: number, error: unknown): boolean {
  if (isKasaError(error) && error.status >= 400 && error.status < 500) return false;
  return failureCount < 1;
}

/**
 * The QueryClient KasaProvider makes when the app has none: data is fresh for 2 minutes and cached for 5, a failed
 * query is retried once, and nothing refetches on window focus (Kasa's own web app uses the same settings).
 */
export function createKasaQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 2 * 60_000, gcTime: 5 * 60_000, retry: retryOnce, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
