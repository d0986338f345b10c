import type { Request } from 'express';

function header(req: Request, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The origin a URL belongs to (`https://kasa.example`), or undefined when it is not one (`null`, garbage). */
function originOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

/**
 * The origin the browser addressed: the gateway's (it forwards the Host it was called on as X-Forwarded-Host and its
 * scheme as X-Forwarded-Proto), or this service's own when called directly.
 */
function addressedOrigin(req: Request): string | undefined {
  const host = header(req, 'x-forwarded-host') ?? header(req, 'host');
  if (!host) return undefined;
  const proto = header(req, 'x-forwarded-proto')?.split(',')[0]?.trim() || req.protocol;
  return originOf(`${proto}://${host}`);
}

/**
 * Whether a request was started by another site, so that a browser carrying Kasa's SameSite=Lax cookie must not get
 * a state change out of it (a top-level GET carries Lax cookies across sites). Kasa's own origins are the one the
 * request addressed and those configured (WEB_ORIGIN: a web app served from another origin).
 *
 * The browser's own word comes first: `Sec-Fetch-Site` (`same-origin`, or `none` for a typed address or a bookmark)
 * and `Origin`. Browsers without fetch metadata are judged by `Origin` or, failing that, the `Referer`'s origin
 * (Kasa's pages send it: Referrer-Policy strict-origin-when-cross-origin). A request that names no origin at all
 * (an API client, a browser that hides the referrer) is not a cross-site one.
 */
export function isCrossSiteRequest(req: Request, configuredOrigins: readonly string[] = []): boolean {
  const own = new Set(configuredOrigins);
  const addressed = addressedOrigin(req);
  if (addressed) own.add(addressed);

  const originHeader = header(req, 'origin');
  // `Origin: null` (a sandboxed frame, a redirect across origins) is never Kasa's own.
  if (originHeader !== undefined && !own.has(originHeader)) return true;
  const source = originHeader ?? originOf(header(req, 'referer'));

  const site = header(req, 'sec-fetch-site')?.toLowerCase();
  if (site === 'same-origin' || site === 'none') return false;
  // `same-site`: a sibling origin (another port or subdomain), allowed only when it is one of Kasa's configured ones.
  if (site === 'cross-site' || site === 'same-site') return !(source && own.has(source));
  return source !== undefined && !own.has(source);
}
