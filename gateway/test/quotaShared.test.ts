import { randomInt, randomUUID } from 'node:crypto';
import { call, deleteRedisKeys, startHarness, startSecondGateway, type Harness } from './harness';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/0';
const PUBLIC_MAX = 7;
const limits = {
  API_RATE_LIMIT_PER_MINUTE: '5',
  PLAN_FREE_MONTHLY_CALLS: '3',
  PUBLIC_RATE_LIMIT_MAX: String(PUBLIC_MAX),
  // X-Forwarded-For from the test (on loopback) names the client address of the per-address limit.
  GATEWAY_TRUST_PROXY: 'loopback',
  REDIS_URL,
};

let h: Harness;
let second: { url: string; stop: () => Promise<void> } | undefined;
const users: string[] = [];
const addresses: string[] = [];

/**
 * Two gateway instances counting in the same Redis: this process's, and a second one started from the build
 * (express-gateway allows one gateway per process).
 */
beforeAll(async () => {
  h = await startHarness(limits);
  second = await startSecondGateway(h, limits);
}, 30_000);

afterAll(async () => {
  await second?.stop();
  await h?.stop();
  await deleteRedisKeys(REDIS_URL, [
    ...users.map((user) => `kasa:quota:{${user}}:*`),
    ...addresses.map((address) => `kasa:rate-limit:{public:${address}}:*`),
  ]);
});

function tokenFor(tier: 'free' | 'pro'): string {
  const sub = randomUUID();
  users.push(sub);
  return h.keys.token({ sub, username: 'ama', tier });
}
const getVia = (base: string, path: string, token: string) =>
  call(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });

/** Per-minute windows are calendar minutes: start a sequence that must fit in one minute well inside it. */
async function awayFromMinuteEnd(): Promise<void> {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 50_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 100));
}

describe('quotas counted in Redis, shared by two gateway instances', () => {
  it('refuses a Free user’s 4th call of the month (quota 3) on whichever instance it reaches', async () => {
    const token = tokenFor('free');
    const remaining = [];
    for (const base of [h.url, second!.url, h.url]) {
      const res = await getVia(base, '/api/personas', token);
      expect(res.status).toBe(200);
      remaining.push(res.headers['x-quota-remaining']);
    }
    expect(remaining).toEqual(['2', '1', '0']);
    for (const base of [second!.url, h.url]) {
      const res = await getVia(base, '/v1/chat/completions', token);
      expect(res.status).toBe(429);
      expect(res.json()).toMatchObject({
        code: 'quota_exceeded',
        message: expect.stringContaining('Free plan (3 calls)'),
      });
    }
  });

  it('answers the 6th request of a minute (limit 5) with 429 and Retry-After, across both instances', async () => {
    await awayFromMinuteEnd();
    const token = tokenFor('pro');
    for (let i = 0; i < 5; i++) {
      const res = await getVia(i % 2 === 0 ? h.url : second!.url, '/api/developer/analytics', token);
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit-remaining']).toBe(String(4 - i));
    }
    const refused = await getVia(second!.url, '/api/personas', token);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.json()).toMatchObject({
      code: 'rate_limited',
      message: `Rate limit of 5 requests per minute reached for your account; try again in ${retryAfter} second${retryAfter === 1 ? '' : 's'}.`,
      details: { limit: 'per_minute', max: 5, plan: 'pro' },
    });
    expect(refused.headers['ratelimit-limit']).toBe('5');
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    expect(refused.headers['ratelimit-reset']).toBe(String(retryAfter));
    // Worth retrying after the wait, in OpenAI's words as well.
    expect(refused.headers['x-should-retry']).toBe('true');
    expect(refused.headers['x-ratelimit-limit-requests']).toBe('5');
    expect(refused.headers['x-ratelimit-remaining-requests']).toBe('0');
    expect(refused.headers['x-ratelimit-reset-requests']).toMatch(/^(\d+ms|\d+s|1m0s)$/);
    expect(refused.headers['x-ratelimit-limit']).toBe('5');
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    // The refused call was not counted towards the month.
    expect(refused.headers['x-quota-remaining']).toBe('50000');
  });
});

describe('the per-address limit of public routes, counted in Redis', () => {
  it('lets exactly the allowance through when one address sends many requests at once to both instances', async () => {
    await awayFromMinuteEnd();
    const address = `203.${randomInt(0, 256)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
    addresses.push(address);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        call(`${i % 2 === 0 ? h.url : second!.url}/api/languages`, { headers: { 'x-forwarded-for': address } }),
      ),
    );
    expect(answers.filter((res) => res.status === 200)).toHaveLength(PUBLIC_MAX);
    const refused = answers.filter((res) => res.status === 429);
    expect(refused).toHaveLength(40 - PUBLIC_MAX);
    expect(refused[0]!.json()).toMatchObject({
      code: 'rate_limited',
      details: { limit: 'per_address', max: PUBLIC_MAX },
    });
    expect(Number(refused[0]!.headers['retry-after'])).toBeGreaterThan(0);
  });
});
