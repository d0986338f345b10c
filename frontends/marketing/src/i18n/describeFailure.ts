import { describeFailureIn } from '@kasa/api-client/describeFailureIn';
import { useCallback } from 'react';
import { usePagesT } from './pages/usePagesT';

/** A failure in words for the person, in the pages' current language (the pricing page's when the plans do not load). */
export function useDescribeFailure(): (error: unknown) => string {
  const t = usePagesT();
  return useCallback((error: unknown) => describeFailureIn(t, error), [t]);
}
