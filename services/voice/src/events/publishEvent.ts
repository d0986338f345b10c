import type { EventData, EventType } from '@kasa/contracts';
import type { EventBus, Logger } from '@kasa/service-kit';

/**
 * Publishes an analytics event without letting a slow or absent broker hold anything up: waits at most `waitMs`
 * for the confirm and logs instead of throwing. Speech events feed usage counters; a lost one skews a chart only.
 */
export async function publishEvent<T extends EventType>(
  bus: Pick<EventBus, 'publish'>,
  logger: Logger,
  type: T,
  data: EventData<T>,
  waitMs = 2_000,
): Promise<void> {
  const sending = bus
    .publish(type, data)
    .then(() => undefined)
    .catch((err: unknown) => logger.warn({ err, type }, 'event not published'));
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([sending, new Promise((resolve) => (timer = setTimeout(resolve, waitMs)))]);
  clearTimeout(timer);
}
