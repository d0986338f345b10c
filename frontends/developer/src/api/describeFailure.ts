import { isApiError } from '@kasa/api-client';

/** A failure in words: the API's `<status>: <message>`, or what the browser said (a network failure). */
export function describeFailure(error: unknown): string {
  if (isApiError(error)) return error.message;
  if (error instanceof Error && error.message) {
    return error.message === 'Failed to fetch' ? 'the network request failed' : error.message;
  }
  return 'unknown error';
}
