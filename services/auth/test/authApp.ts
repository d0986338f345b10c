import { ServiceMetrics, type EventBus, type Logger, type ReadinessCheck } from '@kasa/service-kit';
import type { Express } from 'express';
import type { Connection, Model } from 'mongoose';
import type { ApiKeyDocument } from '../src/apiKeys/apiKeyModel';
import { createApp } from '../src/app';
import { createAuthComponents, type AuthComponents } from '../src/authComponents';
import type { PaymentProvider } from '../src/billing/paymentProvider';
import type { LoginThrottleSettings } from '../src/users/loginThrottle';
import { generateSigningKey, type SigningKey } from '../src/tokens/signingKey';
import type { OidcClient } from '../src/sso/oidcClient';

/** How long the tests' tokens live. */
export const TOKEN_TTL_SECONDS = 3600;

/**
 * The auth app as index.ts makes it (createAuthComponents, then createApp) over a test's database and bus, with what a
 * test may choose: its signing key, a payment provider (the edge of the world), where "last used" times are written.
 * Close `auth.apiKeyUsage` when done.
 */
export function createTestAuthApp(deps: {
  db: Connection;
  bus: Pick<EventBus, 'publishWithin'>;
  logger: Logger;
  /** Names the app's metrics registry. */
  name: string;
  readiness?: Record<string, ReadinessCheck>;
  signingKey?: SigningKey;
  paymentProvider?: PaymentProvider | readonly PaymentProvider[];
  lastUsedStore?: Model<ApiKeyDocument>;
  /** How often "last used" times are written (the service's default is 5 s). */
  lastUsedFlushMs?: number;
  /** Sign-in delays other than the service's (1 s after 5 failures, doubling up to 15 minutes) and their clock. */
  loginThrottle?: { settings?: Partial<LoginThrottleSettings>; now?: () => Date };
  /** The clock billing reads (moved forward to reach the end of a period or of a grace). */
  billingClock?: () => Date;
  /** KASA_OPERATOR_EMAILS, lower-cased. */
  operatorEmails?: string[];
  /** The identity providers' side of single sign-on (a fake). */
  oidcClient?: OidcClient;
}): { app: Express; auth: AuthComponents } {
  const auth = createAuthComponents({
    db: deps.db,
    bus: deps.bus,
    logger: deps.logger,
    settings: {
      AUTH_KEYS_DIR: '',
      JWT_TTL_SECONDS: TOKEN_TTL_SECONDS,
      API_KEY_USAGE_FLUSH_MS: deps.lastUsedFlushMs ?? 100,
      API_KEY_USAGE_MAX_PENDING: 10_000,
      KASA_OPERATOR_EMAILS: deps.operatorEmails,
    },
    signingKey: deps.signingKey ?? generateSigningKey(),
    paymentProvider: deps.paymentProvider,
    lastUsedStore: deps.lastUsedStore,
    loginThrottle: deps.loginThrottle,
    billingClock: deps.billingClock,
    oidcClient: deps.oidcClient,
  });
  const app = createApp({
    ...auth,
    logger: deps.logger,
    metrics: new ServiceMetrics(deps.name),
    readiness: deps.readiness ?? {},
    bus: deps.bus,
    db: deps.db,
    tokenTtlSeconds: TOKEN_TTL_SECONDS,
    cookieSecure: false,
  });
  return { app, auth };
}
