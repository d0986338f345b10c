import type { CallOptions, HttpClient } from '../http.js';
import type { GeoLookupResponse } from '../types.js';

/** Where an IP address appears to be (the caller's own by default). */
export class GeoResource {
  constructor(private readonly http: HttpClient) {}

  /** GET /api/geo → country, region, city, time zone, currency and the languages spoken there. */
  lookup(query: { ip?: string } = {}, options?: CallOptions): Promise<GeoLookupResponse> {
    return this.http.json<GeoLookupResponse>({ method: 'GET', path: '/api/geo', query: { ...query }, options });
  }
}
