import type { EventData } from '@kasa/contracts';
import { createLogger } from '@kasa/service-kit';
import { Registry } from 'prom-client';
import { RequestEventBuffer, type CompletedRequest, type RequestEventPublisher } from './requestEventBuffer';

const logger = createLogger({ service: 'gateway', version: 'test', level: 'silent' });
type Batch = EventData<'gateway.request.completed'>;

class FakePublisher implements RequestEventPublisher {
  connected = true;
  fail = false;
  readonly sent: Batch[] = [];
  isConnected() {
    return this.connected;
  }
  async publish(_type: 'gateway.request.completed', data: Batch) {
    if (this.fail) throw new Error('channel closed');
    this.sent.push(data);
  }
}

const request = (n: number): CompletedRequest => ({
  route: 'chat',
  method: 'GET',
  status: 200,
  durationMs: 1.23456,
  userId: n % 2 ? `u-${n}` : undefined,
  apiKeyId: n % 3 ? undefined : `k-${n}`,
  atMs: Date.UTC(2026, 10, 1, 0, 0, 0, n),
});

async function droppedCount(registry: Registry): Promise<number> {
  const metric = await registry.getSingleMetric('gateway_request_events_dropped_total')!.get();
  return metric.values[0]?.value ?? 0;
}

describe('RequestEventBuffer', () => {
  const buffers: RequestEventBuffer[] = [];
  afterEach(async () => {
    for (const b of buffers.splice(0)) await b.close();
  });
  const make = (publisher: FakePublisher, options: { batchSize?: number; maxBuffered?: number } = {}) => {
    const registry = new Registry();
    const buffer = new RequestEventBuffer({ publisher, logger, registry, flushIntervalMs: 60_000, ...options });
    buffers.push(buffer);
    return { buffer, registry };
  };

  it('sends a batch as soon as batchSize requests wait, with ISO times and the caller only when known', async () => {
    const publisher = new FakePublisher();
    const { buffer } = make(publisher, { batchSize: 3 });
    for (let n = 1; n <= 3; n += 1) buffer.record(request(n));
    await new Promise((r) => setImmediate(r));
    await buffer.flush();
    expect(publisher.sent).toHaveLength(1);
    expect(publisher.sent[0]!.requests).toEqual([
      { route: 'chat', method: 'GET', status: 200, durationMs: 1.235, userId: 'u-1', at: '2026-11-01T00:00:00.001Z' },
      { route: 'chat', method: 'GET', status: 200, durationMs: 1.235, at: '2026-11-01T00:00:00.002Z' },
      {
        route: 'chat',
        method: 'GET',
        status: 200,
        durationMs: 1.235,
        userId: 'u-3',
        apiKeyId: 'k-3',
        at: '2026-11-01T00:00:00.003Z',
      },
    ]);
    expect(buffer.size).toBe(0);
  });

  it('keeps requests while disconnected, bounded, dropping the oldest and counting them', async () => {
    const publisher = new FakePublisher();
    publisher.connected = false;
    const { buffer, registry } = make(publisher, { batchSize: 200, maxBuffered: 1_000 });
    for (let n = 0; n < 5_000; n += 1) buffer.record(request(n));
    await buffer.flush();
    expect(publisher.sent).toHaveLength(0);
    expect(buffer.size).toBeLessThanOrEqual(1_000);
    expect(await droppedCount(registry)).toBe(5_000 - buffer.size);

    publisher.connected = true;
    await buffer.flush();
    // At most 1,000 requests per event (the contract's limit), the newest kept.
    expect(publisher.sent.every((b) => b.requests.length <= 1_000)).toBe(true);
    const sent = publisher.sent.flatMap((b) => b.requests);
    expect(sent).toHaveLength(5_000 - (await droppedCount(registry)));
    expect(sent.at(-1)!.at).toBe(new Date(request(4_999).atMs).toISOString());
  });

  it('counts a batch the broker refused as dropped, and carries on', async () => {
    const publisher = new FakePublisher();
    const { buffer, registry } = make(publisher);
    publisher.fail = true;
    buffer.record(request(1));
    await buffer.flush();
    expect(await droppedCount(registry)).toBe(1);
    publisher.fail = false;
    buffer.record(request(2));
    await buffer.flush();
    expect(publisher.sent.flatMap((b) => b.requests)).toHaveLength(1);
  });
});
