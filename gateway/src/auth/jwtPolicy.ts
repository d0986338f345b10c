import { ErrorCode } from '@kasa/contracts';
import { sendError } from '../errors';
import type { EgPolicy, GatewayRequest, GatewayResponse, Next } from '../eg/types';
import type { RevocationList } from './revocationList';
import type { RejectReason, TokenVerifier, VerifyResult } from './tokenVerifier';

const MESSAGES: Record<RejectReason | 'missing' | 'revoked', string> = {
  missing: 'Authentication required: sign in, then send the token as "Authorization: Bearer <token>".',
  malformed: 'The bearer token is not a valid token. Please sign in again.',
  algorithm: 'The bearer token is not a valid token. Please sign in again.',
  invalid: 'The bearer token is not valid. Please sign in again.',
  unknown_key: 'The bearer token was not signed by Kasa. Please sign in again.',
  expired: 'Your session has expired. Please sign in again.',
  revoked: 'This session has been signed out. Please sign in again.',
  keys_unavailable: 'Auth service is unavailable. Please try again shortly.',
};

/**
 * Guards the protected pipelines: a valid, unexpired, unrevoked RS256 access token, or a 401 in the shared error
 * shape. On success the claims go on the request; the proxy turns them into the x-kasa-* identity headers (and
 * drops any x-kasa-* header the client sent, on every route, so identity can only come from here).
 */
export function createJwtPolicy(deps: { verifier: TokenVerifier; revocations: RevocationList }): EgPolicy {
  const { verifier, revocations } = deps;

  const settle = (req: GatewayRequest, res: GatewayResponse, next: Next, result: VerifyResult) => {
    if (!result.ok) {
      if (result.reason === 'keys_unavailable') {
        sendError(res, 503, ErrorCode.upstreamUnavailable, MESSAGES.keys_unavailable, req.kasaRequestId, {
          'retry-after': '5',
        });
      } else {
        reject(req, res, result.reason);
      }
      return;
    }
    if (revocations.isRevoked(result.claims.jti)) {
      reject(req, res, 'revoked');
      return;
    }
    req.kasaIdentity = result.claims;
    next();
  };

  return {
    name: 'kasa-jwt',
    schema: { $id: 'https://kasa.example/schemas/policies/kasa-jwt.json', type: 'object' },
    policy: () => (req, res, next) => {
      const token = bearerToken(req.headers.authorization);
      if (!token) {
        reject(req, res, 'missing');
        return;
      }
      // Most requests carry a token verified a moment ago: answer those without a promise.
      const cached = verifier.verifyCached(token);
      if (cached) {
        settle(req, res, next, cached);
        return;
      }
      verifier.verify(token).then(
        (result) => settle(req, res, next, result),
        (err: unknown) => next(err),
      );
    },
  };
}

function bearerToken(header: string | undefined): string | undefined {
  if (!header || header.length < 8) return undefined;
  if (header.slice(0, 7).toLowerCase() !== 'bearer ') return undefined;
  const token = header.slice(7).trim();
  return token || undefined;
}

function reject(req: GatewayRequest, res: GatewayResponse, reason: keyof typeof MESSAGES): void {
  const challenge =
    reason === 'missing'
      ? 'Bearer realm="kasa"'
      : `Bearer realm="kasa", error="invalid_token", error_description="${reason}"`;
  sendError(res, 401, ErrorCode.unauthenticated, MESSAGES[reason], req.kasaRequestId, {
    'www-authenticate': challenge,
  });
}
