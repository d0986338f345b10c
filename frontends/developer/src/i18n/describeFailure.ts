import { describeFailure as describeApiFailure, failureKind, isApiError } from '@kasa/api-client';
import { useCallback } from 'react';
import { useT, type Translate } from './useT';

/**
 * A failure in words for the person, in `t`'s language, fit to follow "Could not load X: ". The sentences the
 * browser writes itself (a timeout, no connection, a 502/503/504 without the gateway's own words, an unknown
 * failure) come from the catalogue; what Kasa's API said (its `message`, as `<status>: <message>`) is shown as it
 * came, worded by @kasa/api-client's describeFailure like everywhere else in the web app.
 */
export function describeFailureIn(t: Translate, error: unknown): string {
  switch (failureKind(error)) {
    case 'timeout':
      return t('failure.timeout');
    case 'network':
      return t('failure.network');
    case 'unavailable': {
      if (isApiError(error) && error.serverMessage) break;
      const status = isApiError(error) ? error.status : Number((error as Error).message.slice(0, 3));
      return t('failure.unavailable', { status: String(status) });
    }
    case 'unknown':
      if (!(error instanceof Error && error.message)) return t('failure.unknown');
      break;
    default:
      break;
  }
  return describeApiFailure(error);
}

/** describeFailureIn with the current language's messages. */
export function useDescribeFailure(): (error: unknown) => string {
  const t = useT();
  return useCallback((error: unknown) => describeFailureIn(t, error), [t]);
}
