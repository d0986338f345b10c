import { EVENTS_EXCHANGE } from '@kasa/contracts';
import amqp, { type Channel, type ChannelModel } from 'amqplib';
import { randomUUID } from 'node:crypto';

export interface ReceivedEvent {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

/**
 * A consumer of its own, bound to `kasa.events` directly on the real broker (not through the platform's proxy), that
 * remembers every event of the given types by id: a test compares what it received with what the platform wrote.
 */
export class EventCounter {
  private connection?: ChannelModel;
  private channel?: Channel;
  readonly events = new Map<string, ReceivedEvent>();

  constructor(
    private readonly url: string,
    private readonly types: string[],
  ) {}

  async start(): Promise<this> {
    this.connection = await amqp.connect(this.url);
    this.channel = await this.connection.createChannel();
    await this.channel.assertExchange(EVENTS_EXCHANGE, 'topic', { durable: true });
    const { queue } = await this.channel.assertQueue(`kasa.faults.${randomUUID().slice(0, 8)}`, {
      exclusive: true,
      autoDelete: true,
    });
    for (const type of this.types) await this.channel.bindQueue(queue, EVENTS_EXCHANGE, type);
    await this.channel.consume(
      queue,
      (msg) => {
        if (!msg) return;
        const event = JSON.parse(msg.content.toString()) as ReceivedEvent;
        this.events.set(event.id, event);
      },
      { noAck: true },
    );
    return this;
  }

  /** The received events of `type` whose data matches `where`. */
  find(type: string, where: (data: Record<string, unknown>) => boolean): ReceivedEvent[] {
    return [...this.events.values()].filter((e) => e.type === type && where(e.data));
  }

  async stop(): Promise<void> {
    await this.connection?.close().catch(() => undefined);
  }
}
