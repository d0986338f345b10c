import {
  createServiceApp,
  type EventBus,
  type Logger,
  type ReadinessCheck,
  type ServiceMetrics,
  type SpanRecorder,
} from '@kasa/service-kit';
import cookieParser from 'cookie-parser';
import { Router, type Express } from 'express';
import type { Connection } from 'mongoose';
import { apiKeyModel } from './apiKeys/apiKeyModel';
import { createApiKeyRouter, createApiKeyVerifyRouter } from './apiKeys/apiKeyRouter';
import { ApiKeyService } from './apiKeys/apiKeyService';
import { ApiKeyUsageRecorder } from './apiKeys/apiKeyUsage';
import { createBillingRouter } from './billing/billingRouter';
import { createBillingService, type BillingService } from './billing/billingService';
import { BuiltInPaymentProvider } from './billing/paymentProvider';
import { createOutreachRouter } from './outreach/outreachRouter';
import { createPreferencesRouter } from './preferences/preferencesRouter';
import { teamInvitationModel, teamModel } from './teams/teamModel';
import { createTeamRouter } from './teams/teamRouter';
import { TeamService } from './teams/teamService';
import type { SigningKey } from './tokens/signingKey';
import type { TokenService } from './tokens/tokenService';
import { createAuthRouter } from './users/authRouter';
import { userModel } from './users/userModel';
import type { UserService } from './users/userService';

export interface AuthAppDeps {
  logger: Logger;
  metrics: ServiceMetrics;
  readiness: Record<string, ReadinessCheck>;
  isShuttingDown?: () => boolean;
  spans?: SpanRecorder;
  users: UserService;
  tokens: TokenService;
  signingKey: SigningKey;
  bus: Pick<EventBus, 'publish'>;
  tokenTtlSeconds: number;
  cookieSecure: boolean;
  /** The auth database, for the stores that need no service object of their own (preferences). */
  db: Connection;
  /** Plan changes and payments; when absent, one over `db` with the built-in payment provider. */
  billing?: BillingService;
  /**
   * Writes API keys' "last used" times in the background. index.ts makes it and flushes it on shutdown; when absent,
   * one with the default interval is started here.
   */
  apiKeyUsage?: ApiKeyUsageRecorder;
  /** API keys and teams as createAuthComponents builds them; when absent (a test's app), built here over `db`. */
  apiKeys?: ApiKeyService;
  teams?: TeamService;
}

/** API keys and teams over the auth database, for an app made without createAuthComponents (a test's). */
function keysAndTeams(deps: AuthAppDeps): { apiKeys: ApiKeyService; teams: TeamService } {
  const keys = apiKeyModel(deps.db);
  const apiKeys = new ApiKeyService({
    keys,
    users: deps.users,
    bus: deps.bus,
    logger: deps.logger,
    usage: deps.apiKeyUsage ?? new ApiKeyUsageRecorder({ keys, logger: deps.logger }).start(),
  });
  const teams = new TeamService({
    teams: teamModel(deps.db),
    invitations: teamInvitationModel(deps.db),
    users: userModel(deps.db),
    revokeTeamKeys: (teamId, requestId) => apiKeys.revokeTeamKeys(teamId, requestId),
  });
  apiKeys.attachTeams(teams);
  return { apiKeys, teams };
}

/** The auth service's HTTP app; it never listens by itself (see index.ts). */
export function createApp(deps: AuthAppDeps): Express {
  const jwks = Router();
  jwks.get('/.well-known/jwks.json', (_req, res) => {
    res.set('Cache-Control', 'public, max-age=300').json(deps.signingKey.jwks);
  });
  const cookies = Router();
  cookies.use(cookieParser());
  const { apiKeys, teams } = deps.apiKeys && deps.teams ? { apiKeys: deps.apiKeys, teams: deps.teams } : keysAndTeams(deps);

  const billing =
    deps.billing ??
    createBillingService({
      db: deps.db,
      users: deps.users,
      provider: new BuiltInPaymentProvider(),
      bus: deps.bus,
      logger: deps.logger,
    });

  return createServiceApp({
    logger: deps.logger,
    metrics: deps.metrics,
    readiness: deps.readiness,
    isShuttingDown: deps.isShuttingDown,
    spans: deps.spans,
    // Auth bodies are a username, an email and a password: 16 KB is plenty.
    bodyLimit: '16kb',
    routes: [
      jwks,
      cookies,
      createAuthRouter(deps),
      createPreferencesRouter(deps.db),
      createApiKeyRouter(apiKeys),
      createApiKeyVerifyRouter(apiKeys),
      createTeamRouter(teams),
      createBillingRouter({ ...deps, billing }),
      createOutreachRouter(deps),
    ],
  });
}
