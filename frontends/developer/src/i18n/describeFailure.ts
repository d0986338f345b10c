import { describeFailureIn } from '@kasa/api-client/describeFailureIn';
import { useCallback } from 'react';
import { useT } from './useT';

/** A failure in words for the person, in the portal's current language (see describeFailureIn). */
export function useDescribeFailure(): (error: unknown) => string {
  const t = useT();
  return useCallback((error: unknown) => describeFailureIn(t, error), [t]);
}
