import { randomUUID } from 'node:crypto';
import { egDependency } from '../eg/expressGateway';
import {
  MemoryIdempotencyStore,
  type CompletedRecord,
  type IdempotencyStore,
  type InFlightRecord,
} from './idempotencyStore';
import { RedisIdempotencyStore, type IdempotencyRedis } from './redisIdempotencyStore';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/0';

interface RedisClient extends IdempotencyRedis {
  del(...keys: string[]): Promise<number>;
  pttl(key: string): Promise<number>;
  quit(): Promise<unknown>;
}
/** ioredis, the very client express-gateway's data store uses when REDIS_URL is set. */
const Redis = egDependency<new (url: string) => RedisClient>('ioredis');

/** Keys used here, so that afterwards only they are deleted from Redis. */
const keys: string[] = [];
function newKey(): string {
  const key = `kasa:idempotency:{test-${randomUUID()}}:-:${randomUUID()}`;
  keys.push(key);
  return key;
}

function inFlight(overrides: Partial<InFlightRecord> = {}): InFlightRecord {
  return {
    state: 'in_flight',
    owner: randomUUID(),
    method: 'POST',
    path: '/api/chat/sessions',
    startedAtMs: Date.now(),
    ...overrides,
  };
}

function completed(body: Buffer, overrides: Partial<CompletedRecord> = {}): CompletedRecord {
  return {
    state: 'completed',
    method: 'POST',
    path: '/api/chat/sessions',
    bodyHash: 'a'.repeat(64),
    response: { status: 201, headers: { 'content-type': 'application/json', 'set-list': ['a', 'b'] }, body },
    completedAtMs: Date.now(),
    ...overrides,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The same behaviour is asked of both stores. */
function behavesLikeAnIdempotencyStore(make: () => IdempotencyStore) {
  let store: IdempotencyStore;
  beforeAll(() => {
    store = make();
  });
  afterAll(() => store.close());

  it('lets exactly one of many concurrent first requests reserve a key', async () => {
    const key = newKey();
    const results = await Promise.all(Array.from({ length: 20 }, () => store.reserve(key, inFlight(), 10_000)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('hands back the in-flight record, then the completed answer byte for byte', async () => {
    const key = newKey();
    const first = inFlight();
    expect(await store.reserve(key, first, 10_000)).toBe(true);
    expect(await store.get(key)).toEqual(first);

    const withHash = { ...first, bodyHash: 'b'.repeat(64) };
    expect(await store.replace(key, first.owner, withHash, 10_000)).toBe(true);
    expect(await store.get(key)).toEqual(withHash);

    const body = Buffer.from([0, 1, 2, 255, 254, 10, 13]);
    const done = completed(body);
    expect(await store.replace(key, first.owner, done, 60_000)).toBe(true);
    const stored = await store.get(key);
    expect(stored).toEqual(done);
    expect(stored?.state === 'completed' && stored.response.body.equals(body)).toBe(true);
  });

  it('refuses another owner’s changes, and any change once the answer is recorded', async () => {
    const key = newKey();
    const first = inFlight();
    await store.reserve(key, first, 10_000);
    expect(await store.replace(key, randomUUID(), completed(Buffer.from('x')), 10_000)).toBe(false);
    await store.release(key, randomUUID());
    expect(await store.get(key)).toEqual(first);

    await store.replace(key, first.owner, completed(Buffer.from('done')), 10_000);
    // A late lease renewal or release from the same owner must not undo the recorded answer.
    expect(await store.replace(key, first.owner, first, 10_000)).toBe(false);
    await store.release(key, first.owner);
    expect((await store.get(key))?.state).toBe('completed');
    expect(await store.reserve(key, inFlight(), 10_000)).toBe(false);
  });

  it('frees a released key for the next request', async () => {
    const key = newKey();
    const first = inFlight();
    await store.reserve(key, first, 10_000);
    await store.release(key, first.owner);
    expect(await store.get(key)).toBeUndefined();
    expect(await store.reserve(key, inFlight(), 10_000)).toBe(true);
  });

  it('forgets a key when its TTL ends (an in-flight lease whose gateway went away)', async () => {
    const key = newKey();
    await store.reserve(key, inFlight(), 150);
    expect(await store.get(key)).toBeDefined();
    await sleep(300);
    expect(await store.get(key)).toBeUndefined();
    expect(await store.reserve(key, inFlight(), 10_000)).toBe(true);
  });

  it('an unknown key is free', async () => {
    expect(await store.get(newKey())).toBeUndefined();
    await expect(store.release(newKey(), randomUUID())).resolves.toBeUndefined();
    expect(await store.replace(newKey(), randomUUID(), inFlight(), 1_000)).toBe(false);
  });
}

describe('MemoryIdempotencyStore', () => {
  behavesLikeAnIdempotencyStore(() => new MemoryIdempotencyStore({ maxEntries: 1_000, maxBytes: 10_000_000 }));

  it('keeps at most maxEntries keys, forgetting the least recently used', async () => {
    const store = new MemoryIdempotencyStore({ maxEntries: 3, maxBytes: 10_000_000 });
    for (const key of ['a', 'b', 'c']) await store.reserve(key, inFlight(), 10_000);
    await store.get('a');
    await store.reserve('d', inFlight(), 10_000);
    expect(store.size).toBe(3);
    expect(await store.get('b')).toBeUndefined();
    expect(await store.get('a')).toBeDefined();
  });

  it('keeps recorded answers within maxBytes', async () => {
    const store = new MemoryIdempotencyStore({ maxEntries: 1_000, maxBytes: 50_000 });
    for (let i = 0; i < 10; i++) {
      const owner = randomUUID();
      await store.reserve(`k${i}`, inFlight({ owner }), 10_000);
      expect(await store.replace(`k${i}`, owner, completed(Buffer.alloc(10_000)), 10_000)).toBe(true);
    }
    expect(store.calculatedSize).toBeLessThanOrEqual(50_000);
    expect(store.size).toBeLessThan(10);
    expect((await store.get('k9'))?.state).toBe('completed');
    expect(await store.get('k0')).toBeUndefined();
  });

  it('does not keep an answer larger than the whole store, and frees its key', async () => {
    const store = new MemoryIdempotencyStore({ maxEntries: 1_000, maxBytes: 5_000 });
    const owner = randomUUID();
    await store.reserve('big', inFlight({ owner }), 10_000);
    expect(await store.replace('big', owner, completed(Buffer.alloc(10_000)), 10_000)).toBe(false);
    expect(await store.get('big')).toBeUndefined();
  });
});

describe('RedisIdempotencyStore (real Redis)', () => {
  const clients: RedisClient[] = [];
  const client = () => {
    const redis = new Redis(REDIS_URL);
    clients.push(redis);
    return redis;
  };
  afterAll(async () => {
    const redis = clients[0] ?? client();
    if (keys.length > 0) await redis.del(...keys);
    await Promise.all(clients.map((c) => c.quit()));
  });

  behavesLikeAnIdempotencyStore(() => {
    const redis = client();
    return new RedisIdempotencyStore(() => redis);
  });

  it('shares keys between two stores (two gateway instances) on separate connections', async () => {
    const [a, b] = [client(), client()];
    const first = new RedisIdempotencyStore(() => a);
    const second = new RedisIdempotencyStore(() => b);
    const key = newKey();
    const results = await Promise.all([
      first.reserve(key, inFlight(), 10_000),
      second.reserve(key, inFlight(), 10_000),
    ]);
    expect(results.sort()).toEqual([false, true]);
  });

  it('stores the in-flight lease and the recorded answer with their own TTLs', async () => {
    const redis = client();
    const store = new RedisIdempotencyStore(() => redis);
    const key = newKey();
    const first = inFlight();
    await store.reserve(key, first, 42_000);
    const lease = await redis.pttl(key);
    expect(lease).toBeGreaterThan(40_000);
    expect(lease).toBeLessThanOrEqual(42_000);
    await store.replace(key, first.owner, completed(Buffer.from('{}')), 86_400_000);
    expect(await redis.pttl(key)).toBeGreaterThan(86_000_000);
  });
});
