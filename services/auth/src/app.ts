import { BODY_LIMITS } from '@kasa/contracts';
import {
  createServiceApp,
  type EventBus,
  type Logger,
  type ReadinessCheck,
  type ServiceMetrics,
  type SpanRecorder,
} from '@kasa/service-kit';
import cookieParser from 'cookie-parser';
import express, { Router, type Express, type RequestHandler } from 'express';
import type { Connection } from 'mongoose';
import { createApiKeyRouter, createApiKeyVerifyRouter } from './apiKeys/apiKeyRouter';
import type { AuthComponents } from './authComponents';
import { BILLING_WEBHOOK_PATH, createBillingRouter } from './billing/billingRouter';
import { createAdminRouter } from './operators/adminRouter';
import { createOperatorCheckRouter, createSuspensionsRouter } from './operators/suspensionsRouter';
import { createOutreachRouter } from './outreach/outreachRouter';
import { createPreferencesRouter } from './preferences/preferencesRouter';
import { createTeamRouter } from './teams/teamRouter';
import { createSsoRouter } from './sso/ssoRouter';
import { createAuthRouter } from './users/authRouter';

/** What the app serves: the components createAuthComponents builds, and the runtime's logging, metrics and probes. */
export interface AuthAppDeps extends Omit<AuthComponents, 'apiKeyUsage'> {
  logger: Logger;
  metrics: ServiceMetrics;
  readiness: Record<string, ReadinessCheck>;
  isShuttingDown?: () => boolean;
  spans?: SpanRecorder;
  bus: Pick<EventBus, 'publishWithin'>;
  tokenTtlSeconds: number;
  cookieSecure: boolean;
  /** Origins of the web app besides the one a request addresses (WEB_ORIGIN): logout navigations from them count. */
  webOrigins?: readonly string[];
  /** The auth database, for the stores that need no service object of their own (preferences). */
  db: Connection;
}

/** The auth service's HTTP app; it never listens by itself (see index.ts). */
export function createApp(deps: AuthAppDeps): Express {
  const jwks = Router();
  jwks.get('/.well-known/jwks.json', (_req, res) => {
    res.set('Cache-Control', 'public, max-age=300').json(deps.signingKey.jwks);
  });
  const cookies = Router();
  cookies.use(cookieParser());
  const { apiKeys, teams } = deps;

  const service = createServiceApp({
    logger: deps.logger,
    metrics: deps.metrics,
    readiness: deps.readiness,
    isShuttingDown: deps.isShuttingDown,
    spans: deps.spans,
    // Auth bodies are a username, an email and a password: 16 KB is plenty (the gateway's auth routes agree).
    bodyLimit: BODY_LIMITS.auth,
    routes: [
      jwks,
      cookies,
      createAuthRouter(deps),
      createPreferencesRouter(deps.db),
      createApiKeyRouter(apiKeys),
      createApiKeyVerifyRouter(apiKeys),
      createTeamRouter(teams, deps.audit),
      createSsoRouter({
        sso: deps.sso,
        tokens: deps.tokens,
        tokenTtlSeconds: deps.tokenTtlSeconds,
        cookieSecure: deps.cookieSecure,
        redirectUri: deps.sso.redirectUri,
      }),
      createBillingRouter(deps),
      createOutreachRouter(deps),
      createAdminRouter(deps),
      createSuspensionsRouter(deps.suspensions),
      createOperatorCheckRouter(deps.operators),
    ],
  });

  // The payment processors sign the exact bytes they send, so their webhooks' bodies are read raw, up to their own
  // limit, before the kit's JSON parser (which would parse them: they are application/json) sees the request; a body
  // already read is left alone by it. Everything else is the service app as the kit makes it.
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.use(BILLING_WEBHOOK_PATH, rawBody(BODY_LIMITS.webhooks));
  app.use(service);
  return app;
}

/**
 * Reads the body as bytes (any type). A body it cannot read (over the limit, cut off) is not answered here: the
 * route finds no bytes and answers with the shared error body (see billingRouter.ts).
 */
function rawBody(limit: number): RequestHandler {
  const read = express.raw({ type: () => true, limit });
  return (req, res, next) =>
    read(req, res, (err?: unknown) => {
      if (err) res.locals.rawBodyError = err;
      next();
    });
}
