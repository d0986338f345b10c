import type { EventBus, Logger, PrunableProcessedEventStore } from '@kasa/service-kit';
import type { Connection, Model } from 'mongoose';
import { apiKeyModel, type ApiKeyDocument } from './apiKeys/apiKeyModel';
import { ApiKeyService } from './apiKeys/apiKeyService';
import { ApiKeyUsageRecorder } from './apiKeys/apiKeyUsage';
import { createBillingService, type BillingService } from './billing/billingService';
import type { PaymentProvider } from './billing/paymentProvider';
import { paymentProvidersFor, type PaymentSettings } from './billing/paymentProviders';
import type { AuthConfig } from './config';
import { createOperatorService, type OperatorService } from './operators/operatorService';
import { PeopleService } from './operators/peopleService';
import { Suspensions } from './operators/suspensions';
import { AuditLog } from './audit/auditLog';
import { auditEntryModel } from './audit/auditModel';
import { teamInvitationModel, teamModel } from './teams/teamModel';
import { TeamService } from './teams/teamService';
import { revokedTokenModel } from './tokens/revokedTokenModel';
import { loadSigningKey, type SigningKey } from './tokens/signingKey';
import { TokenService } from './tokens/tokenService';
import { emailNoticeModel } from './notices/emailNoticeModel';
import { EmailNotices } from './notices/emailNotices';
import { BillingNotices } from './notices/billingNotices';
import { LoginThrottle, type LoginThrottleSettings } from './users/loginThrottle';
import { loginThrottleModel } from './users/loginThrottleModel';
import { userModel } from './users/userModel';
import { UserService } from './users/userService';
import { createOidcClient, type OidcClient } from './sso/oidcClient';
import { loadSecretBox, type SecretBox } from '@kasa/service-kit';
import { ssoFlowModel, ssoHandoffModel } from './sso/ssoFlowModel';
import { ssoDomainModel, teamSsoModel } from './sso/ssoModel';
import { SsoService } from './sso/ssoService';

/** The settings the components read. */
export type AuthComponentSettings = Pick<
  AuthConfig,
  'JWT_PRIVATE_KEY' | 'AUTH_KEYS_DIR' | 'JWT_TTL_SECONDS' | 'API_KEY_USAGE_FLUSH_MS' | 'API_KEY_USAGE_MAX_PENDING'
> &
  Partial<PaymentSettings> &
  Partial<Pick<AuthConfig, 'KASA_PUBLIC_URL' | 'WEB_ORIGIN' | 'BILLING_GRACE_DAYS' | 'KASA_OPERATOR_EMAILS'>> &
  Partial<Pick<AuthConfig, 'AUTH_SECRETS_KEY' | 'SSO_ALLOW_HTTP_ISSUERS'>>;

const DAY_MS = 24 * 3600_000;

/** Everything the auth service is made of, built once over its database and bus. */
export interface AuthComponents {
  signingKey: SigningKey;
  users: UserService;
  tokens: TokenService;
  billing: BillingService;
  apiKeys: ApiKeyService;
  apiKeyUsage: ApiKeyUsageRecorder;
  teams: TeamService;
  /** Progressive sign-in delays per email address. */
  loginThrottle: LoginThrottle;
  /** E-mails to account owners (`auth.email.requested`, the kit's outbox on `email_notices`; sent by src/mail). */
  notices: EmailNotices;
  /** Where people reach Kasa (the links of e-mails, the processors' return pages), without a trailing slash. */
  publicUrl: string;
  /** Who runs this Kasa: the operator role, the first-run setup link, the operators' view of inquiries. */
  operators: OperatorService;
  /** Operators' view of people (search, one person's page). */
  people: PeopleService;
  /** Suspending and restoring accounts (the gateways refuse a suspended person's tokens and keys). */
  suspensions: Suspensions;
  /** The audit log's store, written by the audit consumer (audit/auditSubscriptions.ts). */
  audit: AuditLog;
  /** Single sign-on per team (OpenID Connect): the owner's settings and the sign-in steps. */
  sso: SsoService;
}

/**
 * The auth service's composition root: accounts, tokens, plans and payments, API keys (with their batched "last
 * used" bookkeeping) and teams. `index.ts` hands the result to `createApp` and the runtime.
 */
export function createAuthComponents(deps: {
  db: Connection;
  bus: Pick<EventBus, 'publishWithin'>;
  logger: Logger;
  settings: AuthComponentSettings;
  /** Providers of the caller's own (a test's); otherwise the ones KASA_PAYMENTS, the keys and NODE_ENV choose. */
  paymentProvider?: PaymentProvider | readonly PaymentProvider[];
  /** A signing key of the caller's own (a test's); otherwise JWT_PRIVATE_KEY, or the one kept in AUTH_KEYS_DIR. */
  signingKey?: SigningKey;
  /** Where API keys' "last used" times are written: the keys themselves unless given (a test's stuck store). */
  lastUsedStore?: Model<ApiKeyDocument>;
  /** Sign-in delays other than the defaults (a test's shorter ones) and the clock they read. */
  loginThrottle?: { settings?: Partial<LoginThrottleSettings>; now?: () => Date };
  /** The clock billing reads (a test's, to reach the end of a period or of a grace). */
  billingClock?: () => Date;
  /** The runtime's processed-event store (billing's webhook inbox remembers handled processor events in it). */
  processedEvents?: PrunableProcessedEventStore;
  /** The OpenID Connect client single sign-on uses: openid-client unless given (a test's fake provider). */
  oidcClient?: OidcClient;
  /** The box secrets are sealed with: AUTH_SECRETS_KEY, or the key kept in AUTH_KEYS_DIR, unless given. */
  secretBox?: SecretBox;
}): AuthComponents {
  const { db, bus, logger, settings } = deps;
  const signingKey =
    deps.signingKey ?? loadSigningKey({ pem: settings.JWT_PRIVATE_KEY, keysDir: settings.AUTH_KEYS_DIR });
  // Where people reach Kasa: the public address, else the web app's first origin.
  const publicUrl = (settings.KASA_PUBLIC_URL ?? settings.WEB_ORIGIN?.[0] ?? 'http://localhost:8080').replace(
    /\/+$/,
    '',
  );
  const notices = new EmailNotices({ notices: emailNoticeModel(db), bus, logger, publicUrl });
  const loginThrottle = new LoginThrottle(loginThrottleModel(db), deps.loginThrottle);
  const users = new UserService(userModel(db), bus, logger, { throttle: loginThrottle, notices });
  const tokens = new TokenService(signingKey, revokedTokenModel(db), settings.JWT_TTL_SECONDS);
  const billing = createBillingService({
    db,
    users,
    provider:
      deps.paymentProvider ?? paymentProvidersFor({ ...settings, NODE_ENV: settings.NODE_ENV ?? 'development' }),
    bus,
    logger,
    // Where the processors send people back.
    publicUrl,
    graceMs: (settings.BILLING_GRACE_DAYS ?? 7) * DAY_MS,
    now: deps.billingClock,
    // The owner is e-mailed when a renewal fails and when its grace is over.
    notices: new BillingNotices({ notices, users, logger, now: deps.billingClock }),
    ...(deps.processedEvents ? { processedEvents: deps.processedEvents } : {}),
  });
  const keys = apiKeyModel(db);
  const apiKeyUsage = new ApiKeyUsageRecorder({
    keys: deps.lastUsedStore ?? keys,
    logger,
    flushIntervalMs: settings.API_KEY_USAGE_FLUSH_MS,
    maxPending: settings.API_KEY_USAGE_MAX_PENDING,
  }).start();
  const apiKeys = new ApiKeyService({ keys, users, bus, logger, usage: apiKeyUsage });
  const teams = new TeamService({
    teams: teamModel(db),
    invitations: teamInvitationModel(db),
    users: userModel(db),
    revokeTeamKeys: (teamId, requestId) => apiKeys.revokeTeamKeys(teamId, requestId),
    // An Enterprise contract's seats bound who may join by single sign-on.
    seatsOf: async (ownerId) => (await billing.getSubscription(ownerId)).subscription?.seats ?? null,
    bus,
    logger,
  });
  apiKeys.attachTeams(teams);
  const operators = createOperatorService(db, logger, settings.KASA_OPERATOR_EMAILS ?? [], billing, bus, teams);
  const suspensions = new Suspensions({ users: userModel(db), bus, logger });
  const people = new PeopleService({
    users: userModel(db),
    keys,
    teams: teamModel(db),
    billing,
    configuredOperatorEmails: (settings.KASA_OPERATOR_EMAILS ?? []).map((email) => email.trim().toLowerCase()),
  });
  const audit = new AuditLog(auditEntryModel(db));
  const production = settings.NODE_ENV === 'production';
  const allowHttpIssuers = !production && settings.SSO_ALLOW_HTTP_ISSUERS === true;
  const secrets =
    deps.secretBox ?? loadSecretBox({ key: settings.AUTH_SECRETS_KEY, keysDir: settings.AUTH_KEYS_DIR, production });
  if (!secrets) logger.warn('AUTH_SECRETS_KEY is not set: single sign-on is refused until it is');
  const sso = new SsoService({
    settings: teamSsoModel(db),
    domains: ssoDomainModel(db),
    flows: ssoFlowModel(db),
    handoffs: ssoHandoffModel(db),
    users: userModel(db),
    userService: users,
    teams,
    oidc: deps.oidcClient ?? createOidcClient({ allowHttpIssuers, production, logger }),
    secrets,
    bus,
    logger,
    redirectUri: `${publicUrl}/api/auth/sso/callback`,
    allowHttpIssuers,
    production,
  });
  users.attachSsoRequirement((email) => sso.requiredFor(email));
  return {
    signingKey,
    users,
    tokens,
    billing,
    apiKeys,
    apiKeyUsage,
    teams,
    loginThrottle,
    notices,
    publicUrl,
    operators,
    people,
    suspensions,
    audit,
    sso,
  };
}
