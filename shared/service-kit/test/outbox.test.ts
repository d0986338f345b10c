/**
 * The kit's outbox against the FerretDB the jest global setup starts, with a bus double whose confirms the test
 * decides (the real bus's publishWithin is tested against RabbitMQ in bus.test.ts).
 */
import type { EventData, EventType } from '@kasa/contracts';
import { eventually } from '@kasa/test-kit';
import { Schema, type Connection, type Model } from 'mongoose';
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { InvalidEventError } from '../src/bus';
import { connectDatabase } from '../src/db';
import { Outbox, type OutboxEntry, type OutboxOptions } from '../src/outbox';

const DB_NAME = `kasa_test_outbox_${process.pid}`;
const logger = pino({ level: 'silent' });

interface Doc {
  _id: string;
  name: string;
  event?: OutboxEntry<'chat.session.created'>;
}

/** publishWithin as the bus answers it: confirmed in time, failed, or held (confirmed or failed later by the test). */
class BusDouble {
  mode: 'confirm' | 'fail' | 'hold' = 'confirm';
  readonly calls: Array<{ type: EventType; data: unknown; id?: string; requestId?: string }> = [];
  private readonly held: Array<(confirmed: boolean) => unknown> = [];

  publishWithin = async <T extends EventType>(
    type: T,
    data: EventData<T>,
    _ms: number,
    options: { id?: string; requestId?: string; onSettled?: (confirmed: boolean) => unknown } = {},
  ): Promise<boolean> => {
    this.calls.push({ type, data, id: options.id, requestId: options.requestId });
    if (this.mode === 'hold') {
      this.held.push((confirmed) => options.onSettled?.(confirmed));
      return false;
    }
    const confirmed = this.mode === 'confirm';
    void Promise.resolve().then(() => options.onSettled?.(confirmed));
    return confirmed;
  };

  /** The broker's late word on every held publish. */
  settleHeld(confirmed: boolean): void {
    for (const settle of this.held.splice(0)) settle(confirmed);
  }
}

let db: Connection;
let docs: Model<Doc>;

beforeAll(async () => {
  db = await connectDatabase({ url: process.env.MONGO_URL!, dbName: DB_NAME, logger, maxAttempts: 3 });
  docs = db.model<Doc>(
    'OutboxTestDoc',
    new Schema<Doc>(
      { _id: String, name: String, event: Schema.Types.Mixed },
      { versionKey: false, collection: 'outbox_test_docs' },
    ),
  );
});

afterAll(async () => {
  await db?.dropDatabase();
  await db?.close();
});

function setUp(options: Partial<OutboxOptions> = {}) {
  const bus = new BusDouble();
  const outbox = new Outbox({ model: docs, field: 'event', bus, logger, staleMs: 60_000, ...options });
  return { bus, outbox };
}

const sessionCreated = (): EventData<'chat.session.created'> => ({
  sessionId: `s-${randomUUID()}`,
  userId: `u-${randomUUID()}`,
  personaId: 'kasa',
});

/** A document written with its event in the same single-document write, as a service does. */
async function writeWithEvent(outbox: Outbox, id?: string) {
  const entry = outbox.entry('chat.session.created', sessionCreated(), { requestId: 'req-1', ...(id ? { id } : {}) });
  const _id = randomUUID();
  await docs.updateOne({ _id }, { $set: { name: 'x', ...outbox.set(entry) } }, { upsert: true });
  return { _id, entry };
}

const stored = async (id: string) => (await docs.findById(id).lean())?.event;

describe('Outbox', () => {
  it('stores the event NotPublished with its document, then publishes it: InProgress, then Published', async () => {
    const { bus, outbox } = setUp();
    bus.mode = 'hold';
    const { _id, entry } = await writeWithEvent(outbox);
    expect(await stored(_id)).toMatchObject({ id: entry.id, state: 'NotPublished', attempts: 0 });

    expect(await outbox.publish(_id, entry)).toBe(false); // not confirmed within the wait
    expect(await stored(_id)).toMatchObject({ state: 'InProgress', attempts: 1 });
    bus.settleHeld(true); // the broker confirms late
    await eventually(async () => (await stored(_id))?.state === 'Published', { timeoutMs: 5_000, what: 'published' });
    expect(await stored(_id)).toMatchObject({ id: entry.id, attempts: 1, publishedAt: expect.any(Date) });
    expect(bus.calls).toEqual([{ type: 'chat.session.created', data: entry.data, id: entry.id, requestId: 'req-1' }]);
  });

  it('marks the entry Published at once when the broker confirms within the wait', async () => {
    const { bus, outbox } = setUp();
    const { _id, entry } = await writeWithEvent(outbox, `fixed:${randomUUID()}`);
    expect(await outbox.publish(_id, entry)).toBe(true);
    expect(await stored(_id)).toMatchObject({ id: entry.id, state: 'Published', attempts: 1 });
    // Published: the republisher leaves it alone, and a second publish of it does nothing.
    expect(await outbox.republish()).toEqual({ attempted: 0, published: 0, failed: 0 });
    expect(await outbox.publish(_id, entry)).toBe(false);
    expect(bus.calls).toHaveLength(1);
  });

  it('republishes an unconfirmed entry with the same id until the broker confirms it', async () => {
    const { bus, outbox } = setUp();
    bus.mode = 'fail';
    const { _id, entry } = await writeWithEvent(outbox);
    expect(await outbox.publish(_id, entry)).toBe(false);
    await eventually(async () => (await stored(_id))?.state === 'NotPublished', {
      timeoutMs: 5_000,
      what: 'released for the republisher',
    });
    await outbox.republish();
    await eventually(async () => (await stored(_id))?.attempts === 2, { timeoutMs: 5_000, what: 'second attempt' });
    bus.mode = 'confirm';
    await eventually(async () => (await stored(_id))?.state === 'NotPublished', { timeoutMs: 5_000, what: 'released' });
    const report = await outbox.republish();
    expect(report).toMatchObject({ published: 1 });
    expect(await stored(_id)).toMatchObject({ state: 'Published', attempts: 3 });
    const mine = bus.calls.filter((call) => call.id === entry.id);
    expect(mine).toHaveLength(3);
    expect(new Set(bus.calls.map((call) => call.id))).toEqual(new Set([entry.id]));
  });

  it('does not send again what its bus is still sending (the broker is away), however long that takes', async () => {
    const { bus, outbox } = setUp({ staleMs: 0 });
    bus.mode = 'hold';
    const { _id, entry } = await writeWithEvent(outbox);
    await outbox.publish(_id, entry);
    expect(await outbox.republish()).toEqual({ attempted: 0, published: 0, failed: 0 });
    expect(bus.calls).toHaveLength(1);
    expect(await stored(_id)).toMatchObject({ state: 'InProgress', attempts: 1 });
    bus.settleHeld(true);
    await eventually(async () => (await stored(_id))?.state === 'Published', { timeoutMs: 5_000, what: 'published' });
  });

  it('takes over an entry left InProgress by a process that went away', async () => {
    const first = setUp();
    first.bus.mode = 'hold';
    const { _id, entry } = await writeWithEvent(first.outbox);
    await first.outbox.publish(_id, entry); // this process dies before the confirm
    await docs.updateOne({ _id }, { $set: { 'event.updatedAt': new Date(Date.now() - 120_000) } });

    const second = setUp();
    expect(await second.outbox.republish()).toMatchObject({ attempted: 1, published: 1 });
    expect(await stored(_id)).toMatchObject({ id: entry.id, state: 'Published', attempts: 2 });
    expect(second.bus.calls.map((call) => call.id)).toEqual([entry.id]);
  });

  it('gives the entry up (Failed) after maxAttempts publishes without a confirm, and leaves it then', async () => {
    const { bus, outbox } = setUp({ maxAttempts: 3 });
    bus.mode = 'fail';
    const { _id, entry } = await writeWithEvent(outbox);
    await outbox.publish(_id, entry);
    for (let attempt = 2; attempt <= 3; attempt += 1) {
      await eventually(async () => (await stored(_id))?.state !== 'InProgress', { timeoutMs: 5_000, what: 'settled' });
      await outbox.republish();
    }
    await eventually(async () => (await stored(_id))?.state === 'Failed', { timeoutMs: 5_000, what: 'failed' });
    expect(await stored(_id)).toMatchObject({ attempts: 3, error: expect.stringContaining('after 3 attempts') });
    const calls = bus.calls.length;
    expect(await outbox.republish()).toEqual({ attempted: 0, published: 0, failed: 0 });
    expect(bus.calls).toHaveLength(calls);
    expect(bus.calls.every((call) => call.id === entry.id)).toBe(true);
  });

  it('refuses an event whose data break the contract before anything is written', () => {
    const { outbox } = setUp();
    expect(() =>
      outbox.entry('chat.session.created', { sessionId: 42 } as unknown as EventData<'chat.session.created'>),
    ).toThrow(InvalidEventError);
  });
});
