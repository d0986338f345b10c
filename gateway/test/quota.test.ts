import { randomUUID } from 'node:crypto';
import { call, startHarness, type Harness, type Reply } from './harness';

// The documented defaults: Free 1,000 calls a month, Pro 50,000, Enterprise unlimited; 1,000 requests a minute.
let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

const tokenFor = (tier: 'free' | 'pro' | 'enterprise', sub = randomUUID()) =>
  h.keys.token({ sub, username: `dev_${sub.slice(0, 6)}`, tier });
const get = (path: string, token: string) => call(`${h.url}${path}`, { headers: { authorization: `Bearer ${token}` } });

/** Makes `count` calls, a few at a time; returns the statuses and the last reply. */
async function callMany(count: number, path: string, token: string): Promise<{ statuses: number[]; last: Reply }> {
  const statuses: number[] = [];
  let last: Reply | undefined;
  for (let sent = 0; sent < count;) {
    const batch = Math.min(20, count - sent);
    const replies = await Promise.all(Array.from({ length: batch }, () => get(path, token)));
    statuses.push(...replies.map((r) => r.status));
    last = replies.at(-1);
    sent += batch;
  }
  return { statuses, last: last! };
}

function firstOfNextMonthUtc(): number {
  const now = new Date();
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
}

describe('monthly API call quota (default numbers)', () => {
  it('refuses the 1,001st call of a Free user with 429, the limit named, and the rate-limit headers', async () => {
    const token = tokenFor('free');
    const first = await get('/api/personas', token);
    expect(first.status).toBe(200);
    expect(first.headers['x-quota-limit']).toBe('1000');
    expect(first.headers['x-quota-remaining']).toBe('999');
    expect(first.headers['ratelimit-limit']).toBe('1000');
    expect(first.headers['ratelimit-remaining']).toBe('999');
    expect(first.headers['x-ratelimit-remaining']).toBe('999');

    const { statuses, last } = await callMany(999, '/v1/models', token);
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(last.headers['x-quota-remaining']).toBe('0');

    const seenBefore = h.services.chat.seen.length;
    const refused = await get('/api/chat/sessions', token);
    expect(refused.status).toBe(429);
    expect(h.services.chat.seen.length).toBe(seenBefore);
    const resetsAt = firstOfNextMonthUtc();
    expect(refused.json()).toEqual({
      message: expect.stringMatching(
        /^Monthly API call quota of the Free plan \(1,000 calls\) reached; upgrade to Pro for 50,000 calls a month\. The quota resets on 1 \w+ \d{4} \(UTC\)\.$/,
      ),
      code: 'quota_exceeded',
      details: { limit: 'monthly', max: 1000, plan: 'free', resetsAt: new Date(resetsAt).toISOString() },
      requestId: refused.headers['x-request-id'],
    });
    const secondsToReset = Math.ceil((resetsAt - Date.now()) / 1000);
    // Not retryable: no Retry-After that would make a client sleep until next month, and OpenAI's clients are told.
    expect(refused.headers['retry-after']).toBeUndefined();
    expect(refused.headers['x-should-retry']).toBe('false');
    expect(refused.headers['ratelimit-limit']).toBe('1000');
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    expect(Math.abs(Number(refused.headers['ratelimit-reset']) - secondsToReset)).toBeLessThanOrEqual(2);
    expect(refused.headers['x-ratelimit-limit']).toBe('1000');
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    expect(Number(refused.headers['x-ratelimit-reset'])).toBe(resetsAt / 1000);
    expect(refused.headers['x-quota-remaining']).toBe('0');

    // The OpenAI-compatible API says the same in OpenAI's error shape, which its client libraries read.
    const openai = await get('/v1/models', token);
    expect(openai.status).toBe(429);
    expect(openai.headers['x-should-retry']).toBe('false');
    expect(openai.json()).toMatchObject({
      code: 'quota_exceeded',
      error: { type: 'rate_limit_error', code: 'insufficient_quota', param: null, message: expect.any(String) },
    });

    // Voice counts towards the same quota.
    const voice = await get('/api/voice/synthesize', token);
    expect(voice.status).toBe(429);
    expect(voice.json()).toMatchObject({ code: 'quota_exceeded' });
  }, 60_000);

  it('does not count status and analytics calls towards the month (the per-minute limit still applies)', async () => {
    const token = tokenFor('free');
    for (const path of ['/api/developer/analytics', '/api/developer/services/status', '/api/analytics/sessions']) {
      const res = await get(path, token);
      expect(res.status).toBe(200);
      expect(res.headers['x-quota-limit']).toBeUndefined();
      expect(res.headers['ratelimit-limit']).toBe('1000');
    }
    const counted = await get('/api/personas', token);
    expect(counted.headers['x-quota-remaining']).toBe('999');
  });

  it('keeps each person’s quota to themselves', async () => {
    const token = tokenFor('free');
    const res = await get('/api/personas', token);
    expect(res.status).toBe(200);
    expect(res.headers['x-quota-remaining']).toBe('999');
  });

  it('gives Pro 50,000 calls and Enterprise no monthly quota', async () => {
    const pro = await get('/api/personas', tokenFor('pro'));
    expect(pro.headers['x-quota-limit']).toBe('50000');
    expect(pro.headers['x-quota-remaining']).toBe('49999');
    // The per-minute limit is then the one closest to running out.
    expect(pro.headers['ratelimit-limit']).toBe('1000');
    expect(pro.headers['ratelimit-remaining']).toBe('999');

    const enterprise = await get('/api/personas', tokenFor('enterprise'));
    expect(enterprise.status).toBe(200);
    expect(enterprise.headers['x-quota-limit']).toBeUndefined();
    expect(enterprise.headers['ratelimit-limit']).toBe('1000');
  });

  it('counts nothing on public routes and routes without a token', async () => {
    const res = await call(`${h.url}/api/languages`);
    expect(res.status).toBe(200);
    expect(res.headers['x-quota-limit']).toBeUndefined();
    // What a public answer carries is the per-address limit of public routes (600 a minute by default).
    expect(res.headers['ratelimit-limit']).toBe('600');
    expect((await call(`${h.url}/api/personas`)).status).toBe(401);
  });
});
