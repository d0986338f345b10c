import type { GeoLookupResponse } from '@kasa/contracts';
import type { Logger } from '@kasa/service-kit';
import { countries, type TCountryCode } from 'countries-list';
import { BlockList, isIPv4 } from 'node:net';

/** Addresses that never have a location: private, loopback, link-local, carrier-grade NAT, unspecified. */
const NOWHERE = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const)
  NOWHERE.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const)
  NOWHERE.addSubnet(net, bits, 'ipv6');

type GeoipLite = typeof import('geoip-lite');

/** `::ffff:41.66.199.1` (how a dual-stack socket reports IPv4) → `41.66.199.1`. */
export function plainAddress(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return mapped ? mapped[1]! : ip;
}

/**
 * Where an IP address appears to be, from the GeoLite2 data that ships inside the geoip-lite package (read from disk
 * once, about 150 MB in memory; no network call), with the country's currency and languages from countries-list.
 */
export class GeoDatabase {
  private constructor(private readonly geoip: GeoipLite) {}

  static async load(logger: Logger): Promise<GeoDatabase> {
    const started = performance.now();
    // geoip-lite reads its data files synchronously when first required.
    const geoip = commonJsExports<GeoipLite>(await import('geoip-lite'));
    logger.info(
      { ms: Math.round(performance.now() - started), rssMb: Math.round(process.memoryUsage().rss / 2 ** 20) },
      'GeoIP database loaded',
    );
    return new GeoDatabase(geoip);
  }

  lookup(address: string): GeoLookupResponse {
    const ip = plainAddress(address);
    const family = isIPv4(ip) ? 'ipv4' : 'ipv6';
    if (NOWHERE.check(ip, family)) return notFound(ip, 'unknown location: a private or loopback address');
    const hit = this.geoip.lookup(ip);
    const code = hit?.country as TCountryCode | undefined;
    const country = code ? countries[code] : undefined;
    if (!hit || !code || !country) return notFound(ip, 'unknown location');
    return {
      ip,
      found: true,
      country: code,
      countryName: country.name,
      region: hit.region || null,
      city: hit.city || null,
      timezone: hit.timezone || null,
      currency: country.currency[0] ?? null,
      suggestedLanguages: [...country.languages],
    };
  }
}

/**
 * The `module.exports` of a CommonJS package loaded with `import()`. Node's own loader (what tsc's output runs on)
 * hands back a namespace with the exports under `default` (geoip-lite's functions are not found by Node's static
 * scan of named exports); jest's swc transform hands back the exports themselves. Both shapes are accepted here.
 */
function commonJsExports<T extends object>(loaded: T | { default: T }): T {
  return 'default' in loaded && loaded.default !== undefined ? loaded.default : (loaded as T);
}

function notFound(ip: string, message: string): GeoLookupResponse {
  return {
    ip,
    found: false,
    country: null,
    countryName: null,
    region: null,
    city: null,
    timezone: null,
    currency: null,
    suggestedLanguages: [],
    message,
  };
}
