import { isApiError } from './http';

/** What kind of failure a call met, which decides what the person is told to do. */
export type FailureKind = 'network' | 'timeout' | 'unavailable' | 'api' | 'unknown';

/** Gateway and service statuses that mean "the server side is slow or down", not "your request was wrong". */
const UNAVAILABLE_STATUSES = new Set([502, 503, 504]);

/** The sentence for a request that never reached Kasa: the one failure the person's connection explains. */
export const NETWORK_FAILURE_MESSAGE = 'Could not reach Kasa. Check your connection and try again.';
/** The sentence for a call that the browser gave up on after its time limit. */
export const TIMEOUT_FAILURE_MESSAGE = 'The service is taking too long to answer. Try again in a moment.';

/** A call that the browser stopped after its time limit (see `ApiRequestOptions.timeoutMs`). */
export function isTimeout(error: unknown): boolean {
  // A DOMException, which is not an Error in every realm: checked by name.
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'TimeoutError';
}

/** Sorts a failure: a 502/503/504 is the server side being slow or away; only a fetch that threw is the network. */
export function failureKind(error: unknown): FailureKind {
  if (isApiError(error)) return UNAVAILABLE_STATUSES.has(error.status) ? 'unavailable' : 'api';
  // The default react-query fetcher's `<status>: <text>` errors (spec section 8).
  if (error instanceof Error && /^50[234]: /.test(error.message)) return 'unavailable';
  if (isTimeout(error)) return 'timeout';
  // fetch rejects with a TypeError ("Failed to fetch", "NetworkError when attempting to fetch resource", "Load
  // failed") when the request never got an answer.
  if (error instanceof TypeError) return 'network';
  return 'unknown';
}

const withStop = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

/**
 * A failure in words for the person, as one or two sentences ending with a full stop, fit to follow "Could not
 * load X: ". A 502, 503 or 504 says the service is slow or unavailable (the gateway's own words when it gave them)
 * and to try again in a moment; a timeout says it is taking too long; only a request that never reached Kasa
 * mentions the connection. Any other API error is the spec's `<status>: <message>` (or the server's message alone
 * with `withStatus: false`).
 */
export function describeFailure(error: unknown, options: { withStatus?: boolean } = {}): string {
  const withStatus = options.withStatus ?? true;
  switch (failureKind(error)) {
    case 'unavailable': {
      // The gateway says which service was slow or away ("Chat service took too long to answer. Please try
      // again."); a bare status (a proxy's HTML page) gets the general sentence.
      const status = isApiError(error) ? error.status : Number((error as Error).message.slice(0, 3));
      const said = isApiError(error) ? error.serverMessage : undefined;
      if (said) {
        const text = withStop(withStatus ? `${status}: ${said}` : said);
        return /try again/i.test(said) ? text : `${text} Try again in a moment.`;
      }
      return `The service is slow or unavailable right now${withStatus ? ` (${status})` : ''}. Try again in a moment.`;
    }
    case 'timeout':
      return TIMEOUT_FAILURE_MESSAGE;
    case 'network':
      return NETWORK_FAILURE_MESSAGE;
    case 'api': {
      if (!isApiError(error)) break;
      return withStop(withStatus ? error.message : (error.serverMessage ?? error.message));
    }
    default:
      break;
  }
  if (error instanceof Error && error.message) return withStop(error.message);
  return 'Something went wrong. Try again.';
}
