import { AccessTokenClaims, type SubscriptionTier } from '@kasa/contracts';
import { AuthenticationError } from '@kasa/service-kit';
import jwt from 'jsonwebtoken';
import type { Model } from 'mongoose';
import { randomUUID } from 'node:crypto';
import type { RevokedToken } from './revokedTokenModel';
import type { SigningKey } from './signingKey';

export const TOKEN_ISSUER = 'kasa-auth';
export const TOKEN_AUDIENCE = 'kasa';

/** Issues, verifies and revokes the RS256 access tokens of Kasa. */
export class TokenService {
  constructor(
    private readonly key: SigningKey,
    private readonly revoked: Model<RevokedToken>,
    private readonly ttlSeconds: number,
  ) {}

  issue(user: { id: string; username: string; tier: SubscriptionTier }): string {
    return jwt.sign({ username: user.username, tier: user.tier }, this.key.privateKey, {
      algorithm: 'RS256',
      keyid: this.key.kid,
      subject: user.id,
      jwtid: randomUUID(),
      issuer: TOKEN_ISSUER,
      audience: TOKEN_AUDIENCE,
      expiresIn: this.ttlSeconds,
    });
  }

  /** Signature (RS256 only), issuer, audience, expiry, shape and revocation; any failure is a 401. */
  async verify(token: string): Promise<AccessTokenClaims> {
    let payload: unknown;
    try {
      payload = jwt.verify(token, this.key.publicKey, {
        algorithms: ['RS256'],
        issuer: TOKEN_ISSUER,
        audience: TOKEN_AUDIENCE,
      });
    } catch (err) {
      throw new AuthenticationError(
        err instanceof jwt.TokenExpiredError ? 'Your session has expired. Please sign in again.' : 'Invalid token',
      );
    }
    const claims = AccessTokenClaims.safeParse(payload);
    if (!claims.success) throw new AuthenticationError('Invalid token');
    if (await this.revoked.exists({ _id: claims.data.jti })) {
      throw new AuthenticationError('This session has been signed out. Please sign in again.');
    }
    return claims.data;
  }

  /**
   * Verifies only the signature and claims, ignoring expiry; used on logout so a token can be revoked (idempotently)
   * whatever its state. Returns null for anything we did not sign.
   */
  decodeOwn(token: string): AccessTokenClaims | null {
    try {
      const payload = jwt.verify(token, this.key.publicKey, {
        algorithms: ['RS256'],
        issuer: TOKEN_ISSUER,
        audience: TOKEN_AUDIENCE,
        ignoreExpiration: true,
      });
      const claims = AccessTokenClaims.safeParse(payload);
      return claims.success ? claims.data : null;
    } catch {
      return null;
    }
  }

  /** Records the revocation; true when it is new (so the caller announces it once). */
  async revoke(claims: AccessTokenClaims): Promise<boolean> {
    const result = await this.revoked.updateOne(
      { _id: claims.jti },
      { $setOnInsert: { userId: claims.sub, expiresAt: new Date(claims.exp * 1000), revokedAt: new Date() } },
      { upsert: true },
    );
    return result.upsertedCount > 0;
  }

  /** Forgets revocations of tokens that have expired anyway (FerretDB has no TTL indexes). */
  async pruneExpired(now = new Date()): Promise<number> {
    const result = await this.revoked.deleteMany({ expiresAt: { $lt: now } });
    return result.deletedCount;
  }
}
