import { AccessTokenClaims } from '@kasa/contracts';
import type { Logger } from '@kasa/service-kit';
import jwt from 'jsonwebtoken';
import { JwksClient } from 'jwks-rsa';

/** Why a token was turned away; `keys_unavailable` is the gateway's problem (auth unreachable), not the caller's. */
export type RejectReason = 'malformed' | 'algorithm' | 'expired' | 'invalid' | 'unknown_key' | 'keys_unavailable';

export type VerifyResult = { ok: true; claims: AccessTokenClaims } | { ok: false; reason: RejectReason };

export interface TokenVerifierOptions {
  jwksUri: string;
  issuer: string;
  audience: string;
  logger: Logger;
  /** Verified tokens kept so that a token's RSA signature is checked once, not on every request. */
  cacheSize?: number;
  now?: () => number;
}

/** The only signature algorithm accepted: tokens claiming `none` or `HS256` never reach a key. */
const ALGORITHM = 'RS256';

/**
 * Verifies Kasa access tokens: RS256 only, signed by a key of the auth service's JWKS document (looked up by the
 * token's `kid`, cached by jwks-rsa, re-fetched at most 10 times a minute when an unknown kid shows up, e.g. after a
 * key rotation), issuer, audience and expiry checked, claims validated against the contracts.
 *
 * Verified tokens are cached by their exact text until they expire, so a tampered token (different text) is always
 * verified afresh. Revocation is not this class's business: the caller checks the jti on every request.
 */
export class TokenVerifier {
  private readonly jwks: JwksClient;
  private readonly verified = new Map<string, AccessTokenClaims>();
  private readonly cacheSize: number;
  private readonly now: () => number;
  private keysFetched = false;
  private lastFetchFailed = false;
  private warmUpTimer?: NodeJS.Timeout;
  private stopped = false;

  constructor(private readonly options: TokenVerifierOptions) {
    this.jwks = new JwksClient({
      jwksUri: options.jwksUri,
      cache: true,
      cacheMaxEntries: 10,
      cacheMaxAge: 10 * 60_000,
      rateLimit: true,
      jwksRequestsPerMinute: 10,
      timeout: 2_000,
    });
    this.cacheSize = options.cacheSize ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  /** The answer for a token verified before, without any I/O; undefined when the token must be verified. */
  verifyCached(token: string): VerifyResult | undefined {
    const claims = this.verified.get(token);
    if (!claims) return undefined;
    if (claims.exp * 1000 > this.now()) return { ok: true, claims };
    this.verified.delete(token);
    return { ok: false, reason: 'expired' };
  }

  async verify(token: string): Promise<VerifyResult> {
    const cached = this.verifyCached(token);
    if (cached) return cached;

    const header = decodeHeader(token);
    if (!header) return { ok: false, reason: 'malformed' };
    if (header.alg !== ALGORITHM) return { ok: false, reason: 'algorithm' };

    let publicKey: string;
    try {
      publicKey = (await this.jwks.getSigningKey(header.kid)).getPublicKey();
      this.keysFetched = true;
      this.lastFetchFailed = false;
    } catch (err) {
      const name = (err as Error).name;
      if (name === 'SigningKeyNotFoundError') return { ok: false, reason: 'unknown_key' };
      // jwks-rsa allows 10 fetches a minute for unknown kids. Over that, the kid is unknown, unless the fetches
      // have been failing: then auth is down and the token may well be fine.
      if (name === 'JwksRateLimitError') {
        return { ok: false, reason: this.lastFetchFailed ? 'keys_unavailable' : 'unknown_key' };
      }
      this.lastFetchFailed = true;
      this.options.logger.warn({ err: (err as Error).message }, 'cannot fetch the auth service JWKS');
      return { ok: false, reason: 'keys_unavailable' };
    }

    let payload: unknown;
    try {
      payload = jwt.verify(token, publicKey, {
        algorithms: [ALGORITHM],
        issuer: this.options.issuer,
        audience: this.options.audience,
        clockTimestamp: Math.floor(this.now() / 1000),
      });
    } catch (err) {
      return { ok: false, reason: (err as Error).name === 'TokenExpiredError' ? 'expired' : 'invalid' };
    }
    const claims = AccessTokenClaims.safeParse(payload);
    if (!claims.success) return { ok: false, reason: 'invalid' };

    if (this.verified.size >= this.cacheSize) {
      // Oldest first (a Map iterates in insertion order): a cheap bound, good enough for a cache of verifications.
      const oldest = this.verified.keys().next().value;
      if (oldest !== undefined) this.verified.delete(oldest);
    }
    this.verified.set(token, claims.data);
    return { ok: true, claims: claims.data };
  }

  /** Ready once the JWKS document has been fetched at least once; tries now if it never was. */
  async isReady(): Promise<boolean> {
    if (this.keysFetched) return true;
    return this.fetchKeys();
  }

  /** Fetches the JWKS in the background until it succeeds once, so the first signed-in request finds the key. */
  warmUp(): void {
    let delayMs = 500;
    const attempt = async () => {
      if (this.stopped) return;
      if (await this.fetchKeys()) {
        this.options.logger.info('fetched the auth service JWKS');
        return;
      }
      if (delayMs === 500) {
        this.options.logger.warn(
          { jwksUri: this.options.jwksUri },
          'the auth service JWKS is not reachable yet; signed-in requests will be answered once it is; retrying',
        );
      }
      delayMs = Math.min(delayMs * 2, 10_000);
      if (!this.stopped) this.warmUpTimer = setTimeout(attempt, delayMs).unref();
    };
    void attempt();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.warmUpTimer);
  }

  private async fetchKeys(): Promise<boolean> {
    try {
      await this.jwks.getSigningKeys();
      this.keysFetched = true;
      this.lastFetchFailed = false;
      return true;
    } catch {
      this.lastFetchFailed = true;
      return false;
    }
  }
}

/** The token's JOSE header, or undefined when the token is not three base64url parts with a JSON header. */
function decodeHeader(token: string): { alg?: unknown; kid?: string } | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[0]) return undefined;
  try {
    const header: unknown = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8'));
    if (!header || typeof header !== 'object') return undefined;
    const { alg, kid } = header as { alg?: unknown; kid?: unknown };
    return { alg, kid: typeof kid === 'string' ? kid : undefined };
  } catch {
    return undefined;
  }
}
