import type { EventData, EventType } from '@kasa/contracts';
import type { EventBus, Logger } from '@kasa/service-kit';

export type EventPublisher = Pick<EventBus, 'publish'>;

/**
 * Publishes an analytics event without letting a slow or absent broker hold up the user: waits at most `waitMs` for
 * the confirm (the bus keeps retrying in the background while connected again), and logs instead of throwing.
 * Chat events feed counters in the status service; a lost one skews a chart, it never loses user data, so chat does
 * not keep an outbox for them (auth does, for registrations).
 */
export async function publishEvent<T extends EventType>(
  bus: EventPublisher,
  logger: Logger,
  type: T,
  data: EventData<T>,
  requestId?: string,
  waitMs = 2_000,
): Promise<void> {
  const sending = bus
    .publish(type, data, { requestId })
    .then(() => undefined)
    .catch((err: unknown) => logger.warn({ err, type }, 'event not published'));
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([sending, new Promise((resolve) => (timer = setTimeout(resolve, waitMs)))]);
  clearTimeout(timer);
}
