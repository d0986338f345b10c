import { DEAD_LETTER_EXCHANGE, EVENTS_EXCHANGE, type EventType } from '@kasa/contracts';
import type { Channel } from 'amqplib';

/** Consumer names become queue names and an exact DLX routing key, so no topic wildcards (`*`, `#`) or spaces. */
const CONSUMER_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;

/** The durable queue of one consumer and the queue its dead letters land in. */
export interface ConsumerQueues {
  /** `kasa.<consumer>`: bound to `kasa.events` once per subscribed event type. */
  queue: string;
  /** `kasa.<consumer>.dlq`: bound to `kasa.events.dlx` with exactly its own name as routing key. */
  deadLetterQueue: string;
}

/**
 * Queue names of a consumer. Throws if the name could not be used as a queue name and exact routing key.
 * @example consumerQueues('status') // { queue: 'kasa.status', deadLetterQueue: 'kasa.status.dlq' }
 */
export function consumerQueues(consumerName: string): ConsumerQueues {
  if (!CONSUMER_NAME.test(consumerName)) {
    throw new Error(
      `Invalid event bus consumerName "${consumerName}": use letters, digits, '.', '_' or '-' (at most 100 characters)`,
    );
  }
  const queue = `kasa.${consumerName}`;
  return { queue, deadLetterQueue: `${queue}.dlq` };
}

/** Declares the two durable topic exchanges every publisher and consumer relies on. Idempotent. */
export async function declareExchanges(channel: Channel): Promise<void> {
  await channel.assertExchange(EVENTS_EXCHANGE, 'topic', { durable: true });
  await channel.assertExchange(DEAD_LETTER_EXCHANGE, 'topic', { durable: true });
}

/**
 * Declares a consumer's durable queue and its dead-letter queue, and binds the queue to each event type.
 *
 * Dead letters are routed by the queue's own `x-dead-letter-routing-key` (= the DLQ's name) through `kasa.events.dlx`,
 * and each DLQ is bound with exactly that key, so one consumer's dead letters never reach another consumer's DLQ,
 * even when both subscribe to the same event type.
 */
export async function declareConsumerQueue(
  channel: Channel,
  queues: ConsumerQueues,
  types: Iterable<EventType>,
): Promise<void> {
  await channel.assertQueue(queues.deadLetterQueue, { durable: true });
  await channel.bindQueue(queues.deadLetterQueue, DEAD_LETTER_EXCHANGE, queues.deadLetterQueue);
  await channel.assertQueue(queues.queue, {
    durable: true,
    deadLetterExchange: DEAD_LETTER_EXCHANGE,
    deadLetterRoutingKey: queues.deadLetterQueue,
  });
  for (const type of types) await channel.bindQueue(queues.queue, EVENTS_EXCHANGE, type);
}

/**
 * Declares an exclusive, auto-delete, server-named queue for this connection only, bound to each event type, and
 * returns its name. It disappears with the connection: events published while an instance is disconnected are not
 * seen by that instance.
 */
export async function declareBroadcastQueue(channel: Channel, types: Iterable<EventType>): Promise<string> {
  const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true, durable: false });
  for (const type of types) await channel.bindQueue(queue, EVENTS_EXCHANGE, type);
  return queue;
}
