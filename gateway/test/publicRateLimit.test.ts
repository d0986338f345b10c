import { randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { eventually } from '@kasa/test-kit';
import { call, startHarness, type Harness, type Reply } from './harness';

const PUBLIC_MAX = 5;
const SYNTHESIS_MAX = 2;
const SYNTHESIS_WINDOW_MS = 2_000;

let h: Harness;

beforeAll(async () => {
  h = await startHarness({
    PUBLIC_RATE_LIMIT_MAX: String(PUBLIC_MAX),
    PUBLIC_RATE_LIMIT_WINDOW_MS: '60000',
    ANONYMOUS_SYNTHESIS_RATE_LIMIT_MAX: String(SYNTHESIS_MAX),
    ANONYMOUS_SYNTHESIS_RATE_LIMIT_WINDOW_MS: String(SYNTHESIS_WINDOW_MS),
    AUTH_RATE_LIMIT_MAX: '1000',
    // The test client stands behind a "proxy" on loopback, so X-Forwarded-For names the client address.
    GATEWAY_TRUST_PROXY: 'loopback',
  });
});
afterAll(async () => {
  await h?.stop();
});

/** A client address of its own for each test, so tests never share an allowance. */
const newAddress = () => `198.51.${randomInt(0, 256)}.${randomInt(1, 255)}`;

const get = (path: string, from: string, headers: Record<string, string> = {}) =>
  call(`${h.url}${path}`, { headers: { 'x-forwarded-for': from, ...headers } });

const synthesize = (from: string, headers: Record<string, string> = {}) =>
  call(`${h.url}/api/voice/synthesize`, {
    method: 'POST',
    headers: { 'x-forwarded-for': from, 'content-type': 'application/json', ...headers },
    body: '{"text":"Hello, I am Kasa.","language":"en"}',
  });

/** Waits, if need be, until a fixed window of `windowMs` has at least `marginMs` left, so a burst fits in one. */
async function startOfWindow(windowMs: number, marginMs = 1_500): Promise<void> {
  const left = windowMs - (Date.now() % windowMs);
  if (left < marginMs) await sleep(left + 20);
}

function expectRateLimited(res: Reply, bucket: string): void {
  expect(res.status).toBe(429);
  expect(res.json()).toEqual({
    message: expect.stringMatching(/^Too many requests from your address\. Please try again in \d+ seconds?\.$/),
    code: 'rate_limited',
    requestId: res.headers['x-request-id'],
    details: { limit: 'per_address', bucket, max: expect.any(Number), resetsAt: expect.any(String) },
  });
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  expect(res.headers['ratelimit-remaining']).toBe('0');
}

describe('the per-address limit of the public routes', () => {
  it.each([
    '/api/languages',
    '/api/languages/detect',
    '/api/geo',
    '/api/voice/voices',
    '/api/voice/samples',
    '/api/voice/audio/abc',
    '/api/video/files/abc',
    '/api/status',
    '/api/billing/plans',
    '/.well-known/jwks.json',
    '/api/openapi.json',
  ])('counts %s, with RateLimit headers on the answer', async (path) => {
    const res = await get(path, newAddress());
    expect(res.status).toBe(200);
    expect(res.headers['ratelimit-limit']).toBe(String(PUBLIC_MAX));
    expect(res.headers['ratelimit-remaining']).toBe(String(PUBLIC_MAX - 1));
    expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThan(0);
  });

  it('refuses one address past its allowance, shared by every public route, without asking the service', async () => {
    await startOfWindow(60_000);
    const me = newAddress();
    const paths = ['/api/languages', '/api/geo', '/api/voice/voices', '/api/status', '/api/languages/detect'];
    for (const path of paths) expect((await get(path, me)).status).toBe(200);
    const seenByVoice = h.services.voice.seen.length;
    const refused = await get('/api/geo', me);
    expectRateLimited(refused, 'public');
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(h.services.voice.seen.length).toBe(seenByVoice);

    // Another address keeps its own allowance: the limit is per address, not global.
    expect((await get('/api/geo', newAddress())).status).toBe(200);
  });

  it('counts an IPv6 client by its /64 network', async () => {
    await startOfWindow(60_000);
    const net = `2001:db8:${randomInt(1, 0xffff).toString(16)}:${randomInt(1, 0xffff).toString(16)}`;
    for (let i = 1; i <= PUBLIC_MAX; i++) expect((await get('/api/languages', `${net}::${i}`)).status).toBe(200);
    expectRateLimited(await get('/api/languages', `${net}:0:0:0:abcd`), 'public');
    expect((await get('/api/languages', `2001:db8:1234:${randomInt(1, 0xffff).toString(16)}::1`)).status).toBe(200);
  });

  it('lets exactly the allowance through when many requests of one address arrive at once', async () => {
    await startOfWindow(60_000);
    const me = newAddress();
    const answers = await Promise.all(Array.from({ length: 30 }, () => get('/api/languages', me)));
    expect(answers.filter((res) => res.status === 200)).toHaveLength(PUBLIC_MAX);
    expect(answers.filter((res) => res.status === 429)).toHaveLength(30 - PUBLIC_MAX);
  });

  it('does not limit signed-in routes by address', async () => {
    const token = h.keys.token();
    const me = newAddress();
    for (let i = 0; i < PUBLIC_MAX + 2; i++) {
      const res = await get('/api/personas', me, { authorization: `Bearer ${token}` });
      expect(res.status).toBe(200);
    }
  });
});

describe('anonymous speech (the landing page samples)', () => {
  it('has a stricter allowance that resets when its window ends', async () => {
    await startOfWindow(SYNTHESIS_WINDOW_MS, 1_000);
    const me = newAddress();
    for (let i = 0; i < SYNTHESIS_MAX; i++) expect((await synthesize(me)).status).toBe(200);
    const refused = await synthesize(me);
    expectRateLimited(refused, 'anonymous-synthesis');
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(SYNTHESIS_WINDOW_MS / 1000);
    // The public reads of that address are untouched by it.
    expect((await get('/api/voice/samples', me)).status).toBe(200);

    const again = await eventually(
      async () => {
        const res = await synthesize(me);
        return res.status === 200 ? res : undefined;
      },
      { timeoutMs: SYNTHESIS_WINDOW_MS + 2_000, intervalMs: 200, what: 'the synthesis allowance resets' },
    );
    expect(again.headers['ratelimit-remaining']).toBe(String(SYNTHESIS_MAX - 1));
  });

  it('does not apply to a signed-in caller, whose plan quota counts instead', async () => {
    const token = h.keys.token();
    const me = newAddress();
    for (let i = 0; i < SYNTHESIS_MAX + 2; i++) {
      const res = await synthesize(me, { authorization: `Bearer ${token}` });
      expect(res.status).toBe(200);
      // The headers describe the plan's limits, not the anonymous allowance.
      expect(res.headers['ratelimit-limit']).not.toBe(String(SYNTHESIS_MAX));
    }
  });
});
