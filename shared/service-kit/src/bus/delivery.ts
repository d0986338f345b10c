import type { EventType, KasaEvent } from '@kasa/contracts';
import type { Channel, ConsumeMessage } from 'amqplib';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../logger';
import { decodeEvent } from './envelope';
import type { ProcessedEventStore } from './processedEvents';
import type { SpanRecorder } from '../telemetry';
import { runWithTraceContext, startSpan } from '../traceContext';

/** Handles one validated event. Throwing dead-letters the message (for a durable subscription). */
export type EventHandler<T extends EventType> = (event: KasaEvent<T>) => Promise<void>;

/** How long a message waits before it is requeued when the processed-event store itself failed. */
const STORE_RETRY_DELAY_MS = 1_000;

/**
 * Turns deliveries from one queue into handler calls, and settles each message on the channel it came from (an ack on
 * another channel would be an error that closes that channel). Never throws: a bad message is logged and settled.
 *
 * - unparseable or invalid (envelope, type or data): poison, `nack` without requeue, so it goes to the dead-letter
 *   queue; logged at warn with its id.
 * - durable subscription: already in the processed-event store: ack and skip. Else run the handler, then record the
 *   id, then ack. A handler that throws: `nack` without requeue (dead letter), logged at error. A failing store is not
 *   the message's fault: it is requeued after a short pause.
 * - broadcast subscription: no store; a failing handler's message is dropped (nack, the broadcast queue has no DLX).
 *
 * Only the type, id and request id are logged, never the event data.
 */
export class DeliveryDispatcher {
  /** Deliveries of the same event id are handled one after the other, so duplicates in one prefetch window run once. */
  private readonly byEventId = new Map<string, Promise<void>>();

  constructor(
    private readonly options: {
      queue: string;
      mode: 'durable' | 'broadcast';
      handlers: ReadonlyMap<EventType, EventHandler<EventType>>;
      processedEvents?: ProcessedEventStore;
      logger: Logger;
      spans?: SpanRecorder;
    },
  ) {}

  async dispatch(channel: Channel, msg: ConsumeMessage): Promise<void> {
    const { logger, queue } = this.options;
    try {
      const decoded = decodeEvent(msg.content);
      if (!decoded.ok) {
        const { problem, eventId, type, requestId } = decoded;
        const outcome = this.options.mode === 'durable' ? 'poison message dead-lettered' : 'poison message dropped';
        logger.warn({ queue, eventId, type, requestId, problem }, outcome);
        this.settle(channel, msg, 'reject');
        return;
      }
      const event = decoded.event;
      const handler = this.options.handlers.get(event.type);
      if (!handler) {
        // A binding left over from an earlier version of this consumer: nothing here wants this type any more.
        logger.warn(
          { queue, eventId: event.id, type: event.type, requestId: event.requestId },
          'no handler for event type; skipped',
        );
        this.settle(channel, msg, 'ack');
        return;
      }
      if (this.options.mode === 'broadcast') {
        await this.runBroadcast(channel, msg, event, handler);
        return;
      }
      const previous = this.byEventId.get(event.id);
      const run = (previous ?? Promise.resolve()).then(() => this.runDurable(channel, msg, event, handler));
      this.byEventId.set(event.id, run);
      await run;
      if (this.byEventId.get(event.id) === run) this.byEventId.delete(event.id);
    } catch (err) {
      // Defensive: nothing above should throw, and a bad message must never take the process down.
      logger.error({ err, queue, messageId: msg.properties.messageId }, 'unexpected failure handling a message');
      this.settle(channel, msg, 'reject');
    }
  }

  private async runBroadcast(
    channel: Channel,
    msg: ConsumeMessage,
    event: KasaEvent,
    handler: EventHandler<EventType>,
  ) {
    const log = { queue: this.options.queue, eventId: event.id, type: event.type, requestId: event.requestId };
    try {
      await handleInContext(handler, event, this.options.queue, this.options.spans);
    } catch (err) {
      this.options.logger.error({ ...log, err }, 'broadcast event handler failed; message dropped');
      this.settle(channel, msg, 'reject');
      return;
    }
    this.settle(channel, msg, 'ack');
    this.options.logger.debug(log, 'event handled');
  }

  private async runDurable(channel: Channel, msg: ConsumeMessage, event: KasaEvent, handler: EventHandler<EventType>) {
    const { logger } = this.options;
    const store = this.options.processedEvents!;
    const log = { queue: this.options.queue, eventId: event.id, type: event.type, requestId: event.requestId };

    let seen: boolean;
    try {
      seen = await store.has(event.id);
    } catch (err) {
      logger.warn({ ...log, err }, 'processed-event store unavailable; message requeued');
      await this.requeueLater(channel, msg);
      return;
    }
    if (seen) {
      logger.debug(log, 'duplicate event skipped');
      this.settle(channel, msg, 'ack');
      return;
    }

    try {
      await handleInContext(handler, event, this.options.queue, this.options.spans);
    } catch (err) {
      logger.error({ ...log, err }, 'event handler failed; message dead-lettered');
      this.settle(channel, msg, 'reject');
      return;
    }

    try {
      await store.markProcessed(event.id, event.type);
    } catch (err) {
      // Not acked: the broker redelivers it, and the handler runs again (at least once, never lost).
      logger.error({ ...log, err }, 'could not record the processed event; message requeued');
      await this.requeueLater(channel, msg);
      return;
    }
    this.settle(channel, msg, 'ack');
    logger.debug(log, 'event handled');
  }

  private async requeueLater(channel: Channel, msg: ConsumeMessage): Promise<void> {
    await sleep(STORE_RETRY_DELAY_MS);
    this.settle(channel, msg, 'requeue');
  }

  /**
   * Acks or nacks on the delivering channel. If that channel has closed meanwhile the broker has already put the
   * message back in the queue, so there is nothing left to do but note it.
   */
  private settle(channel: Channel, msg: ConsumeMessage, outcome: 'ack' | 'reject' | 'requeue'): void {
    try {
      if (outcome === 'ack') channel.ack(msg);
      else channel.nack(msg, false, outcome === 'requeue');
    } catch (err) {
      this.options.logger.warn(
        { queue: this.options.queue, messageId: msg.properties.messageId, outcome, err: (err as Error).message },
        'channel closed before the message was settled; the broker will redeliver it',
      );
    }
  }
}

/**
 * Runs a handler as its own span of the publisher's trace, with the publisher's request id (or the event id), so that
 * what it logs and publishes is traced back to the request that caused it.
 */
async function handleInContext(
  handler: EventHandler<EventType>,
  event: KasaEvent,
  queue: string,
  spans: SpanRecorder | undefined,
): Promise<void> {
  const context = startSpan({ requestId: event.requestId ?? event.id, traceparent: event.traceparent });
  const startTime = Date.now();
  let failed = false;
  try {
    await runWithTraceContext(context, () => handler(event));
  } catch (err) {
    failed = true;
    throw err;
  } finally {
    spans?.record({
      context,
      name: `${event.type} process`,
      kind: 'consumer',
      startTime,
      endTime: Date.now(),
      attributes: {
        'messaging.system': 'rabbitmq',
        'messaging.destination.name': queue,
        'messaging.message.id': event.id,
      },
      failed,
    });
  }
}
