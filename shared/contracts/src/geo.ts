import { z } from './zod';

/** An IPv4 or IPv6 address, e.g. `8.8.8.8` or `2001:4860:4860::8888`. */
export const IpAddress = z.union([z.ipv4(), z.ipv6()], { error: 'must be an IPv4 or IPv6 address' });

/** GET /api/geo: the caller's address, or `ip` to look up another one. */
export const GeoLookupQuery = z
  .object({
    ip: z.string().trim().max(45).pipe(IpAddress).optional(),
  })
  .openapi('GeoLookupQuery');
export type GeoLookupQuery = z.infer<typeof GeoLookupQuery>;

/** Where an IP address appears to be. Private, loopback and unlisted addresses have `found: false` and nulls. */
export const GeoLookupResponse = z
  .object({
    ip: z.string(),
    found: z.boolean(),
    /** ISO 3166-1 alpha-2, e.g. `GH`. */
    country: z.string().nullable(),
    countryName: z.string().nullable(),
    /** ISO 3166-2 subdivision code without the country, e.g. `AA` (Greater Accra). */
    region: z.string().nullable(),
    city: z.string().nullable(),
    /** IANA time zone, e.g. `Africa/Accra`. */
    timezone: z.string().nullable(),
    /** ISO 4217, e.g. `GHS`. */
    currency: z.string().nullable(),
    /** Language codes spoken in the country, most used first. */
    suggestedLanguages: z.array(z.string()),
    /** Why nothing was found, when `found` is false. */
    message: z.string().optional(),
  })
  .openapi('GeoLookupResponse');
export type GeoLookupResponse = z.infer<typeof GeoLookupResponse>;
