import {
  SsoCompleteRequest,
  SsoStartRequest,
  TeamSsoSettingsRequest,
  type AuthResponse,
  type SsoStartResponse,
} from '@kasa/contracts';
import { identityOf, parseInput, requestIdOf, requireIdentity } from '@kasa/service-kit';
import { Router, type CookieOptions } from 'express';
import { actorOf, clientIpOf } from '../operators/actor';
import type { TokenService } from '../tokens/tokenService';
import { setSessionCookie } from '../users/authRouter';
import type { SsoService } from './ssoService';
import { SsoRefusal } from './ssoService';

/** httpOnly cookie that binds a started single sign-on to the browser that started it (10 minutes). */
export const SSO_BINDING_COOKIE = 'kasa_sso';
/** The web app's page the callback sends the browser to, with `#code=` or `?error=`. */
export const SSO_CALLBACK_PAGE = '/auth/sso/callback';

export interface SsoRouterDeps {
  sso: SsoService;
  tokens: TokenService;
  tokenTtlSeconds: number;
  cookieSecure: boolean;
  /** `<public URL>/api/auth/sso/callback`: the provider's answers are read against this address. */
  redirectUri: string;
}

/**
 * The team owner's settings (`/api/developer/team/sso`, access tokens only through the gateway) and the public
 * sign-in steps (`/api/auth/sso/start`, `/callback`, `/complete`).
 */
export function createSsoRouter(deps: SsoRouterDeps): Router {
  const router = Router();
  const bindingCookie = (secure: boolean): CookieOptions => ({
    httpOnly: true,
    // Lax: the provider's redirect back is a top-level navigation from another site, which still carries it.
    sameSite: 'lax',
    secure,
    path: '/api/auth/sso',
  });

  router.use('/api/developer/team/sso', requireIdentity(), (_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });
  router.get('/api/developer/team/sso', async (_req, res) => {
    res.json(await deps.sso.view(identityOf(res).userId));
  });
  router.put('/api/developer/team/sso', async (req, res) => {
    const input = parseInput(TeamSsoSettingsRequest, req.body);
    res.json(await deps.sso.configure(actorOf(req, res), input, requestIdOf(req)));
  });
  router.delete('/api/developer/team/sso', async (req, res) => {
    await deps.sso.remove(actorOf(req, res), requestIdOf(req));
    res.status(204).end();
  });

  router.post('/api/auth/sso/start', async (req, res) => {
    const { email } = parseInput(SsoStartRequest, req.body);
    const { redirectUrl, binding } = await deps.sso.start(email);
    res.set('Cache-Control', 'no-store');
    res.cookie(SSO_BINDING_COOKIE, binding, { ...bindingCookie(deps.cookieSecure), maxAge: 10 * 60_000 });
    const body: SsoStartResponse = { redirectUrl };
    res.json(body);
  });

  router.get('/api/auth/sso/callback', async (req, res) => {
    res.set('Cache-Control', 'no-store');
    // Read against the public redirect URI (the request reached this service through the gateway).
    const callbackUrl = new URL(deps.redirectUri);
    callbackUrl.search = new URL(req.originalUrl, 'http://callback.invalid').search;
    const binding = (req.cookies as Record<string, string> | undefined)?.[SSO_BINDING_COOKIE];
    res.clearCookie(SSO_BINDING_COOKIE, bindingCookie(deps.cookieSecure));
    try {
      const { code } = await deps.sso.callback(callbackUrl, binding, {
        requestId: requestIdOf(req),
        clientIp: clientIpOf(req),
      });
      // In the fragment: never sent to a server, never in a Referer; the page removes it at once.
      res.redirect(302, `${SSO_CALLBACK_PAGE}#code=${encodeURIComponent(code)}`);
    } catch (err) {
      if (!(err instanceof SsoRefusal)) throw err;
      res.redirect(302, `${SSO_CALLBACK_PAGE}?error=${encodeURIComponent(err.reason)}`);
    }
  });

  router.post('/api/auth/sso/complete', async (req, res) => {
    const { code } = parseInput(SsoCompleteRequest, req.body);
    const user = await deps.sso.complete(code, { requestId: requestIdOf(req), clientIp: clientIpOf(req) });
    const token = deps.tokens.issue({ id: user.id, username: user.username, tier: user.subscriptionTier });
    setSessionCookie(res, token, deps);
    res.set('Cache-Control', 'no-store');
    const body: AuthResponse = { success: true, token, user, message: 'Signed in' };
    res.json(body);
  });

  return router;
}
