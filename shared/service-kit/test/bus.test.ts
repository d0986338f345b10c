/**
 * Integration tests of the event bus against the real RabbitMQ on this machine (no broker mocks) and the FerretDB the
 * jest global setup starts. Every test uses fresh consumer names; their queues are deleted afterwards. The broker is
 * shared with other test runs, so queues bound to an event type may also get other runs' events: assertions only look
 * at the events (ids, sources) a test made itself.
 */
import { DEAD_LETTER_EXCHANGE, EVENTS_EXCHANGE, type EventData, type KasaEvent } from '@kasa/contracts';
import { eventually } from '@kasa/test-kit';
import { connect as amqpConnect, type Channel, type ChannelModel, type GetMessage } from 'amqplib';
import type { Connection } from 'mongoose';
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import pino from 'pino';
import { connectDatabase } from '../src/db';
import { EventBus, createMongoProcessedEventStore, type EventBusOptions, type ProcessedEventStore } from '../src/bus';

const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const RABBIT_PORT = Number(new URL(AMQP_URL).port || 5672);
const DB_NAME = `kasa_test_bus_${process.pid}`;

/** Every log line the buses write, to check what is (and is not) logged. */
const logLines: string[] = [];
const logger = pino({ level: 'debug' }, { write: (line: string) => void logLines.push(line) });
const logsAbout = (eventId: string) =>
  logLines.filter((line) => line.includes(eventId)).map((line) => JSON.parse(line) as Record<string, unknown>);

let db: Connection;
let admin: ChannelModel;
const extraDbs: Connection[] = [];
const consumerNames: string[] = [];
const buses: EventBus[] = [];
const proxies: TcpProxy[] = [];

const unique = () => randomUUID().slice(0, 8);

function newConsumerName(label: string): string {
  const name = `test-bus-${label}-${process.pid}-${unique()}`;
  consumerNames.push(name);
  return name;
}

/** A processed-event store in a database of its own (each consumer service has its own database). */
function newStore(): ReturnType<typeof createMongoProcessedEventStore> {
  const other = db.useDb(`${DB_NAME}_${unique()}`);
  extraDbs.push(other);
  return createMongoProcessedEventStore(other);
}

function newBus(options: Partial<EventBusOptions> = {}): EventBus {
  const bus = new EventBus({
    url: AMQP_URL,
    source: `kasa/bus-test-${unique()}`,
    logger,
    reconnectBackoff: { initialMs: 100, maxMs: 500 },
    ...options,
  });
  buses.push(bus);
  return bus;
}

/** A started subscriber on a fresh durable queue, recording what its handler received. */
async function startSubscriber<T extends 'auth.user.registered' | 'chat.session.created' | 'auth.apikey.revoked'>(
  type: T,
  options: Partial<EventBusOptions> & { handler?: (event: KasaEvent<T>) => Promise<void> } = {},
) {
  const consumerName = options.consumerName ?? newConsumerName(type.split('.')[1]!);
  const store = (options.processedEvents as ReturnType<typeof newStore> | undefined) ?? newStore();
  const received: KasaEvent<T>[] = [];
  const bus = newBus({ ...options, consumerName, processedEvents: store });
  bus.subscribe(type, async (event) => {
    received.push(event);
    await options.handler?.(event);
  });
  await bus.start();
  return { bus, received, store, consumerName, queue: `kasa.${consumerName}`, dlq: `kasa.${consumerName}.dlq` };
}

const registered = (overrides: Partial<EventData<'auth.user.registered'>> = {}): EventData<'auth.user.registered'> => ({
  userId: `u-${unique()}`,
  username: `Private Person ${unique()}`,
  subscriptionTier: 'free',
  registeredAt: new Date().toISOString(),
  ...overrides,
});
const sessionCreated = (): EventData<'chat.session.created'> => ({
  sessionId: `s-${unique()}`,
  userId: `u-${unique()}`,
  personaId: 'kofi',
});

/** Runs `work` on a channel of its own (a failed declaration closes the channel it ran on). */
async function withChannel<T>(work: (channel: Channel) => Promise<T>): Promise<T> {
  const channel = await admin.createChannel();
  channel.on('error', () => undefined);
  try {
    return await work(channel);
  } finally {
    await channel.close().catch(() => undefined);
  }
}

/** Takes every message currently in a queue. */
async function drain(queue: string): Promise<GetMessage[]> {
  return withChannel(async (channel) => {
    const messages: GetMessage[] = [];
    for (;;) {
      const message = await channel.get(queue, { noAck: true });
      if (!message) return messages;
      messages.push(message);
    }
  });
}

const messageCount = (queue: string) => withChannel(async (channel) => (await channel.checkQueue(queue)).messageCount);

/** An exclusive queue bound to `type` on kasa.events that shows the raw messages publishers send. */
async function tap(type: string) {
  const channel = await admin.createChannel();
  await channel.assertExchange(EVENTS_EXCHANGE, 'topic', { durable: true });
  const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
  await channel.bindQueue(queue, EVENTS_EXCHANGE, type);
  return {
    /** Reads messages until the one with this id; returns it and the messages before it. */
    async until(messageId: string): Promise<{ message: GetMessage; before: GetMessage[] }> {
      const before: GetMessage[] = [];
      const message = await eventually(
        async () => {
          for (;;) {
            const next = await channel.get(queue, { noAck: true });
            if (!next) return undefined;
            if (next.properties.messageId === messageId) return next;
            before.push(next);
          }
        },
        { timeoutMs: 5_000, what: `message ${messageId} on ${type}` },
      );
      return { message, before };
    },
    close: () => channel.close(),
  };
}

/** A TCP proxy in front of RabbitMQ whose connections the test can cut, and which can refuse new ones. */
class TcpProxy {
  refusing = false;
  private readonly sockets = new Set<net.Socket>();
  private constructor(private readonly server: net.Server) {}

  static async start(targetPort: number): Promise<TcpProxy> {
    const server = net.createServer();
    const proxy = new TcpProxy(server);
    server.on('connection', (client) => proxy.accept(client, targetPort));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get url(): string {
    const { port } = this.server.address() as net.AddressInfo;
    return `amqp://guest:guest@127.0.0.1:${port}`;
  }

  /** Destroys every proxied socket, as a network failure would. */
  dropAll(): void {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  async close(): Promise<void> {
    this.refusing = true;
    this.dropAll();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private accept(client: net.Socket, targetPort: number): void {
    if (this.refusing) {
      client.destroy();
      return;
    }
    const upstream = net.connect(targetPort, '127.0.0.1');
    for (const [a, b] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      this.sockets.add(a);
      a.on('error', () => b.destroy());
      a.on('close', () => {
        b.destroy();
        this.sockets.delete(a);
      });
      a.pipe(b);
    }
  }
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  db = await connectDatabase({
    url: process.env.MONGO_URL!,
    dbName: DB_NAME,
    logger: pino({ level: 'silent' }),
    maxAttempts: 3,
  });
  admin = await amqpConnect(AMQP_URL);
});

afterEach(async () => {
  await Promise.all(buses.splice(0).map((bus) => bus.close()));
  await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
});

afterAll(async () => {
  if (admin) {
    await withChannel(async (channel) => {
      for (const name of consumerNames) {
        await channel.deleteQueue(`kasa.${name}`);
        await channel.deleteQueue(`kasa.${name}.dlq`);
      }
    });
    await admin.close();
  }
  for (const other of extraDbs) await other.dropDatabase().catch(() => undefined);
  await db?.dropDatabase();
  await db?.close();
});

describe('EventBus against RabbitMQ', () => {
  it('declares durable topic exchanges and a durable queue that dead-letters to its own durable DLQ', async () => {
    const { queue, dlq } = await startSubscriber('auth.user.registered');
    // Re-declaring with identical properties succeeds and with different ones fails (406), so these pin the topology.
    await withChannel(async (channel) => {
      await channel.assertExchange(EVENTS_EXCHANGE, 'topic', { durable: true });
      await channel.assertExchange(DEAD_LETTER_EXCHANGE, 'topic', { durable: true });
      await channel.assertQueue(queue, {
        durable: true,
        deadLetterExchange: DEAD_LETTER_EXCHANGE,
        deadLetterRoutingKey: dlq,
      });
      await channel.assertQueue(dlq, { durable: true });
    });
    await expect(withChannel((channel) => channel.assertQueue(queue, { durable: false }))).rejects.toThrow(
      /PRECONDITION_FAILED/,
    );
    await expect(
      withChannel((channel) =>
        channel.assertQueue(queue, {
          durable: true,
          deadLetterExchange: DEAD_LETTER_EXCHANGE,
          deadLetterRoutingKey: 'elsewhere',
        }),
      ),
    ).rejects.toThrow(/PRECONDITION_FAILED/);
    await expect(
      withChannel((channel) => channel.assertExchange(EVENTS_EXCHANGE, 'fanout', { durable: true })),
    ).rejects.toThrow(/PRECONDITION_FAILED/);
  });

  it('delivers a published event to a durable subscriber with the same id, data, source and request id', async () => {
    const subscriber = await startSubscriber('auth.user.registered');
    const publisher = newBus({ source: 'kasa/auth' });
    await publisher.start();
    const raw = await tap('auth.user.registered');
    const data = registered();

    const id = await publisher.publish('auth.user.registered', data, { requestId: 'req-42' });

    const event = await eventually(() => subscriber.received.find((e) => e.id === id), { timeoutMs: 10_000 });
    expect(event).toEqual({
      id,
      type: 'auth.user.registered',
      source: 'kasa/auth',
      time: expect.any(String),
      requestId: 'req-42',
      data,
    });
    expect(Number.isNaN(Date.parse(event.time))).toBe(false);
    expect(subscriber.received.filter((e) => e.id === id)).toHaveLength(1);
    expect(await eventually(() => subscriber.store.has(id), { timeoutMs: 10_000 })).toBe(true);

    // What went over the wire: a persistent CloudEvents 1.0 JSON envelope, request id also in the headers.
    const { message } = await raw.until(id);
    await raw.close();
    expect(JSON.parse(message.content.toString())).toEqual({
      specversion: '1.0',
      id,
      source: 'kasa/auth',
      type: 'auth.user.registered',
      time: event.time,
      datacontenttype: 'application/json',
      kasarequestid: 'req-42',
      data,
    });
    expect(message.fields.exchange).toBe(EVENTS_EXCHANGE);
    expect(message.fields.routingKey).toBe('auth.user.registered');
    expect(message.properties.deliveryMode).toBe(2);
    expect(message.properties.messageId).toBe(id);
    expect(message.properties.headers?.['x-request-id']).toBe('req-42');

    // Logged with type, id and request id; never the data.
    const lines = await eventually(
      () => {
        const found = logsAbout(id);
        return found.some((line) => line.msg === 'event handled') ? found : undefined;
      },
      { timeoutMs: 10_000 },
    );
    expect(lines[0]).toMatchObject({ eventId: id, type: 'auth.user.registered', requestId: 'req-42' });
    expect(logLines.join('\n')).not.toContain(data.username);
  });

  it('rejects invalid data with a clear error and sends nothing', async () => {
    const publisher = newBus();
    await publisher.start();
    const raw = await tap('auth.user.registered');

    const bad = { ...registered(), username: 42 } as unknown as EventData<'auth.user.registered'>;
    await expect(publisher.publish('auth.user.registered', bad)).rejects.toThrow(
      /Invalid event "auth\.user\.registered": data\.username: .*expected string/,
    );
    const missing = { userId: 'u1' } as unknown as EventData<'auth.user.registered'>;
    await expect(publisher.publish('auth.user.registered', missing)).rejects.toThrow(
      /auth\.user\.registered.*data\.username/,
    );
    await expect(
      publisher.publish('auth.user.registered', registered(), { requestId: 'x'.repeat(500) }),
    ).rejects.toThrow(/kasarequestid/);
    await expect(publisher.publish('no.such.event' as 'auth.user.registered', registered())).rejects.toThrow(
      /unknown event type/,
    );

    // The next valid event is the first message from this publisher that the exchange routed.
    const sentinel = await publisher.publish('auth.user.registered', registered());
    const { message, before } = await raw.until(sentinel);
    await raw.close();
    const source = message.properties.appId as string;
    expect(source).toMatch(/^kasa\/bus-test-/);
    expect(before.filter((m) => m.properties.appId === source)).toEqual([]);
  });

  it('handles an event published twice with the same id once', async () => {
    const subscriber = await startSubscriber('chat.session.created');
    const publisher = newBus();
    await publisher.start();
    const id = randomUUID();
    const data = sessionCreated();

    // Both copies arrive in one prefetch window, so they are in flight together.
    await Promise.all([
      publisher.publish('chat.session.created', data, { id }),
      publisher.publish('chat.session.created', data, { id }),
    ]);
    await eventually(() => logsAbout(id).some((line) => line.msg === 'duplicate event skipped'), {
      timeoutMs: 10_000,
      what: 'duplicate skipped',
    });
    // A later redelivery of an event already stored is skipped too.
    await publisher.publish('chat.session.created', data, { id });
    await eventually(() => logsAbout(id).filter((line) => line.msg === 'duplicate event skipped').length === 2, {
      timeoutMs: 10_000,
      what: 'second skip',
    });

    expect(subscriber.received.filter((e) => e.id === id)).toHaveLength(1);
  });

  it('acks only after the handled event is stored: a failed store write makes the broker redeliver it', async () => {
    const store = newStore();
    const id = randomUUID();
    let failNextMark = true;
    const flakyStore: ProcessedEventStore = {
      has: (eventId) => store.has(eventId),
      markProcessed: async (eventId, type) => {
        if (eventId === id && failNextMark) {
          failNextMark = false;
          throw new Error('database unavailable');
        }
        await store.markProcessed(eventId, type);
      },
    };
    const subscriber = await startSubscriber('chat.session.created', {
      processedEvents: flakyStore as ReturnType<typeof newStore>,
    });
    const publisher = newBus();
    await publisher.start();

    await publisher.publish('chat.session.created', sessionCreated(), { id });

    await eventually(() => store.has(id), { timeoutMs: 10_000, what: 'event stored' });
    expect(subscriber.received.filter((e) => e.id === id)).toHaveLength(2);
    expect(await messageCount(subscriber.dlq)).toBe(0);
  });

  it('dead-letters poison messages and failed handlers into the consumer’s own DLQ only', async () => {
    const a = await startSubscriber('auth.user.registered');
    // A second consumer of the same type: its dead letters must stay in its own DLQ.
    const b = await startSubscriber('auth.user.registered');
    const failingCalls: string[] = [];
    const failing = await startSubscriber('auth.apikey.revoked', {
      handler: async (event) => {
        failingCalls.push(event.id);
        throw new Error('handler bug');
      },
    });
    const publisher = newBus();
    await publisher.start();

    const invalidId = randomUUID();
    const invalidData = {
      userId: 7,
      username: 'Very Private Name',
      subscriptionTier: 'free',
      registeredAt: 'yesterday',
    };
    const notJson = `this is not {json ${unique()}`;
    const confirm = await admin.createConfirmChannel();
    confirm.publish(EVENTS_EXCHANGE, 'auth.user.registered', Buffer.from(notJson), { persistent: true });
    const envelope = {
      specversion: '1.0',
      id: invalidId,
      source: 'kasa/somebody',
      type: 'auth.user.registered',
      time: new Date().toISOString(),
      datacontenttype: 'application/json',
      data: invalidData,
    };
    confirm.publish(EVENTS_EXCHANGE, 'auth.user.registered', Buffer.from(JSON.stringify(envelope)), {
      persistent: true,
    });
    await confirm.waitForConfirms();
    await confirm.close();
    const throwingId = await publisher.publish('auth.apikey.revoked', { userId: 'u1', keyId: 'k1', prefix: 'kasa_ab' });
    const sentinel = await publisher.publish('auth.user.registered', registered());

    await eventually(() => a.received.some((e) => e.id === sentinel) && b.received.some((e) => e.id === sentinel), {
      timeoutMs: 10_000,
      what: 'sentinel handled',
    });
    await eventually(
      async () =>
        (await messageCount(a.dlq)) >= 2 && (await messageCount(b.dlq)) >= 2 && (await messageCount(failing.dlq)) >= 1,
      { timeoutMs: 10_000 },
    );

    for (const subscriber of [a, b]) {
      // Exactly one copy of each poison message, and it came from this consumer's own queue.
      const dead = (await drain(subscriber.dlq)).filter((m) => {
        const body = m.content.toString();
        return body === notJson || body.includes(invalidId);
      });
      expect(dead.map((m) => (m.content.toString() === notJson ? 'not json' : 'invalid data')).sort()).toEqual([
        'invalid data',
        'not json',
      ]);
      for (const message of dead) {
        expect(message.properties.headers?.['x-first-death-queue']).toBe(subscriber.queue);
        expect(message.properties.headers?.['x-first-death-reason']).toBe('rejected');
      }
      expect(subscriber.received.filter((e) => e.id === sentinel || e.id === invalidId).map((e) => e.id)).toEqual([
        sentinel,
      ]);
    }
    const deadFromHandler = (await drain(failing.dlq)).filter((m) => m.properties.messageId === throwingId);
    expect(deadFromHandler).toHaveLength(1);
    expect(failingCalls.filter((id) => id === throwingId)).toHaveLength(1); // not requeued in a loop
    expect(await failing.store.has(throwingId)).toBe(false);

    const poisonLog = logsAbout(invalidId).find((line) => line.msg === 'poison message dead-lettered');
    expect(poisonLog).toMatchObject({
      level: 40,
      eventId: invalidId,
      type: 'auth.user.registered',
      problem: expect.stringContaining('data.'),
    });
    expect(
      logLines.some(
        (line) => line.includes('poison message dead-lettered') && line.includes('"problem":"body is not valid JSON"'),
      ),
    ).toBe(true);
    expect(
      logsAbout(throwingId).find((line) => line.msg === 'event handler failed; message dead-lettered'),
    ).toMatchObject({ level: 50 });
    expect(logLines.join('\n')).not.toContain('Very Private Name');
  });

  it('gives every broadcast subscriber instance its own copy of an event', async () => {
    const seen: Record<string, KasaEvent<'auth.token.revoked'>[]> = { one: [], two: [] };
    for (const instance of ['one', 'two'] as const) {
      const bus = newBus().subscribeBroadcast('auth.token.revoked', async (event) => void seen[instance]!.push(event));
      await bus.start();
    }
    const publisher = newBus({ source: 'kasa/auth' });
    await publisher.start();
    const data = { userId: 'u1', jti: randomUUID(), expiresAt: 2_000_000_000 };

    const id = await publisher.publish('auth.token.revoked', data, { requestId: 'req-b' });

    const mine = (instance: string) => seen[instance]!.filter((e) => e.id === id);
    await eventually(() => mine('one').length === 1 && mine('two').length === 1, {
      timeoutMs: 10_000,
      what: 'both instances received',
    });
    for (const instance of ['one', 'two']) {
      expect(mine(instance)[0]).toEqual({
        id,
        type: 'auth.token.revoked',
        source: 'kasa/auth',
        time: expect.any(String),
        requestId: 'req-b',
        data,
      });
    }
  });

  it('survives a dropped connection: confirmed events are handled exactly once, and publishes wait for the reconnect', async () => {
    const proxy = await TcpProxy.start(RABBIT_PORT);
    proxies.push(proxy);
    const subscriber = await startSubscriber('chat.session.created', { url: proxy.url });
    const publisher = newBus({ url: proxy.url });
    const direct = newBus();
    await Promise.all([publisher.start(), direct.start()]);

    const before = await publisher.publish('chat.session.created', sessionCreated());
    await eventually(() => subscriber.received.some((e) => e.id === before), {
      timeoutMs: 10_000,
      what: 'first event handled',
    });

    proxy.refusing = true;
    proxy.dropAll();
    await eventually(() => !subscriber.bus.isConnected() && !publisher.isConnected(), {
      timeoutMs: 5_000,
      what: 'disconnect noticed',
    });

    // Confirmed by the broker while the consumer is away: must not be lost.
    const whileConsumerAway = await direct.publish('chat.session.created', sessionCreated());
    // Published while the publisher is away: buffered, not confirmed until the broker has it.
    let confirmed = false;
    const duringOutage = publisher.publish('chat.session.created', sessionCreated()).then((id) => {
      confirmed = true;
      return id;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(confirmed).toBe(false);
    expect(publisher.isConnected()).toBe(false);

    proxy.refusing = false;
    const sentDuringOutage = await duringOutage;
    await eventually(() => subscriber.bus.isConnected() && publisher.isConnected(), {
      timeoutMs: 10_000,
      what: 'reconnected',
    });
    const after = await direct.publish('chat.session.created', sessionCreated());
    await eventually(() => subscriber.received.some((e) => e.id === after), {
      timeoutMs: 10_000,
      what: 'events after reconnect handled',
    });

    const sent = [before, whileConsumerAway, sentDuringOutage, after];
    const handled = subscriber.received.map((e) => e.id).filter((id) => sent.includes(id));
    expect(handled.sort()).toEqual([...sent].sort());
    for (const id of [whileConsumerAway, sentDuringOutage])
      await eventually(() => subscriber.store.has(id), { timeoutMs: 5_000, what: 'event stored' });
    expect(logLines.some((line) => line.includes('event bus disconnected; reconnecting'))).toBe(true);
  });

  it('start() rejects with a clear message within the configured timeout when RabbitMQ is unreachable', async () => {
    const port = await freePort();
    const bus = newBus({ url: `amqp://guest:s3cret-pass@127.0.0.1:${port}`, connectTimeoutMs: 1_000 });
    const started = Date.now();

    const error = (await bus.start().catch((err: unknown) => err)) as Error;

    const elapsed = Date.now() - started;
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toContain(`RabbitMQ is not reachable at 127.0.0.1:${port}`);
    expect(error.message).toContain('rabbitmq-server -detached');
    expect(error.message).not.toContain('s3cret-pass');
    expect(elapsed).toBeGreaterThanOrEqual(950);
    expect(elapsed).toBeLessThan(3_000);
    expect(bus.isConnected()).toBe(false);
    await bus.close();
  });

  it('start() rejects at once when the broker refuses the credentials', async () => {
    const url = new URL(AMQP_URL);
    url.password = 'not-the-password';
    const bus = newBus({ url: url.toString(), connectTimeoutMs: 20_000 });
    const started = Date.now();

    const error = (await bus.start().catch((err: unknown) => err)) as Error;

    expect(error.message).toMatch(/RabbitMQ at 127\.0\.0\.1:\d+ refused the credentials/);
    expect(error.message).not.toContain('not-the-password');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('refuses misuse early: subscribe without consumerName/store, subscribe after start, publish before start', async () => {
    const noQueue = newBus().subscribe('auth.user.registered', async () => undefined);
    await expect(noQueue.start()).rejects.toThrow(/consumerName and processedEvents/);
    const started = newBus();
    await started.start();
    expect(() => started.subscribe('auth.user.registered', async () => undefined)).toThrow(/before start\(\)/);
    await expect(newBus().publish('auth.user.registered', registered())).rejects.toThrow(/before start\(\)/);
    const badName = newBus({ consumerName: 'bad #name', processedEvents: newStore() }).subscribe(
      'auth.user.registered',
      async () => undefined,
    );
    await expect(badName.start()).rejects.toThrow(/Invalid event bus consumerName/);
  });
});

describe('createMongoProcessedEventStore', () => {
  it('remembers processed ids in processed_events and prunes old ones', async () => {
    const other = db.useDb(`${DB_NAME}_${unique()}`);
    extraDbs.push(other);
    const store = createMongoProcessedEventStore(other);
    expect(await store.has('e1')).toBe(false);
    await store.markProcessed('e1', 'auth.user.registered');
    await store.markProcessed('e1', 'auth.user.registered'); // a second mark is harmless
    expect(await store.has('e1')).toBe(true);
    const row = await other.collection('processed_events').findOne({ _id: 'e1' as never });
    expect(row).toMatchObject({ _id: 'e1', type: 'auth.user.registered', processedAt: expect.any(Date) });

    await other
      .collection('processed_events')
      .insertOne({ _id: 'old' as never, type: 'x', processedAt: new Date('2020-01-01') });
    expect(await store.prune(new Date('2021-01-01'))).toBe(1);
    expect(await store.has('old')).toBe(false);
    expect(await store.has('e1')).toBe(true);
  });
});

describe('EventBus.publishWithin', () => {
  it('resolves true once the broker confirmed, and the event carries the id given', async () => {
    const subscriber = await startSubscriber('chat.session.created');
    const publisher = newBus();
    await publisher.start();
    const id = `within-${unique()}`;
    const settled: boolean[] = [];
    const confirmed = await publisher.publishWithin('chat.session.created', sessionCreated(), 5_000, {
      id,
      onSettled: (ok) => settled.push(ok),
    });
    expect(confirmed).toBe(true);
    await eventually(() => subscriber.received.some((e) => e.id === id), { timeoutMs: 10_000, what: 'event handled' });
    await eventually(() => settled.length === 1, { timeoutMs: 2_000, what: 'onSettled called' });
    expect(settled).toEqual([true]);
  });

  it('gives up waiting at the deadline while the broker is away, and still delivers the event once it is back', async () => {
    const proxy = await TcpProxy.start(RABBIT_PORT);
    proxies.push(proxy);
    const subscriber = await startSubscriber('chat.session.created');
    const publisher = newBus({ url: proxy.url });
    await publisher.start();
    proxy.refusing = true;
    proxy.dropAll();
    await eventually(() => !publisher.isConnected(), { timeoutMs: 5_000, what: 'disconnect noticed' });

    const id = `within-${unique()}`;
    const settled: boolean[] = [];
    const started = Date.now();
    const confirmed = await publisher.publishWithin('chat.session.created', sessionCreated(), 300, {
      id,
      onSettled: (ok) => settled.push(ok),
    });
    const waited = Date.now() - started;
    expect(confirmed).toBe(false);
    expect(waited).toBeGreaterThanOrEqual(290);
    expect(waited).toBeLessThan(2_000);
    expect(settled).toEqual([]);

    proxy.refusing = false;
    await eventually(() => subscriber.received.some((e) => e.id === id), {
      timeoutMs: 15_000,
      what: 'the held event delivered after the reconnect',
    });
    await eventually(() => settled.length === 1, { timeoutMs: 5_000, what: 'the late confirm reported' });
    expect(settled).toEqual([true]);
  });

  it('never rejects: data that break the contract are not sent, and are logged', async () => {
    const publisher = newBus();
    await publisher.start();
    const id = `within-${unique()}`;
    const settled: boolean[] = [];
    const confirmed = await publisher.publishWithin(
      'chat.session.created',
      { sessionId: 42 } as unknown as EventData<'chat.session.created'>,
      1_000,
      { id, onSettled: (ok) => settled.push(ok) },
    );
    expect(confirmed).toBe(false);
    await eventually(() => settled.length === 1, { timeoutMs: 2_000, what: 'onSettled called' });
    expect(settled).toEqual([false]);
    expect(logsAbout(id).some((line) => line.msg === 'invalid event not published' && line.level === 50)).toBe(true);
  });

  it('resolves false when the bus closes before the broker confirmed', async () => {
    const proxy = await TcpProxy.start(RABBIT_PORT);
    proxies.push(proxy);
    const publisher = newBus({ url: proxy.url, closeTimeoutMs: 100 });
    await publisher.start();
    proxy.refusing = true;
    proxy.dropAll();
    await eventually(() => !publisher.isConnected(), { timeoutMs: 5_000, what: 'disconnect noticed' });
    const settled: boolean[] = [];
    const waiting = publisher.publishWithin('chat.session.created', sessionCreated(), 5_000, {
      onSettled: (ok) => settled.push(ok),
    });
    await publisher.close();
    expect(await waiting).toBe(false);
    await eventually(() => settled.length === 1, { timeoutMs: 2_000, what: 'onSettled called' });
    expect(settled).toEqual([false]);
  });
});
