import { LoginRequest, RegisterRequest, type AuthResponse, type MeResponse } from '@kasa/contracts';
import { AuthenticationError, NotAllowedError, PUBLISH_WAIT_MS, parseInput, requestIdOf } from '@kasa/service-kit';
import { Router, type CookieOptions, type Request, type Response } from 'express';
import type { TokenService } from '../tokens/tokenService';
import type { EventBus, Logger } from '@kasa/service-kit';
import type { UserService } from './userService';
import { isCrossSiteRequest } from './crossSiteGuard';
import { clientIpOf } from '../operators/actor';
import type { OperatorService } from '../operators/operatorService';

/** httpOnly cookie that lets a plain browser navigation to /api/auth/logout know which token to revoke. */
export const SESSION_COOKIE = 'kasa_session';

export interface AuthRouterDeps {
  users: UserService;
  tokens: TokenService;
  /** Whether the person is an operator: the same check as every /api/admin route, for `me`. */
  operators: Pick<OperatorService, 'isOperator'>;
  bus: Pick<EventBus, 'publishWithin'>;
  logger: Logger;
  tokenTtlSeconds: number;
  cookieSecure: boolean;
  /** Origins of the web app besides the one a request addresses (WEB_ORIGIN); see isCrossSiteRequest. */
  webOrigins?: readonly string[];
}

function bearerToken(req: Request): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : undefined;
}

/** The session cookie's options: httpOnly, and only sent to the auth endpoints (logout reads it). */
export function sessionCookieOptions(cookieSecure: boolean): CookieOptions {
  return { httpOnly: true, sameSite: 'lax', secure: cookieSecure, path: '/api/auth' };
}

/** Puts `token` in the session cookie: at sign-in, and when a plan change issues a token with the new tier. */
export function setSessionCookie(
  res: Response,
  token: string,
  options: { cookieSecure: boolean; tokenTtlSeconds: number },
): void {
  res.cookie(SESSION_COOKIE, token, {
    ...sessionCookieOptions(options.cookieSecure),
    maxAge: options.tokenTtlSeconds * 1000,
  });
}

export function createAuthRouter(deps: AuthRouterDeps): Router {
  const router = Router();
  const cookieOptions = sessionCookieOptions(deps.cookieSecure);

  const signIn = (res: Response, token: string) => setSessionCookie(res, token, deps);

  router.post('/api/auth/register', async (req, res) => {
    const input = parseInput(RegisterRequest, req.body);
    const user = await deps.users.register(input, requestIdOf(req));
    const token = deps.tokens.issue({ id: user.id, username: user.username, tier: user.subscriptionTier });
    signIn(res, token);
    const body: AuthResponse = { success: true, token, user, message: 'Account created. Welcome to Kasa!' };
    res.status(201).json(body);
  });

  router.post('/api/auth/login', async (req, res) => {
    const input = parseInput(LoginRequest, req.body);
    // A waiting address gets 429 with Retry-After from the shared error handler.
    const user = await deps.users.authenticate(input, requestIdOf(req), clientIpOf(req));
    const token = deps.tokens.issue({ id: user.id, username: user.username, tier: user.subscriptionTier });
    signIn(res, token);
    const body: AuthResponse = { success: true, token, user, message: 'Signed in' };
    res.json(body);
  });

  router.get('/api/auth/me', async (req, res) => {
    const token = bearerToken(req);
    if (!token) throw new AuthenticationError('Sign in to continue');
    const claims = await deps.tokens.verify(token);
    // A token of a deleted account is no longer a session.
    const [user, operator] = await Promise.all([
      deps.users.findById(claims.sub).catch(() => {
        throw new AuthenticationError('This account no longer exists');
      }),
      // Read afresh on every call, as the operators' API does: a removed or suspended operator reads false at once.
      deps.operators.isOperator(claims.sub),
    ]);
    const body: MeResponse = { success: true, user: { ...user, operator } };
    res.json(body);
  });

  /** Revokes whichever of our tokens the request carries (cookie or bearer); idempotent. */
  const revokeFrom = async (req: Request) => {
    const candidates = [bearerToken(req), req.cookies?.[SESSION_COOKIE] as string | undefined];
    for (const token of new Set(candidates.filter((t): t is string => Boolean(t)))) {
      const claims = deps.tokens.decodeOwn(token);
      if (!claims) continue;
      if (await deps.tokens.revoke(claims)) {
        // Signing out does not hang on a broker that is away; the gateways then learn of it when it is back, or the
        // token expires (see gateway/src/auth/revocationFeed.ts).
        await deps.bus.publishWithin(
          'auth.token.revoked',
          { userId: claims.sub, jti: claims.jti, expiresAt: claims.exp },
          PUBLISH_WAIT_MS,
          { requestId: requestIdOf(req) },
        );
      }
    }
  };

  /**
   * A top-level GET carries the SameSite=Lax cookie across sites, so a sign-out started by another site (a link, a
   * GET form, a redirect) is refused and signs no one out (docs/adr/0002-logout-by-navigation.md). POST gets the same
   * check: a sibling origin of the same site would carry the cookie there too.
   */
  const refuseCrossSite = (req: Request) => {
    if (isCrossSiteRequest(req, deps.webOrigins)) {
      throw new NotAllowedError('Sign-out was refused: the request came from another site. Use Logout in Kasa.');
    }
  };

  // Spec: logout is a browser navigation: revoke, clear the cookie, go home.
  router.get('/api/auth/logout', async (req, res) => {
    res.set('Cache-Control', 'no-store');
    refuseCrossSite(req);
    await revokeFrom(req);
    res.clearCookie(SESSION_COOKIE, cookieOptions);
    res.redirect(302, '/');
  });

  // For API clients: the same, answered in JSON.
  router.post('/api/auth/logout', async (req, res) => {
    refuseCrossSite(req);
    await revokeFrom(req);
    res.clearCookie(SESSION_COOKIE, cookieOptions);
    res.json({ success: true, message: 'Signed out' });
  });

  return router;
}
