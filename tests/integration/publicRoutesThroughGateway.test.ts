import { randomInt } from 'node:crypto';
import {
  GeoLookupResponse,
  type ApiKey,
  type AuthResponse,
  type CreateApiKeyResponse,
  type VoiceSample,
} from '@kasa/contracts';
import { eventually, newAccount } from '@kasa/test-kit';
import { startPlatform, type RunningPlatform } from '../support/platform';

// Small allowances, so that a few calls reach them.
const PUBLIC_MAX = 12;
const SYNTHESIS_MAX = 2;

let platform: RunningPlatform;

beforeAll(async () => {
  platform = await startPlatform({
    // The test stands for clients behind a proxy on loopback: X-Forwarded-For names each client's address.
    GATEWAY_TRUST_PROXY: 'loopback',
    PUBLIC_RATE_LIMIT_MAX: String(PUBLIC_MAX),
    ANONYMOUS_SYNTHESIS_RATE_LIMIT_MAX: String(SYNTHESIS_MAX),
    API_KEY_USAGE_FLUSH_MS: '300',
  });
}, 120_000);

afterAll(async () => {
  await platform?.stop();
});

/** A client address of its own per test, so that no test uses up another's allowance. */
const newAddress = () => `198.18.${randomInt(0, 256)}.${randomInt(1, 255)}`;

async function send(
  method: string,
  path: string,
  options: { from?: string; credential?: string; body?: unknown; query?: Record<string, string> } = {},
) {
  const url = new URL(path, platform.baseUrl);
  for (const [name, value] of Object.entries(options.query ?? {})) url.searchParams.set(name, value);
  const res = await fetch(url, {
    method,
    headers: {
      'x-forwarded-for': options.from ?? newAddress(),
      ...(options.credential ? { authorization: `Bearer ${options.credential}` } : {}),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  let body: Record<string, any> | undefined;
  try {
    body = text ? (JSON.parse(text) as Record<string, any>) : undefined;
  } catch {
    body = undefined;
  }
  return { res, body };
}

async function signUp(): Promise<string> {
  const { res, body } = await send('POST', '/api/auth/register', { body: newAccount('edge') });
  expect(res.status).toBe(201);
  return (body as AuthResponse).token;
}

describe('GET /api/geo through the built platform', () => {
  it('locates a Ghanaian address given with ?ip=', async () => {
    const { res, body } = await send('GET', '/api/geo', { query: { ip: '41.66.199.1' } });
    expect(res.status).toBe(200);
    expect(GeoLookupResponse.parse(body)).toMatchObject({
      ip: '41.66.199.1',
      found: true,
      country: 'GH',
      countryName: 'Ghana',
      timezone: 'Africa/Accra',
      currency: 'GHS',
    });
  });

  it("locates the caller's own public address, as the chat's geo context asks it", async () => {
    const { res, body } = await send('GET', '/api/geo', { from: '41.66.199.1' });
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ ip: '41.66.199.1', found: true, country: 'GH' });
  });

  it('answers 200 with found: false and nulls for a private address', async () => {
    const { res, body } = await send('GET', '/api/geo', { query: { ip: '192.168.1.10' } });
    expect(res.status).toBe(200);
    expect(GeoLookupResponse.parse(body)).toEqual({
      ip: '192.168.1.10',
      found: false,
      country: null,
      countryName: null,
      region: null,
      city: null,
      timezone: null,
      currency: null,
      suggestedLanguages: [],
      message: 'unknown location: a private or loopback address',
    });
  });
});

describe('the per-address limit of the public routes', () => {
  it('refuses an address past its allowance with 429, Retry-After and the JSON error, and only that address', async () => {
    const me = newAddress();
    const calls: Array<() => ReturnType<typeof send>> = [
      () => send('GET', '/api/languages', { from: me }),
      () => send('GET', '/api/geo', { from: me }),
      () => send('GET', '/api/voice/voices', { from: me }),
      () => send('POST', '/api/languages/detect', { from: me, body: { text: 'Ɛte sɛn? Me din de Ama.' } }),
    ];
    for (let i = 0; i < PUBLIC_MAX; i++) {
      const { res } = await calls[i % calls.length]!();
      expect(res.status).toBe(200);
    }
    const { res, body } = await send('GET', '/api/languages', { from: me });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(body).toMatchObject({
      code: 'rate_limited',
      message: expect.stringMatching(/try again in/),
      requestId: res.headers.get('x-request-id'),
      details: { limit: 'per_address', max: PUBLIC_MAX },
    });
    expect((await send('GET', '/api/languages', { from: newAddress() })).res.status).toBe(200);
  });

  it('gives anonymous speech a stricter allowance of its own', async () => {
    const me = newAddress();
    const samples = (await send('GET', '/api/voice/samples', { from: me })).body as { samples: VoiceSample[] };
    const sample = samples.samples[0]!;
    for (let i = 0; i < SYNTHESIS_MAX; i++) {
      const { res } = await send('POST', '/api/voice/synthesize', {
        from: me,
        body: { text: sample.text, language: sample.language, voice: sample.voice },
      });
      // 201 when synthesized now, 200 when served from storage.
      expect([200, 201]).toContain(res.status);
    }
    const { res, body } = await send('POST', '/api/voice/synthesize', {
      from: me,
      body: { text: sample.text, language: sample.language, voice: sample.voice },
    });
    expect(res.status).toBe(429);
    expect(body).toMatchObject({ code: 'rate_limited', details: { bucket: 'anonymous-synthesis' } });
  });
});

describe('private answers and API keys through the built platform', () => {
  it('sends Cache-Control: no-store with the signed-in person’s list of chat sessions', async () => {
    const token = await signUp();
    const { res } = await send('GET', '/api/chat/sessions', { credential: token });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('answers a new key’s first call, and shows its last use in the key list shortly after', async () => {
    const token = await signUp();
    const created = await send('POST', '/api/developer/keys', { credential: token, body: { name: 'Edge test' } });
    expect(created.res.status).toBe(201);
    const { secret, key } = created.body as CreateApiKeyResponse;
    expect(key.lastUsedAt).toBeNull();

    const first = await send('GET', '/api/personas', { credential: secret });
    expect(first.res.status).toBe(200);

    const lastUsedAt = await eventually(
      async () => {
        const list = await send('GET', '/api/developer/keys', { credential: token });
        return (list.body as { keys: ApiKey[] }).keys.find((k) => k.id === key.id)?.lastUsedAt;
      },
      { timeoutMs: 10_000, intervalMs: 200, what: "the key list shows the key's last use" },
    );
    expect(Date.parse(lastUsedAt)).toBeGreaterThan(Date.now() - 60_000);
  });
});
