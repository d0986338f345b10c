import { GeoLookupResponse } from '@kasa/contracts';
import { propagationHeaders, type Logger } from '@kasa/service-kit';

/** The personas whose advice depends on where the user is: the local guide and the finance expert. */
const GEO_PERSONAS = new Set(['nana', 'merla']);

export const usesGeoContext = (personaId: string): boolean => GEO_PERSONAS.has(personaId);

/** "The user appears to be in Accra, Ghana (timezone Africa/Accra, currency GHS)." */
export function describeLocation(geo: GeoLookupResponse): string | undefined {
  const place = [geo.city, geo.countryName].filter(Boolean).join(', ');
  if (!geo.found || !place) return undefined;
  const details = [
    geo.timezone ? `timezone ${geo.timezone}` : '',
    geo.currency ? `currency ${geo.currency}` : '',
  ].filter(Boolean);
  return `The user appears to be in ${place}${details.length ? ` (${details.join(', ')})` : ''}.`;
}

/**
 * Asks the voice service's GET /api/geo where the caller appears to be, passing on the X-Forwarded-For the gateway
 * sent. Best effort: a slow, failing or unknown answer gives nothing, so the reply is never held up by it.
 */
export class GeoContext {
  constructor(private readonly options: { voiceServiceUrl: string; timeoutMs: number; logger: Logger }) {}

  async sentenceFor(forwardedFor: string, requestId?: string): Promise<string | undefined> {
    const { voiceServiceUrl, timeoutMs, logger } = this.options;
    try {
      const res = await fetch(new URL('/api/geo', voiceServiceUrl), {
        headers: {
          ...propagationHeaders(),
          'x-forwarded-for': forwardedFor,
          ...(requestId ? { 'x-request-id': requestId } : {}),
        },
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!res.ok) throw new Error(`voice service answered ${res.status}`);
      const geo = GeoLookupResponse.parse(await res.json());
      const sentence = describeLocation(geo);
      if (!sentence) logger.debug({ requestId, message: geo.message }, 'no location for the prompt');
      return sentence;
    } catch (err) {
      // The reply goes on without it, but a lookup that fails is a fault to see (a timeout, the voice service down).
      logger.warn({ err: (err as Error).message, requestId }, 'geo lookup failed; the prompt goes without a location');
      return undefined;
    }
  }
}
