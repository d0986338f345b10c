import { packageVersion, runMain, ServiceRuntime } from '@kasa/service-kit';
import { createApp } from './app';
import { createAuthComponents } from './authComponents';
import { mailFromOf, readConfig } from './config';
import { subscribeAuditLog } from './audit/auditSubscriptions';
import { Mailer, subscribeMailer } from './mail/mailer';
import { createMailSender, mailDeliveryOf } from './mail/mailSender';
import { languagePreferenceModel } from './preferences/languagePreferenceModel';
import { userModel } from './users/userModel';

runMain(async () => {
  const config = readConfig();
  const runtime = await ServiceRuntime.create({
    service: 'auth',
    version: packageVersion(__dirname),
    config,
    dbName: config.AUTH_DB_NAME,
    // The audit log is written from events, by this consumer (kasa.<AUTH_CONSUMER_NAME>).
    consumerName: config.AUTH_CONSUMER_NAME,
  });
  const auth = createAuthComponents({
    db: runtime.db,
    bus: runtime.bus,
    logger: runtime.logger,
    settings: config,
    // Billing's webhook inbox remembers handled processor events in the runtime's store.
    processedEvents: runtime.processedEvents,
  });
  // The last batch of "last used" times is written after HTTP has drained, before the database closes.
  runtime.onShutdown('API key usage', () => auth.apiKeyUsage.close());
  // Registrations the broker did not confirm in time: the kit's outbox republishes them (same ids).
  runtime.republish(auth.users.registeredEvents, 30_000);
  // Suspensions and restorations the broker did not confirm in time (the gateways must hear of them).
  runtime.republish(auth.suspensions.suspendedEvents, 5_000);
  runtime.republish(auth.suspensions.restoredEvents, 5_000);
  subscribeAuditLog(runtime.bus, auth.audit, runtime.logger);
  // Account notices stored with their event (the kit's outbox): republished until the broker confirms them.
  runtime.republish(auth.notices.events, 30_000);
  const adopted = await auth.notices.adoptEarlierNotices();
  if (adopted > 0) runtime.logger.info({ adopted }, 'earlier account notices handed to the outbox');
  runtime.every(86_400_000, 'prune sent e-mail notices', () => auth.notices.prunePublished());
  // The mailer sends them, on this service's durable queue (idempotent by event id, like the audit log).
  const mailSender = createMailSender(mailDeliveryOf(config));
  const mailer = new Mailer({
    sender: mailSender,
    from: mailFromOf(config),
    users: userModel(runtime.db),
    languages: languagePreferenceModel(runtime.db),
    logger: runtime.logger,
    publicUrl: auth.publicUrl,
  });
  mailer.announce();
  subscribeMailer(runtime.bus, mailer);
  // Shutdown stops the waits between attempts, so the bus can finish its handlers and close.
  runtime.onShutdown('mailer retries', async () => mailer.stop(), { immediately: true });
  runtime.onShutdown('mail transport', async () => mailSender?.close());
  runtime.every(30_000, 'republish pending plan changes', () => auth.billing.republishPending());
  // Webhooks are applied right after their answer; those that could not be yet are retried from the inbox.
  runtime.every(15_000, 'apply waiting billing webhooks', () => auth.billing.processWebhooks());
  runtime.every(config.BILLING_SYNC_INTERVAL_MS, 'reconcile subscriptions with the payment processors', () =>
    auth.billing.reconcile(),
  );
  runtime.every(3_600_000, 'prune expired revocations', () => auth.tokens.pruneExpired());
  runtime.every(600_000, 'prune forgotten sign-in failures', () => auth.loginThrottle.pruneExpired());
  runtime.every(600_000, 'prune finished single sign-ons', () => auth.sso.pruneExpired());

  const app = createApp({
    ...runtime.appDeps,
    ...auth,
    bus: runtime.bus,
    db: runtime.db,
    tokenTtlSeconds: config.JWT_TTL_SECONDS,
    cookieSecure: config.COOKIE_SECURE,
    webOrigins: config.WEB_ORIGIN,
  });
  await runtime.listen(app, { port: config.AUTH_PORT, host: config.AUTH_HOST });
});
