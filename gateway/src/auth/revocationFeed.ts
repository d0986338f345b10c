import { EventBus, type Logger } from '@kasa/service-kit';
import type { RevocationList } from './revocationList';

/** The live feed of token revocations from the auth service. */
export interface RevocationFeed {
  isConnected(): boolean;
  close(): Promise<void>;
}

/**
 * Subscribes every gateway instance (a broadcast queue of its own) to `auth.token.revoked`. Never blocks start-up:
 * while RabbitMQ is down the gateway serves, logs a warning and the bus keeps reconnecting in the background.
 * Revocations published while this instance is disconnected are missed; those tokens stay usable until they expire
 * (access tokens are short-lived), which is the price of not making the broker a hard dependency of every request.
 */
export function startRevocationFeed(options: {
  amqpUrl: string;
  logger: Logger;
  revocations: RevocationList;
}): RevocationFeed {
  const { logger, revocations } = options;
  const bus = new EventBus({ url: options.amqpUrl, source: 'kasa/gateway', logger }).subscribeBroadcast(
    'auth.token.revoked',
    async (event) => {
      revocations.revoke(event.data.jti, event.data.expiresAt);
      logger.debug({ eventId: event.id }, 'token revoked');
    },
  );
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
