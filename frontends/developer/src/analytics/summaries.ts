import type { Bar } from './BarList';

/** A count map as bars, largest first, each with its share of `total` (or of the map's sum) in whole percent. */
export function countBars(
  counts: Readonly<Record<string, number>>,
  total?: number,
  label = (key: string) => key,
): Bar[] {
  const sum = total ?? Object.values(counts).reduce((a, b) => a + b, 0);
  return Object.entries(counts)
    .filter(([, value]) => value > 0)
    .sort(([, a], [, b]) => b - a)
    .map(([key, value]) => ({
      label: label(key),
      value,
      share: sum > 0 ? Math.round((value / sum) * 100) : undefined,
    }));
}

/** Spec section 9: average session length = messages / sessions (shown with one decimal); 0 without sessions. */
export function averageSessionLength(messages: number, sessions: number): number {
  return sessions > 0 ? messages / sessions : 0;
}

/**
 * HTTP statuses with their reason phrases for the by-status chart: `200 OK`, `401 Unauthorized`… HTTP's own terms,
 * which stay as they are in every interface language.
 */
const STATUS_WORDS: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  304: 'Not Modified',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Payload Too Large',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export const statusLabel = (status: number): string =>
  STATUS_WORDS[status] ? `${status} ${STATUS_WORDS[status]}` : String(status);
