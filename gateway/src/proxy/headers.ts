import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import { GatewayIdentityHeaders, type AccessTokenClaims, type VerifiedApiKey } from '@kasa/contracts';
import type { GatewayRequest } from '../eg/types';

/**
 * Hop-by-hop headers (RFC 9110 §7.6.1) describe one connection, not the message, so a proxy never forwards them;
 * `host` is the upstream's own (undici sets it), `expect` is handled by each hop.
 */
const REQUEST_DROPPED = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'http2-settings',
  'host',
  'expect',
  // The gateway writes these itself (see below), whatever the client claimed.
  'x-forwarded-proto',
  'x-forwarded-host',
]);

const RESPONSE_DROPPED = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'trailer',
  'transfer-encoding',
  'upgrade',
  // The gateway's own request id is already on the response.
  'x-request-id',
]);

/** Names listed in a Connection header are hop-by-hop too ("Connection: close, x-foo"). */
function connectionListed(value: string | undefined): Set<string> | undefined {
  if (!value || value === 'keep-alive' || value === 'close') return undefined;
  return new Set(value.split(',').map((name) => name.trim().toLowerCase()));
}

/**
 * The headers sent upstream: the client's, minus hop-by-hop headers and minus every `x-kasa-*` header (identity
 * comes only from a token the gateway verified), plus X-Forwarded-For/-Proto/-Host and, on authenticated routes,
 * the identity headers of the verified token or API key (an API key itself is not forwarded). X-Forwarded-For is
 * appended to, so a chain of proxies stays visible.
 */
export function upstreamRequestHeaders(req: GatewayRequest): Record<string, string | string[]> {
  const incoming: IncomingHttpHeaders = req.headers;
  const listed = connectionListed(incoming.connection);
  const out: Record<string, string | string[]> = {};
  for (const name in incoming) {
    const value = incoming[name];
    if (value === undefined || REQUEST_DROPPED.has(name) || listed?.has(name)) continue;
    // 120 = 'x': a cheap first test before the string comparisons, on the hot path of every request.
    if (name.charCodeAt(0) === 120 && (name.startsWith('x-kasa-') || name === 'x-forwarded-for')) continue;
    out[name] = value;
  }

  const previous = incoming['x-forwarded-for'];
  const client = req.socket.remoteAddress ?? '';
  out['x-forwarded-for'] = previous ? `${previous}, ${client}` : client;
  out['x-forwarded-proto'] = req.protocol ?? 'http';
  if (incoming.host) out['x-forwarded-host'] = incoming.host;

  if (req.kasaIdentity) addIdentity(out, req.kasaIdentity);
  else if (req.kasaApiKey) {
    addKeyIdentity(out, req.kasaApiKey);
    // The services act on the identity headers; the key itself stays at the gateway.
    delete out.authorization;
  }
  return out;
}

function addIdentity(out: Record<string, string | string[]>, claims: AccessTokenClaims): void {
  out[GatewayIdentityHeaders.userId] = claims.sub;
  // Usernames may hold any letter (\p{L}); header values are bytes, so the name travels percent-encoded (UTF-8).
  // ASCII names ([A-Za-z0-9._-]) are unchanged; services read it with decodeURIComponent.
  out[GatewayIdentityHeaders.username] = encodeURIComponent(claims.username);
  out[GatewayIdentityHeaders.tier] = claims.tier;
  out[GatewayIdentityHeaders.tokenId] = claims.jti;
}

function addKeyIdentity(out: Record<string, string | string[]>, key: VerifiedApiKey): void {
  out[GatewayIdentityHeaders.userId] = key.userId;
  out[GatewayIdentityHeaders.username] = encodeURIComponent(key.username);
  out[GatewayIdentityHeaders.tier] = key.tier;
  out[GatewayIdentityHeaders.apiKeyId] = key.keyId;
}

/** The upstream's response headers as the client gets them: hop-by-hop headers dropped. */
export function clientResponseHeaders(
  headers: IncomingHttpHeaders | Record<string, string | string[] | undefined>,
): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  const listed = connectionListed(headers.connection as string | undefined);
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined || RESPONSE_DROPPED.has(name) || listed?.has(name)) continue;
    out[name] = value;
  }
  return out;
}
