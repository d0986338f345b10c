import { DEAD_LETTER_EXCHANGE } from '@kasa/contracts';
import type { Logger } from '@kasa/service-kit';
import { connect, type AmqpConnectionManager, type ChannelWrapper } from 'amqp-connection-manager';
import type { Channel, ConfirmChannel, ConsumeMessage } from 'amqplib';
import { setTimeout as sleep } from 'node:timers/promises';

/** What a handler decided about one message. */
export type Settlement = 'ack' | 'dead-letter' | 'requeue';

/** Handles one delivery; `signal` aborts when this process stops consuming (the message then goes back). */
export type WorkHandler = (message: ConsumeMessage, signal: AbortSignal) => Promise<Settlement>;

/** How long a requeued message waits first, so that a passing fault (the database restarting) is not spun on. */
const REQUEUE_DELAY_MS = 1_000;

/** `host:port` of an AMQP URL, without credentials. */
function brokerAddress(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '5672'}`;
  } catch {
    return '(unparseable AMQP URL)';
  }
}

/**
 * A durable RabbitMQ work queue for long jobs (video rendering): persistent messages sent on a confirm channel, one
 * message at a time per consumer (prefetch 1), acked only when the handler says so, and poison messages dead-lettered
 * through `kasa.events.dlx` to `<queue>.dlq`.
 *
 * The connection is kept by amqp-connection-manager, as the service kit's event bus does: after a drop it reconnects
 * with backoff and re-runs the setup, which declares the queues and resumes consuming. A message being handled when
 * the connection dropped goes back to the queue and is delivered again (with `redelivered` set).
 */
export class VideoQueue {
  readonly deadLetterQueue: string;
  private manager?: AmqpConnectionManager;
  private publisher?: ChannelWrapper;
  private consumer?: ChannelWrapper;
  private handler?: WorkHandler;
  private consumeChannel?: Channel;
  private consumerTag?: string;
  private readonly stopping = new AbortController();
  private readonly inFlight = new Set<Promise<void>>();
  private publisherReady = false;

  constructor(private readonly options: { url: string; queue: string; logger: Logger; source?: string }) {
    this.deadLetterQueue = `${options.queue}.dlq`;
  }

  get queue(): string {
    return this.options.queue;
  }

  /** Connects in the background (publishes wait for the connection); `handler` makes this process a worker. */
  start(handler?: WorkHandler): void {
    if (this.manager) throw new Error('VideoQueue.start() was already called');
    this.handler = handler;
    const log = this.options.logger.child({ component: 'video-queue', broker: brokerAddress(this.options.url) });
    const manager = connect([this.options.url], {
      heartbeatIntervalInSeconds: 5,
      reconnectTimeInSeconds: 1,
      connectionOptions: {
        timeout: 10_000,
        clientProperties: { connection_name: this.options.source ?? 'kasa/voice' },
      },
    });
    this.manager = manager;
    manager.on('connectFailed', ({ err }) =>
      log.warn({ err: err.message.split(this.options.url).join('') }, 'video queue cannot connect; retrying'),
    );
    manager.on('disconnect', ({ err }) => {
      this.publisherReady = false;
      this.consumeChannel = undefined;
      if (!this.stopping.signal.aborted) log.warn({ reason: err?.message }, 'video queue disconnected; reconnecting');
    });
    this.publisher = manager.createChannel({
      name: 'kasa-video-publish',
      confirm: true,
      setup: async (channel: ConfirmChannel) => {
        await this.declare(channel);
        this.publisherReady = true;
      },
    });
    this.publisher.on('error', (err) =>
      log.error({ err: (err as Error).message }, 'video queue publish channel error'),
    );
    if (handler) {
      this.consumer = manager.createChannel({
        name: 'kasa-video-consume',
        confirm: false,
        setup: (channel: Channel) => this.setupConsumer(channel, log),
      });
      this.consumer.on('error', (err) =>
        log.error({ err: (err as Error).message }, 'video queue consume channel error'),
      );
    }
    manager.connect().catch(() => undefined); // failures are reported through 'connectFailed'
  }

  /** Connected, with the queues declared (and, for a worker, consuming). */
  isConnected(): boolean {
    if (!this.manager?.isConnected() || !this.publisherReady) return false;
    return !this.handler || this.consumeChannel !== undefined;
  }

  /**
   * Sends one persistent message; resolves once the broker confirmed it (waiting for a connection if there is none),
   * rejects after `timeoutMs` (the caller then leaves the job for the sweeper to send again).
   */
  async send(content: object, messageId: string, timeoutMs: number): Promise<void> {
    if (!this.publisher) throw new Error('VideoQueue.send() called before start()');
    await this.publisher.sendToQueue(this.options.queue, Buffer.from(JSON.stringify(content)), {
      persistent: true,
      contentType: 'application/json',
      messageId,
      timeout: timeoutMs,
    });
  }

  /** Stops taking messages, aborts the one being handled (it is requeued), then closes the connection. */
  async close(): Promise<void> {
    if (this.stopping.signal.aborted) return;
    this.stopping.abort();
    const channel = this.consumeChannel;
    if (channel && this.consumerTag) await channel.cancel(this.consumerTag).catch(() => undefined);
    await Promise.allSettled([...this.inFlight]);
    await this.manager?.close();
  }

  private async declare(channel: Channel): Promise<void> {
    await channel.assertExchange(DEAD_LETTER_EXCHANGE, 'topic', { durable: true });
    await channel.assertQueue(this.deadLetterQueue, { durable: true });
    await channel.bindQueue(this.deadLetterQueue, DEAD_LETTER_EXCHANGE, this.deadLetterQueue);
    await channel.assertQueue(this.options.queue, {
      durable: true,
      deadLetterExchange: DEAD_LETTER_EXCHANGE,
      deadLetterRoutingKey: this.deadLetterQueue,
    });
  }

  private async setupConsumer(channel: Channel, log: Logger): Promise<void> {
    if (this.stopping.signal.aborted) return;
    await this.declare(channel);
    // One video at a time per process: rendering uses the CPU fully, and unstarted jobs stay free for other workers.
    await channel.prefetch(1);
    const { consumerTag } = await channel.consume(this.options.queue, (msg) => {
      if (!msg) return; // cancelled by the broker; the next reconnect consumes again
      const handling = this.handle(channel, msg, log);
      this.inFlight.add(handling);
      void handling.finally(() => this.inFlight.delete(handling));
    });
    this.consumerTag = consumerTag;
    this.consumeChannel = channel;
    channel.once('close', () => {
      if (this.consumeChannel === channel) this.consumeChannel = undefined;
    });
  }

  private async handle(channel: Channel, msg: ConsumeMessage, log: Logger): Promise<void> {
    let outcome: Settlement;
    try {
      outcome = await this.handler!(msg, this.stopping.signal);
    } catch (err) {
      // Defensive: handlers settle their own failures; anything unexpected is a poison message.
      log.error({ err, messageId: msg.properties.messageId }, 'unexpected failure handling a video job message');
      outcome = 'dead-letter';
    }
    if (outcome === 'requeue' && !this.stopping.signal.aborted) await sleep(REQUEUE_DELAY_MS);
    try {
      if (outcome === 'ack') channel.ack(msg);
      else channel.nack(msg, false, outcome === 'requeue');
    } catch {
      // The channel closed meanwhile: the broker has put the message back already.
      log.warn({ messageId: msg.properties.messageId, outcome }, 'channel closed before the message was settled');
    }
  }
}
