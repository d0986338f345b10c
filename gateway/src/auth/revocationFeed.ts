import { EventBus, type Logger } from '@kasa/service-kit';
import type { ApiKeyVerifier } from './apiKeyVerifier';
import type { RevocationList } from './revocationList';

/** The live feed of token and API key revocations from the auth service. */
export interface RevocationFeed {
  isConnected(): boolean;
  close(): Promise<void>;
  /** The same connection publishes the gateway's own events (heartbeats, request batches). */
  publish: EventBus['publish'];
}

/**
 * Subscribes every gateway instance (a broadcast queue of its own) to `auth.token.revoked`, `auth.apikey.revoked`
 * (the key leaves the API key cache at once) and `auth.user.plan_changed` (the person's cached keys are dropped so
 * the next call reads the new tier). Never blocks start-up:
 * while RabbitMQ is down the gateway serves, logs a warning and the bus keeps reconnecting in the background.
 * Revocations published while this instance is disconnected are missed; those tokens stay usable until they expire
 * (access tokens are short-lived) and revoked API keys until the cache forgets them (API_KEY_CACHE_TTL_MS), which is
 * the price of not making the broker a hard dependency of every request.
 */
export function startRevocationFeed(options: {
  amqpUrl: string;
  logger: Logger;
  revocations: RevocationList;
  apiKeys: ApiKeyVerifier;
}): RevocationFeed {
  const { logger, revocations, apiKeys } = options;
  const bus = new EventBus({ url: options.amqpUrl, source: 'kasa/gateway', logger })
    .subscribeBroadcast('auth.token.revoked', async (event) => {
      revocations.revoke(event.data.jti, event.data.expiresAt);
      logger.debug({ eventId: event.id }, 'token revoked');
    })
    .subscribeBroadcast('auth.apikey.revoked', async (event) => {
      apiKeys.evictKey(event.data.keyId);
      logger.debug({ eventId: event.id, keyId: event.data.keyId }, 'API key revoked');
    })
    .subscribeBroadcast('auth.user.plan_changed', async (event) => {
      apiKeys.evictUser(event.data.userId);
    });
  bus.start().then(
    () => logger.info('listening for token revocations'),
    (err: unknown) =>
      logger.warn(
        { err: err instanceof Error ? err.message : String(err) },
        'token revocations are not being received yet (RabbitMQ unreachable); the gateway serves on and keeps retrying',
      ),
  );
  return bus;
}
