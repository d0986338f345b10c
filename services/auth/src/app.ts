import {
  createServiceApp,
  type EventBus,
  type Logger,
  type ReadinessCheck,
  type ServiceMetrics,
} from '@kasa/service-kit';
import cookieParser from 'cookie-parser';
import { Router, type Express } from 'express';
import type { Connection } from 'mongoose';
import { apiKeyModel } from './apiKeys/apiKeyModel';
import { createApiKeyRouter, createApiKeyVerifyRouter } from './apiKeys/apiKeyRouter';
import { ApiKeyService } from './apiKeys/apiKeyService';
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
}

/** The auth service's HTTP app; it never listens by itself (see index.ts). */
export function createApp(deps: AuthAppDeps): Express {
  const jwks = Router();
  jwks.get('/.well-known/jwks.json', (_req, res) => {
    res.set('Cache-Control', 'public, max-age=300').json(deps.signingKey.jwks);
  });
  const cookies = Router();
  cookies.use(cookieParser());
  const apiKeys = new ApiKeyService({
    keys: apiKeyModel(deps.db),
    users: deps.users,
    bus: deps.bus,
    logger: deps.logger,
  });
  const teams = new TeamService({
    teams: teamModel(deps.db),
    invitations: teamInvitationModel(deps.db),
    users: userModel(deps.db),
    revokeTeamKeys: (teamId, requestId) => apiKeys.revokeTeamKeys(teamId, requestId),
  });
  apiKeys.attachTeams(teams);

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
