import { randomUUID } from 'node:crypto';
import { egDependency } from '../eg/expressGateway';
import {
  MemoryQuotaCounter,
  RedisQuotaCounter,
  type AdmitRequest,
  type QuotaCounter,
  type ScriptingRedis,
} from './quotaCounter';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/0';

interface RedisClient extends ScriptingRedis {
  keys(pattern: string): Promise<string[]>;
  del(...keys: string[]): Promise<number>;
  pttl(key: string): Promise<number>;
  quit(): Promise<unknown>;
}
/** ioredis, the very client express-gateway's data store uses when REDIS_URL is set. */
const Redis = egDependency<new (url: string) => RedisClient>('ioredis');

/** Test users, so that afterwards only their counters are deleted from Redis. */
const users: string[] = [];
function newUser(): string {
  const id = randomUUID();
  users.push(id);
  return id;
}

function requestFor(userId: string, overrides: Partial<AdmitRequest> = {}): AdmitRequest {
  return {
    minuteKey: `kasa:quota:{${userId}}:minute:user:1`,
    minuteLimit: 3,
    minuteTtlMs: 60_000,
    monthKey: `kasa:quota:{${userId}}:month:2026-07`,
    monthLimit: 5,
    monthTtlMs: 3_600_000,
    ...overrides,
  };
}

/** The same behaviour is asked of both counters. */
function behavesLikeAQuotaCounter(make: () => QuotaCounter) {
  let counter: QuotaCounter;
  beforeAll(() => {
    counter = make();
  });
  afterAll(() => counter.close());

  it('counts a request in both windows and refuses at the per-minute limit without counting the refusal', async () => {
    const user = newUser();
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await counter.admit(requestFor(user)));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false, false]);
    expect(results[2]).toEqual({ allowed: true, minuteCount: 3, monthCount: 3 });
    expect(results[4]).toEqual({ allowed: false, minuteCount: 3, monthCount: 3 });
  });

  it('raises the month by the extra calls bought, never lowering nor doubling them', async () => {
    const user = newUser();
    const extraKey = `kasa:quota:{${user}}:extra:2026-07`;
    const request = requestFor(user, { minuteLimit: 1_000, monthLimit: 2, extraKey });
    expect((await counter.admit(request)).allowed).toBe(true);
    expect((await counter.admit(request)).allowed).toBe(true);
    expect(await counter.admit(request)).toEqual({ allowed: false, minuteCount: 2, monthCount: 2, monthExtra: 0 });
    await counter.raise(extraKey, 3, 3_600_000);
    // The same announcement again, and an older smaller one: still 3 extra.
    await counter.raise(extraKey, 3, 3_600_000);
    await counter.raise(extraKey, 1, 3_600_000);
    const allowed = [];
    for (let i = 0; i < 4; i++) allowed.push((await counter.admit(request)).allowed);
    expect(allowed).toEqual([true, true, true, false]);
    expect(await counter.admit(request)).toEqual({ allowed: false, minuteCount: 5, monthCount: 5, monthExtra: 3 });
  });

  it('lets exactly the limit through when many requests arrive at once', async () => {
    const user = newUser();
    const request = requestFor(user, { minuteLimit: 1_000, monthLimit: 7 });
    const results = await Promise.all(Array.from({ length: 30 }, () => counter.admit(request)));
    expect(results.filter((r) => r.allowed)).toHaveLength(7);
    expect(
      results
        .filter((r) => r.allowed)
        .map((r) => r.monthCount)
        .sort((a, b) => a - b),
    ).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('refuses at the monthly limit across minutes, and keeps per-minute windows apart', async () => {
    const user = newUser();
    const inMinute = (minute: number) => requestFor(user, { minuteKey: `kasa:quota:{${user}}:minute:user:${minute}` });
    const allowed = [];
    for (const minute of [1, 1, 1, 2, 2, 2, 3]) allowed.push((await counter.admit(inMinute(minute))).allowed);
    expect(allowed).toEqual([true, true, true, true, true, false, false]);
    expect(await counter.admit(inMinute(4))).toEqual({ allowed: false, minuteCount: 0, monthCount: 5 });
  });

  it('counts an unlimited plan without refusing it, and leaves the month alone on routes that do not count', async () => {
    const user = newUser();
    const unlimited = requestFor(user, { monthLimit: null, minuteLimit: 100 });
    for (let i = 0; i < 8; i++) expect((await counter.admit(unlimited)).allowed).toBe(true);
    expect(await counter.admit(unlimited)).toEqual({ allowed: true, minuteCount: 9, monthCount: 9 });

    const other = newUser();
    const uncounted = requestFor(other, { monthKey: undefined });
    expect(await counter.admit(uncounted)).toEqual({ allowed: true, minuteCount: 1, monthCount: 0 });
    const nextMinute = requestFor(other, { minuteKey: `kasa:quota:{${other}}:minute:user:2` });
    expect((await counter.admit(nextMinute)).monthCount).toBe(1);
  });
}

describe('MemoryQuotaCounter', () => {
  behavesLikeAQuotaCounter(() => new MemoryQuotaCounter());

  it('forgets a counter once its time is up', () => {
    let now = 1_000_000;
    const counter = new MemoryQuotaCounter(() => now);
    const request = requestFor(newUser(), { minuteTtlMs: 60_000 });
    for (let i = 0; i < 3; i++) counter.admit(request);
    expect(counter.admit(request).allowed).toBe(false);
    now += 60_000;
    expect(counter.admit(request)).toEqual({ allowed: true, minuteCount: 1, monthCount: 4 });
    void counter.close();
  });
});

describe('MemoryQuotaCounter with a bound (per-address counters)', () => {
  it('keeps at most maxEntries counters, forgetting the oldest windows first', () => {
    const counter = new MemoryQuotaCounter(Date.now, { maxEntries: 10 });
    const requestOf = (client: number) => requestFor(`client-${client}`, { monthKey: undefined, minuteLimit: 2 });
    for (let client = 0; client < 25; client++) counter.admit(requestOf(client));
    expect(counter.size).toBeLessThanOrEqual(10);
    // The newest clients are still counted; the oldest start afresh.
    counter.admit(requestOf(24));
    expect(counter.admit(requestOf(24)).allowed).toBe(false);
    expect(counter.admit(requestOf(0))).toEqual({ allowed: true, minuteCount: 1, monthCount: 0 });
    void counter.close();
  });
});

describe('RedisQuotaCounter (real Redis)', () => {
  const clients: RedisClient[] = [];
  const client = () => {
    const redis = new Redis(REDIS_URL);
    clients.push(redis);
    return redis;
  };
  afterAll(async () => {
    const cleaner = client();
    for (const user of users) {
      const keys = await cleaner.keys(`kasa:quota:{${user}}:*`);
      if (keys.length > 0) await cleaner.del(...keys);
    }
    await Promise.all(clients.map((c) => c.quit()));
  });

  behavesLikeAQuotaCounter(() => new RedisQuotaCounter(client));

  it('lets exactly the limit through when two instances race', async () => {
    const user = newUser();
    const first = new RedisQuotaCounter(client);
    const second = new RedisQuotaCounter(client);
    const request = requestFor(user, { minuteLimit: 1_000, monthLimit: 10 });
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? first : second).admit(request)),
    );
    expect(results.filter((r) => r.allowed)).toHaveLength(10);
    expect(Math.max(...results.map((r) => r.monthCount))).toBe(10);
  });

  it('sets each counter to expire with its window', async () => {
    const user = newUser();
    const redis = client();
    await new RedisQuotaCounter(() => redis).admit(requestFor(user, { minuteTtlMs: 42_000 }));
    const minuteTtl = await redis.pttl(`kasa:quota:{${user}}:minute:user:1`);
    expect(minuteTtl).toBeGreaterThan(40_000);
    expect(minuteTtl).toBeLessThanOrEqual(42_000);
    expect(await redis.pttl(`kasa:quota:{${user}}:month:2026-07`)).toBeGreaterThan(3_500_000);
  });
});
