import type { EventData } from '@kasa/contracts';
import { EventBus, type Logger } from '@kasa/service-kit';
import type { ApiKeyVerifier } from './apiKeyVerifier';
import type { RevocationList } from './revocationList';
import type { SuspendedPeople } from './suspendedPeople';

/** The live feed of token and API key revocations from the auth service. */
export interface RevocationFeed {
  isConnected(): boolean;
  close(): Promise<void>;
  /** The same connection publishes the gateway's own events (heartbeats, request batches). */
  publish: EventBus['publish'];
}

/**
 * Subscribes every gateway instance (a broadcast queue of its own) to `auth.token.revoked`, `auth.user.suspended` and
 * `auth.user.restored` (a suspended person's tokens and keys are refused), `auth.apikey.revoked`
 * (the key leaves the API key cache at once) and `auth.user.plan_changed` (the person's cached keys are dropped so
 * the next call reads the new tier), and `auth.user.calls_added` (extra calls bought for a month raise the person's
 * monthly quota at once: `onCallsAdded`). Never blocks start-up:
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
  /** Accounts an operator suspended: refused from `auth.user.suspended` until `auth.user.restored`. */
  suspended?: SuspendedPeople;
  /** A person bought extra calls for a month; `monthCalls` is that month's total (set, never added). */
  onCallsAdded?: (data: EventData<'auth.user.calls_added'>) => void | Promise<void>;
}): RevocationFeed {
  const { logger, revocations, apiKeys, onCallsAdded, suspended } = options;
  const bus = new EventBus({ url: options.amqpUrl, source: 'kasa/gateway', logger })
    .subscribeBroadcast('auth.token.revoked', async (event) => {
      revocations.revoke(event.data.jti, event.data.expiresAt);
      logger.debug({ eventId: event.id }, 'token revoked');
    })
    .subscribeBroadcast('auth.apikey.revoked', async (event) => {
      apiKeys.evictKey(event.data.keyId);
      logger.debug({ eventId: event.id, keyId: event.data.keyId }, 'API key revoked');
    })
    .subscribeBroadcast('auth.user.suspended', async (event) => {
      suspended?.suspend(event.data.userId);
      // The person's cached keys go too, so a later restoration is not hidden behind a cached refusal either.
      apiKeys.evictUser(event.data.userId);
      logger.info(
        { eventId: event.id, userId: event.data.userId },
        'account suspended: its tokens and keys are refused',
      );
    })
    .subscribeBroadcast('auth.user.restored', async (event) => {
      suspended?.restore(event.data.userId);
      apiKeys.evictUser(event.data.userId);
      logger.info({ eventId: event.id, userId: event.data.userId }, 'account restored');
    })
    .subscribeBroadcast('auth.user.plan_changed', async (event) => {
      apiKeys.evictUser(event.data.userId);
    })
    .subscribeBroadcast('auth.user.calls_added', async (event) => {
      await onCallsAdded?.(event.data);
      logger.info(
        { eventId: event.id, userId: event.data.userId, month: event.data.month, monthCalls: event.data.monthCalls },
        'monthly quota raised by extra calls',
      );
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
