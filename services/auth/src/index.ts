import { runMain, ServiceRuntime } from '@kasa/service-kit';
import { createApp } from './app';
import { createBillingService } from './billing/billingService';
import { BuiltInPaymentProvider } from './billing/paymentProvider';
import { readConfig } from './config';
import { revokedTokenModel } from './tokens/revokedTokenModel';
import { loadSigningKey } from './tokens/signingKey';
import { TokenService } from './tokens/tokenService';
import { userModel } from './users/userModel';
import { UserService } from './users/userService';

runMain(async () => {
  const config = readConfig();
  const runtime = await ServiceRuntime.create({
    service: 'auth',
    version: '0.1.0',
    config,
    dbName: config.AUTH_DB_NAME,
  });
  const signingKey = loadSigningKey({ pem: config.JWT_PRIVATE_KEY, keysDir: config.AUTH_KEYS_DIR });
  const users = new UserService(userModel(runtime.db), runtime.bus, runtime.logger);
  const tokens = new TokenService(signingKey, revokedTokenModel(runtime.db), config.JWT_TTL_SECONDS);
  const billing = createBillingService({
    db: runtime.db,
    users,
    provider: new BuiltInPaymentProvider(),
    bus: runtime.bus,
    logger: runtime.logger,
  });

  const app = createApp({
    ...runtime.appDeps,
    users,
    tokens,
    signingKey,
    bus: runtime.bus,
    tokenTtlSeconds: config.JWT_TTL_SECONDS,
    cookieSecure: config.COOKIE_SECURE,
    db: runtime.db,
    billing,
  });
  runtime.every(30_000, 'republish pending registrations', () => users.republishPending());
  runtime.every(30_000, 'republish pending plan changes', () => billing.republishPending());
  runtime.every(3_600_000, 'prune expired revocations', () => tokens.pruneExpired());
  await runtime.listen(app, { port: config.AUTH_PORT, host: config.AUTH_HOST });
});
