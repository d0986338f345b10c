import type { Request } from 'express';
import { isCrossSiteRequest } from './crossSiteGuard';

const KASA = 'http://localhost:8080';

/** A request as the gateway forwards it: addressed to Kasa's origin, with the browser's headers. */
function forwarded(headers: Record<string, string>): Request {
  return {
    protocol: 'http',
    headers: { host: '127.0.0.1:4001', 'x-forwarded-host': 'localhost:8080', 'x-forwarded-proto': 'http', ...headers },
  } as unknown as Request;
}

describe('isCrossSiteRequest', () => {
  it.each([
    ['a navigation from a Kasa page', { 'sec-fetch-site': 'same-origin', referer: `${KASA}/chat` }],
    ['an address typed or bookmarked', { 'sec-fetch-site': 'none' }],
    ['an API client that names no origin', {}],
    ['an older browser coming from a Kasa page', { referer: `${KASA}/settings` }],
    ['a fetch from a Kasa page', { 'sec-fetch-site': 'same-origin', origin: KASA }],
  ])('lets %s through', (_case, headers) => {
    expect(isCrossSiteRequest(forwarded(headers))).toBe(false);
  });

  it.each([
    ['a link or redirect from another site', { 'sec-fetch-site': 'cross-site', referer: 'https://evil.example/' }],
    ['another site that hides its referrer', { 'sec-fetch-site': 'cross-site' }],
    ['a sibling origin of the same site', { 'sec-fetch-site': 'same-site', referer: 'http://localhost:9999/' }],
    ['a foreign Origin, whatever else is claimed', { 'sec-fetch-site': 'same-origin', origin: 'https://evil.example' }],
    ['Origin: null', { origin: 'null' }],
    ['an older browser coming from another site', { referer: 'https://evil.example/page' }],
  ])('refuses %s', (_case, headers) => {
    expect(isCrossSiteRequest(forwarded(headers))).toBe(true);
  });

  it('accepts a configured web origin that is not the one addressed', () => {
    const app = 'http://localhost:3000';
    const request = forwarded({ 'sec-fetch-site': 'same-site', referer: `${app}/chat` });
    expect(isCrossSiteRequest(request)).toBe(true);
    expect(isCrossSiteRequest(request, [app])).toBe(false);
  });

  it('takes the addressed origin from Host when the service is called directly', () => {
    const direct = {
      protocol: 'http',
      headers: { host: '127.0.0.1:4001', 'sec-fetch-site': 'same-site', origin: 'http://127.0.0.1:4001' },
    } as unknown as Request;
    expect(isCrossSiteRequest(direct)).toBe(false);
  });
});
