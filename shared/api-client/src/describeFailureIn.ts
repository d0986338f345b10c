import { describeFailure, failureKind, isApiError } from '@kasa/api-client';

/** The messages describeFailureIn reads from an app's catalogue (each app has them under these ids). */
export type FailureMessageId = 'failure.timeout' | 'failure.network' | 'failure.unavailable' | 'failure.unknown';

/** An app's translate function, for the failure messages. */
export type FailureTranslate = (id: FailureMessageId, values?: { status: string }) => string;

/**
 * A failure in words for the person, in `t`'s language, fit to follow "Could not load X: ". The sentences the browser
 * writes itself (a timeout, no connection, a 502/503/504 without the gateway's own words, an unknown failure) come
 * from the app's catalogue; what Kasa's API said (its `message`, as `<status>: <message>`) is shown as it came, worded
 * by describeFailure like everywhere else in the web app.
 *
 * A subpath of its own (`@kasa/api-client/describeFailureIn`), not part of the shared package's entry: only the
 * apps that translate failures bundle it, and the first load of every page stays as it was. It imports the package
 * by name, so at runtime it uses the shared copy.
 */
export function describeFailureIn(t: FailureTranslate, error: unknown): string {
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
  return describeFailure(error);
}
