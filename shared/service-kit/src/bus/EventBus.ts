import { EVENTS_EXCHANGE, isEventType, type EventData, type EventType } from '@kasa/contracts';
import { connect, type AmqpConnectionManager, type ChannelWrapper } from 'amqp-connection-manager';
import type { Channel, ConfirmChannel, ConsumeMessage, Options } from 'amqplib';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../logger';
import { REQUEST_ID_HEADER } from '../requestId';
import type { SpanRecorder } from '../telemetry';
import { TRACEPARENT_HEADER, currentTraceContext, formatTraceparent } from '../traceContext';
import { Backoff, brokerAddress, isAccessRefused, redact, unreachableMessage } from './connection';
import { DeliveryDispatcher, type EventHandler } from './delivery';
import { InvalidEventError, createEnvelope } from './envelope';
import type { ProcessedEventStore } from './processedEvents';
import { consumerQueues, declareBroadcastQueue, declareConsumerQueue, declareExchanges } from './topology';

export type { EventHandler } from './delivery';

/** Options of an EventBus. */
export interface EventBusOptions {
  /** AMQP URL, e.g. `amqp://guest:guest@127.0.0.1:5672`. */
  url: string;
  /** CloudEvents source, e.g. 'kasa/auth'. */
  source: string;
  logger: Logger;
  /** Durable queue `kasa.<consumerName>`, DLQ `kasa.<consumerName>.dlq`; required if subscribe() is used. */
  consumerName?: string;
  /** Where handled event ids are remembered; required if subscribe() is used. */
  processedEvents?: ProcessedEventStore;
  /** Unacknowledged messages per consumer at once; default 16. */
  prefetch?: number;
  /** How long start() waits for the first connection before it rejects; default 30 000 ms. */
  connectTimeoutMs?: number;
  /** Delay before reconnecting, doubling after each failed attempt; default `{ initialMs: 500, maxMs: 10_000 }`. */
  reconnectBackoff?: { initialMs?: number; maxMs?: number };
  /** AMQP heartbeat; a dead connection is noticed after about twice this; default 5 s. */
  heartbeatSeconds?: number;
  /** How long close() lets unconfirmed publishes finish while connected; default 5 000 ms. */
  closeTimeoutMs?: number;
  /** Where each handled event's span goes (OpenTelemetry export), when tracing is configured. */
  spans?: SpanRecorder;
}

type AnyHandler = EventHandler<EventType>;

/** How long an answer waits for the broker's confirm of the event it published (see `EventBus.publishWithin`). */
export const PUBLISH_WAIT_MS = 2_000;

/** Content type of the structured-mode CloudEvents message (the envelope's `datacontenttype` is about `data`). */
const CONTENT_TYPE = 'application/cloudevents+json';

/**
 * The integration-event bus of a service: publishes CloudEvents on the `kasa.events` topic exchange with publisher
 * confirms, and consumes its own durable queue `kasa.<consumerName>` (dead letters to `kasa.<consumerName>.dlq`) and,
 * optionally, per-instance broadcast queues.
 *
 * Connections are kept by amqp-connection-manager: after a drop it reconnects with backoff and re-runs the setup
 * functions, which re-declare the topology and the consumers. Publishes made while disconnected wait and are sent
 * after the reconnect; a publish resolves only once the broker confirmed it, and is retried if the connection dropped
 * before the confirm arrived (consumers are idempotent by event id, so a duplicate is harmless).
 *
 * @example
 * const bus = new EventBus({ url, source: 'kasa/status', logger, consumerName: 'status', processedEvents });
 * bus.subscribe('chat.message.created', async (event) => { await stats.count(event.data) });
 * await bus.start();
 * await bus.publish('service.heartbeat', heartbeat, { requestId });
 */
export class EventBus {
  private readonly log: Logger;
  private readonly durableHandlers = new Map<EventType, AnyHandler>();
  private readonly broadcastHandlers = new Map<EventType, AnyHandler>();
  private readonly prefetch: number;
  private readonly backoff: Backoff;
  private readonly initialBackoffMs: number;
  private readonly channelBackoff: Backoff;

  private manager?: AmqpConnectionManager;
  private publisher?: ChannelWrapper;
  private consumer?: ChannelWrapper;
  /** The raw channels whose setup completed; cleared when they close. */
  private publishChannel?: ConfirmChannel;
  private consumeChannel?: Channel;
  private consumerTags: string[] = [];
  private reconnectTimer?: NodeJS.Timeout;
  private firstSetupError?: Error;
  private onReadyChange?: () => void;

  private closing?: Promise<void>;
  private closed = false;
  private readonly closeSignal = new AbortController();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly pendingPublishes = new Set<Promise<unknown>>();

  constructor(private readonly options: EventBusOptions) {
    this.log = options.logger.child({ component: 'event-bus', broker: brokerAddress(options.url) });
    this.prefetch = options.prefetch ?? 16;
    if (!Number.isInteger(this.prefetch) || this.prefetch < 1)
      throw new Error('EventBus prefetch must be a positive integer');
    const initialMs = options.reconnectBackoff?.initialMs ?? 500;
    this.initialBackoffMs = initialMs;
    const maxMs = options.reconnectBackoff?.maxMs ?? 10_000;
    this.backoff = new Backoff(initialMs, maxMs);
    this.channelBackoff = new Backoff(initialMs, maxMs);
  }

  /** Durable subscription on this service's queue (bound to routing key = type). Call before start(). */
  subscribe<T extends EventType>(type: T, handler: EventHandler<T>): this {
    this.addHandler(this.durableHandlers, 'subscribe', type, handler as AnyHandler);
    return this;
  }

  /**
   * Every instance gets every event: exclusive, auto-delete, server-named queue per instance (e.g. the gateway's
   * token-revocation cache). No idempotency store needed; still validated. Events published while this instance is
   * disconnected are not received. Call before start().
   */
  subscribeBroadcast<T extends EventType>(type: T, handler: EventHandler<T>): this {
    this.addHandler(this.broadcastHandlers, 'subscribeBroadcast', type, handler as AnyHandler);
    return this;
  }

  /**
   * Connects and declares the topology (and consumers, if any). Resolves once connected and set up the first time;
   * rejects after `connectTimeoutMs` (default 30 s) saying RabbitMQ is not reachable, at once if the broker refuses
   * the credentials or the topology cannot be declared. Either way it keeps reconnecting with backoff in the
   * background until close().
   */
  async start(): Promise<void> {
    if (this.manager) throw new Error('EventBus.start() was already called');
    if (this.closing) throw new Error('EventBus.start() called after close()');
    const queues = this.durableHandlers.size > 0 ? this.checkConsumerOptions() : undefined;

    const backoffSeconds = () => this.backoff.next() / 1000;
    const manager = connect([this.options.url], {
      heartbeatIntervalInSeconds: this.options.heartbeatSeconds ?? 5,
      reconnectTimeInSeconds: this.initialBackoffMs / 1000,
      connectionOptions: { timeout: 10_000, clientProperties: { connection_name: this.options.source } },
    });
    this.manager = manager;
    let lastError: Error | undefined;
    let refused: Error | undefined;
    manager.on('connect', () => {
      this.backoff.reset();
      manager.reconnectTimeInSeconds = backoffSeconds();
      this.log.info('event bus connected');
    });
    manager.on('disconnect', ({ err }) => {
      this.publishChannel = undefined;
      this.consumeChannel = undefined;
      if (!this.closed)
        this.log.warn(
          { reason: err ? redact(err.message, this.options.url) : undefined },
          'event bus disconnected; reconnecting',
        );
    });
    manager.on('connectFailed', ({ err }) => {
      lastError = err;
      // amqp-connection-manager waits `reconnectTimeInSeconds` before the next attempt; grow it for a backoff.
      const retryInMs = Math.round(backoffSeconds() * 1000);
      manager.reconnectTimeInSeconds = retryInMs / 1000;
      if (isAccessRefused(err)) refused = err;
      this.log.warn({ err: redact(err.message, this.options.url), retryInMs }, 'event bus cannot connect; retrying');
      this.onReadyChange?.();
    });
    manager.on('blocked', ({ reason }) => this.log.warn({ reason }, 'broker blocked the connection (resource alarm)'));
    manager.on('unblocked', () => this.log.info('broker unblocked the connection'));

    this.publisher = manager.createChannel({
      name: 'kasa-publish',
      confirm: true,
      setup: (channel: ConfirmChannel) => this.setupPublisher(channel),
    });
    this.publisher.on('error', (err) => this.log.error({ err }, 'event bus publish channel error'));
    if (queues || this.broadcastHandlers.size > 0) {
      this.consumer = manager.createChannel({
        name: 'kasa-consume',
        confirm: false,
        setup: (channel: Channel) => this.setupConsumer(channel, queues),
      });
      this.consumer.on('error', (err) => this.log.error({ err }, 'event bus consume channel error'));
    }
    manager.connect().catch(() => undefined); // failures are reported through 'connectFailed'

    const timeoutMs = this.options.connectTimeoutMs ?? 30_000;
    await new Promise<void>((resolve, reject) => {
      const finish = (err?: Error) => {
        clearTimeout(timer);
        this.onReadyChange = undefined;
        if (err) reject(err);
        else resolve();
      };
      const timer = setTimeout(
        () => finish(new Error(unreachableMessage(this.options.url, timeoutMs, lastError?.message))),
        timeoutMs,
      );
      this.onReadyChange = () => {
        if (this.closed) finish(new Error('EventBus was closed before it connected'));
        else if (this.isConnected()) finish();
        else if (this.firstSetupError) finish(this.firstSetupError);
        else if (refused) {
          finish(
            new Error(
              `RabbitMQ at ${brokerAddress(this.options.url)} refused the credentials of the AMQP URL: ${redact(refused.message, this.options.url)}`,
            ),
          );
        }
      };
      this.onReadyChange();
    });
  }

  /**
   * Validates `data` against `EventSchemas[type]` (throws an InvalidEventError naming the type and problem; nothing is
   * sent), wraps it in a CloudEvents 1.0 envelope and publishes it, persistent, on `kasa.events` with routing key =
   * type and the request id in the envelope (`kasarequestid`) and the `x-request-id` header.
   *
   * Resolves with the event id only after the broker confirmed the message. While disconnected it waits and sends
   * after the reconnect; if the connection drops before the confirm, the same message (same id) is sent again. Rejects
   * only for invalid data, or if the bus is closed before the broker confirmed.
   */
  async publish<T extends EventType>(
    type: T,
    data: EventData<T>,
    options: { requestId?: string; id?: string } = {},
  ): Promise<string> {
    // Published while a request or event is handled: the event carries its request id and continues its trace.
    const context = currentTraceContext();
    const envelope = createEnvelope(type, data, {
      source: this.options.source,
      id: options.id,
      requestId: options.requestId ?? context?.requestId,
      ...(context ? { traceparent: formatTraceparent(context) } : {}),
    });
    const publisher = this.publisher;
    if (!publisher) throw new Error(`EventBus.publish('${type}') called before start()`);
    // Allowed while closing: close() waits for in-flight handlers, which may publish follow-up events.
    if (this.closed) throw new Error(`EventBus.publish('${type}') called after close()`);
    const properties: Options.Publish = {
      persistent: true,
      contentType: CONTENT_TYPE,
      messageId: envelope.id,
      type: envelope.type,
      appId: envelope.source,
      timestamp: Math.floor(Date.parse(envelope.time) / 1000),
      headers: {
        ...(envelope.kasarequestid !== undefined ? { [REQUEST_ID_HEADER]: envelope.kasarequestid } : {}),
        ...(envelope.traceparent !== undefined ? { [TRACEPARENT_HEADER]: envelope.traceparent } : {}),
      },
    };
    const sending = this.sendUntilConfirmed(
      publisher,
      type,
      Buffer.from(JSON.stringify(envelope)),
      properties,
      envelope.kasarequestid,
    );
    this.pendingPublishes.add(sending);
    try {
      await sending;
    } finally {
      this.pendingPublishes.delete(sending);
    }
    return envelope.id;
  }

  /**
   * Publishes like `publish`, but waits for the broker's confirm at most `ms`: resolves `true` once confirmed, or
   * `false` when the deadline passed first (the publish carries on in the background, as `publish` does, until the
   * broker confirms or the bus closes) or the publish failed: data that break the contract (nothing is sent; logged
   * at error, a bug to fix) or the bus closed first (logged at warn). Never rejects: for a request that should answer
   * whether or not the broker is there. An event that must not be lost goes through an Outbox, which republishes it.
   *
   * `options.onSettled` runs once the publish ends, within the deadline or after it: `true` when the broker
   * confirmed, `false` when the publish failed. Within the deadline, it is awaited before this resolves (so that,
   * say, a pending marker is cleared before the answer goes).
   */
  async publishWithin<T extends EventType>(
    type: T,
    data: EventData<T>,
    ms: number,
    options: { requestId?: string; id?: string; onSettled?: (confirmed: boolean) => unknown } = {},
  ): Promise<boolean> {
    const { onSettled, ...publishOptions } = options;
    const after = async (confirmed: boolean) => {
      try {
        await onSettled?.(confirmed);
      } catch (err) {
        this.log.warn({ err, type, eventId: options.id }, 'after-publish step failed');
      }
    };
    let confirmed = false;
    const sending = this.publish(type, data, publishOptions).then(
      async () => {
        confirmed = true;
        await after(true);
      },
      async (err: unknown) => {
        if (err instanceof InvalidEventError)
          this.log.error({ err, type, eventId: options.id }, 'invalid event not published');
        else this.log.warn({ err, type, eventId: options.id }, 'event not published');
        await after(false);
      },
    );
    // The wait covers `onSettled` too (e.g. clearing a pending marker), as far as the deadline goes.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([sending, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
    clearTimeout(timer);
    if (!confirmed) this.log.debug({ type, eventId: options.id, ms }, 'event not confirmed in time; still sending');
    return confirmed;
  }

  /** True while connected with the topology and consumers set up. */
  isConnected(): boolean {
    if (this.closed || !this.manager?.isConnected() || !this.publishChannel) return false;
    return !this.consumer || this.consumeChannel !== undefined;
  }

  /**
   * Stops consuming, waits for in-flight handlers (and, while connected, up to `closeTimeoutMs` for unconfirmed
   * publishes), then closes the channels and the connection. Publishes still unconfirmed then reject. Idempotent.
   */
  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    const channel = this.consumeChannel;
    const tags = this.consumerTags;
    this.consumerTags = [];
    if (channel) await Promise.all(tags.map((tag) => channel.cancel(tag).catch(() => undefined)));
    await Promise.allSettled([...this.inFlight]);
    if (this.pendingPublishes.size > 0 && this.isConnected()) {
      const grace = new AbortController();
      await Promise.race([
        Promise.allSettled([...this.pendingPublishes]),
        sleep(this.options.closeTimeoutMs ?? 5_000, undefined, { signal: grace.signal }).catch(() => undefined),
      ]);
      grace.abort();
    }
    this.closed = true;
    this.closeSignal.abort();
    clearTimeout(this.reconnectTimer);
    this.onReadyChange?.();
    await this.manager?.close();
    this.publishChannel = undefined;
    this.consumeChannel = undefined;
    this.log.info('event bus closed');
  }

  private addHandler(map: Map<EventType, AnyHandler>, method: string, type: EventType, handler: AnyHandler) {
    if (this.manager) throw new Error(`EventBus.${method}('${type}') must be called before start()`);
    if (typeof type !== 'string' || !isEventType(type))
      throw new Error(`EventBus.${method}: unknown event type '${String(type)}'`);
    if (map.has(type)) throw new Error(`EventBus.${method}: '${type}' already has a handler`);
    map.set(type, handler);
  }

  private checkConsumerOptions() {
    const { consumerName, processedEvents } = this.options;
    if (!consumerName || !processedEvents) {
      throw new Error(
        'EventBus.subscribe() needs the consumerName and processedEvents options (durable queue and idempotency)',
      );
    }
    return consumerQueues(consumerName);
  }

  private async sendUntilConfirmed(
    publisher: ChannelWrapper,
    type: EventType,
    content: Buffer,
    properties: Options.Publish,
    requestId: string | undefined,
  ): Promise<void> {
    const retry = new Backoff(100, 5_000);
    for (let attempt = 1; ; attempt += 1) {
      try {
        await publisher.publish(EVENTS_EXCHANGE, type, content, properties);
        return;
      } catch (err) {
        if (this.closed)
          throw new Error(`EventBus closed before the broker confirmed event ${type} ${properties.messageId}`);
        // The channel closed before the confirm (the broker may or may not have the message) or the broker nacked it:
        // send it again; a duplicate carries the same id and consumers skip it.
        const retryInMs = retry.next();
        this.log.warn(
          { eventId: properties.messageId, type, requestId, attempt, retryInMs, err: (err as Error).message },
          'publish not confirmed; retrying',
        );
        await sleep(retryInMs, undefined, { signal: this.closeSignal.signal }).catch(() => undefined);
      }
    }
  }

  private async setupPublisher(channel: ConfirmChannel): Promise<void> {
    this.watchChannel(channel, 'publish');
    try {
      await declareExchanges(channel);
      this.publishChannel = channel;
      channel.once('close', () => {
        if (this.publishChannel === channel) this.publishChannel = undefined;
      });
      this.setupSucceeded();
    } catch (err) {
      this.setupFailed('publish', err as Error);
    }
  }

  private async setupConsumer(channel: Channel, queues: ReturnType<typeof consumerQueues> | undefined): Promise<void> {
    this.watchChannel(channel, 'consume');
    if (this.closing) return;
    try {
      await declareExchanges(channel);
      await channel.prefetch(this.prefetch);
      const tags: string[] = [];
      if (queues) {
        await declareConsumerQueue(channel, queues, this.durableHandlers.keys());
        const dispatcher = new DeliveryDispatcher({
          queue: queues.queue,
          mode: 'durable',
          handlers: this.durableHandlers,
          processedEvents: this.options.processedEvents,
          logger: this.log,
          spans: this.options.spans,
        });
        tags.push(await this.consume(channel, queues.queue, dispatcher));
      }
      if (this.broadcastHandlers.size > 0) {
        const queue = await declareBroadcastQueue(channel, this.broadcastHandlers.keys());
        const dispatcher = new DeliveryDispatcher({
          queue,
          mode: 'broadcast',
          handlers: this.broadcastHandlers,
          logger: this.log,
          spans: this.options.spans,
        });
        tags.push(await this.consume(channel, queue, dispatcher));
      }
      this.consumerTags = tags;
      this.consumeChannel = channel;
      channel.once('close', () => {
        if (this.consumeChannel === channel) this.consumeChannel = undefined;
      });
      this.setupSucceeded();
    } catch (err) {
      this.setupFailed('consume', err as Error);
    }
  }

  private async consume(channel: Channel, queue: string, dispatcher: DeliveryDispatcher): Promise<string> {
    const { consumerTag } = await channel.consume(queue, (msg: ConsumeMessage | null) => {
      if (msg === null) {
        // The broker cancelled the consumer (e.g. the queue was deleted): reconnect to declare it again.
        if (!this.closing) this.recoverChannel('consume', new Error(`broker cancelled the consumer of ${queue}`));
        return;
      }
      const handling = dispatcher.dispatch(channel, msg);
      this.inFlight.add(handling);
      void handling.finally(() => this.inFlight.delete(handling));
    });
    return consumerTag;
  }

  /**
   * amqplib emits 'error' on a channel the broker closed (e.g. a queue declared with other arguments); without a
   * listener that would crash the process. amqp-connection-manager only replaces channels on reconnect, so reconnect.
   */
  private watchChannel(channel: Channel, name: string): void {
    channel.on('error', (err: Error) => this.recoverChannel(name, err));
  }

  private recoverChannel(name: string, err: Error): void {
    if (this.closed || this.closing || this.reconnectTimer) return;
    const retryInMs = this.channelBackoff.next();
    this.log.error(
      { err: err.message, channel: name, retryInMs },
      'event bus channel closed by the broker; reconnecting',
    );
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (!this.closed && !this.closing && this.manager?.isConnected()) this.manager.reconnect();
    }, retryInMs);
    this.reconnectTimer.unref();
  }

  private setupSucceeded(): void {
    if (this.isConnected()) this.channelBackoff.reset();
    this.onReadyChange?.();
  }

  private setupFailed(name: string, err: Error): void {
    if (this.closed || this.closing) return;
    // A broker error carries its AMQP reply code (e.g. 406 PRECONDITION_FAILED for a queue declared with other
    // arguments); anything else means the connection went away during setup and the next reconnect sets up again.
    if (typeof (err as { code?: unknown }).code !== 'number') {
      this.log.warn({ err: err.message, channel: name }, 'event bus setup interrupted; will set up again on reconnect');
      return;
    }
    this.firstSetupError ??= new Error(
      `Event bus could not declare its RabbitMQ topology (${name} channel): ${err.message}`,
    );
    this.recoverChannel(name, err);
    this.onReadyChange?.();
  }
}
