import { API_KEY_PREFIX, API_KEY_SCOPES, ErrorCode, type ApiKeyScope } from '@kasa/contracts';
import { sendError } from '../errors';
import type { EgPolicy, GatewayRequest, GatewayResponse, Next } from '../eg/types';
import type { ApiKeyRejectReason, ApiKeyResult, ApiKeyVerifier } from './apiKeyVerifier';
import type { RevocationList } from './revocationList';
import type { SuspendedPeople } from './suspendedPeople';
import type { RejectReason, TokenVerifier, VerifyResult } from './tokenVerifier';

interface JwtParams {
  /** The scope an API key needs on this pipeline. Without it, the pipeline takes access tokens only. */
  apiKeyScope?: ApiKeyScope;
  /**
   * Routes that do not exist for whoever cannot use them (the operators' `/api/admin/*`): every refusal here is the
   * JSON 404 of an unknown path instead of a 401, so an anonymous caller learns nothing about them either.
   */
  hidden?: boolean;
}

const MESSAGES: Record<RejectReason | 'missing' | 'revoked' | 'suspended', string> = {
  missing: 'Authentication required: sign in, then send the token as "Authorization: Bearer <token>".',
  malformed: 'The bearer token is not a valid token. Please sign in again.',
  algorithm: 'The bearer token is not a valid token. Please sign in again.',
  invalid: 'The bearer token is not valid. Please sign in again.',
  unknown_key: 'The bearer token was not signed by Kasa. Please sign in again.',
  expired: 'Your session has expired. Please sign in again.',
  revoked: 'This session has been signed out. Please sign in again.',
  suspended: 'This account is suspended. Contact the people who run this Kasa to have it restored.',
  keys_unavailable: 'Auth service is unavailable. Please try again shortly.',
};

const API_KEY_MESSAGES: Record<Exclude<ApiKeyRejectReason, 'unavailable'> | 'not_allowed', string> = {
  unknown: 'The API key is not valid. Check it, or create a new one in the developer portal.',
  revoked: 'This API key has been revoked. Create a new one in the developer portal.',
  expired: 'This API key has expired. Create a new one in the developer portal.',
  suspended: 'The account this API key belongs to is suspended.',
  not_allowed:
    'API keys cannot be used for the account, billing or key management: sign in and send your access token instead.',
};

/**
 * Guards the protected pipelines: a valid, unexpired, unrevoked RS256 access token, or a 401 in the shared error
 * shape. On success the claims go on the request; the proxy turns them into the x-kasa-* identity headers (and
 * drops any x-kasa-* header the client sent, on every route, so identity can only come from here).
 *
 * Pipelines with an `apiKeyScope` also take an API key (told apart by its `ksk_` prefix) that has that scope: 403
 * naming the scope otherwise. Elsewhere (account, billing, key management) a key gets a 401 saying to sign in, so
 * a leaked key can neither mint keys nor change the account.
 */
export function createJwtPolicy(deps: {
  verifier: TokenVerifier;
  revocations: RevocationList;
  apiKeys: ApiKeyVerifier;
  suspended?: SuspendedPeople;
}): EgPolicy<JwtParams> {
  const { verifier, revocations, apiKeys, suspended } = deps;

  const settleKey = (
    req: GatewayRequest,
    res: GatewayResponse,
    next: Next,
    scope: ApiKeyScope,
    result: ApiKeyResult,
  ) => {
    if (!result.ok) {
      if (result.reason === 'unavailable') {
        sendError(res, 503, ErrorCode.upstreamUnavailable, MESSAGES.keys_unavailable, req.kasaRequestId, {
          'retry-after': '5',
        });
      } else {
        rejectKey(req, res, result.reason);
      }
      return;
    }
    // A cached answer may predate the suspension: the list is the word that counts.
    if (suspended?.has(result.key.userId)) {
      rejectKey(req, res, 'suspended');
      return;
    }
    if (!result.key.scopes.includes(scope)) {
      sendError(
        res,
        403,
        ErrorCode.forbidden,
        `This API key does not have the "${scope}" scope that this route needs. Create a key with the ${scope} scope.`,
        req.kasaRequestId,
        { 'www-authenticate': `Bearer realm="kasa", error="insufficient_scope", scope="${scope}"` },
      );
      return;
    }
    req.kasaApiKey = result.key;
    next();
  };

  const checkKey = (req: GatewayRequest, res: GatewayResponse, next: Next, key: string, scope?: ApiKeyScope) => {
    if (!scope) {
      rejectKey(req, res, 'not_allowed');
      return;
    }
    const cached = apiKeys.verifyCached(key);
    if (cached) {
      settleKey(req, res, next, scope, cached);
      return;
    }
    apiKeys.verify(key, req.kasaRequestId).then(
      (result) => settleKey(req, res, next, scope, result),
      (err: unknown) => next(err),
    );
  };

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
    if (suspended?.has(result.claims.sub)) {
      reject(req, res, 'suspended');
      return;
    }
    req.kasaIdentity = result.claims;
    next();
  };

  return {
    name: 'kasa-jwt',
    schema: {
      $id: 'https://kasa.example/schemas/policies/kasa-jwt.json',
      type: 'object',
      properties: { apiKeyScope: { type: 'string', enum: [...API_KEY_SCOPES] }, hidden: { type: 'boolean' } },
    },
    policy: (params) => (req, res, next) => {
      // A hidden route refuses as an unknown path (see reject), and takes no API key.
      if (params.hidden) hiddenRequests.add(req);
      const token = bearerToken(req.headers.authorization);
      if (!token) {
        reject(req, res, 'missing');
        return;
      }
      if (token.startsWith(API_KEY_PREFIX)) {
        checkKey(req, res, next, token, params.hidden ? undefined : params.apiKeyScope);
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

/** Requests on hidden routes, whose refusals are the 404 of an unknown path (a WeakSet: nothing to clean up). */
const hiddenRequests = new WeakSet<GatewayRequest>();

/** Answers a refusal on a hidden route as the gateway answers a path nobody serves; true when it did. */
function refusedAsUnknown(req: GatewayRequest, res: GatewayResponse): boolean {
  if (!hiddenRequests.has(req)) return false;
  const path = (req.originalUrl ?? req.url).split('?')[0];
  sendError(res, 404, ErrorCode.notFound, `No route for ${req.method} ${path}`, req.kasaRequestId);
  return true;
}

function reject(req: GatewayRequest, res: GatewayResponse, reason: keyof typeof MESSAGES): void {
  if (refusedAsUnknown(req, res)) return;
  const challenge =
    reason === 'missing'
      ? 'Bearer realm="kasa"'
      : `Bearer realm="kasa", error="invalid_token", error_description="${reason}"`;
  sendError(res, 401, ErrorCode.unauthenticated, MESSAGES[reason], req.kasaRequestId, {
    'www-authenticate': challenge,
  });
}

function rejectKey(req: GatewayRequest, res: GatewayResponse, reason: keyof typeof API_KEY_MESSAGES): void {
  if (refusedAsUnknown(req, res)) return;
  sendError(res, 401, ErrorCode.unauthenticated, API_KEY_MESSAGES[reason], req.kasaRequestId, {
    'www-authenticate': `Bearer realm="kasa", error="invalid_token", error_description="api_key_${reason}"`,
  });
}
