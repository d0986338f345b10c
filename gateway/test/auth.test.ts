import { eventually } from '@kasa/test-kit';
import { createHmac, randomUUID } from 'node:crypto';
import { EventBus, createLogger } from '@kasa/service-kit';
import { call, startHarness, TestKeys, type Harness } from './harness';

const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const RATE_LIMIT_MAX = 5;

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ AUTH_RATE_LIMIT_MAX: String(RATE_LIMIT_MAX), AUTH_RATE_LIMIT_WINDOW_MS: '60000' });
});
afterAll(async () => {
  await h?.stop();
});

const b64url = (value: object | string) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
const personas = (headers: Record<string, string> = {}) => call(`${h.url}/api/personas`, { headers });
const bearer = (token: string, extra: Record<string, string> = {}) =>
  personas({ authorization: `Bearer ${token}`, ...extra });

function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
}

async function expectUnauthenticated(token: string) {
  const before = h.services.chat.seen.length;
  const res = await bearer(token);
  expect(res.status).toBe(401);
  expect(res.json()).toEqual({
    message: expect.any(String),
    code: 'unauthenticated',
    requestId: res.headers['x-request-id'],
  });
  expect(res.headers['www-authenticate']).toMatch(/^Bearer realm="kasa"/);
  expect(h.services.chat.seen.length).toBe(before);
}

describe('JWT verification', () => {
  it('lets a valid token through and hands the identity to the service, dropping spoofed x-kasa-* headers', async () => {
    const token = h.keys.token({ sub: 'user-42', username: 'kofi', tier: 'enterprise' });
    const res = await bearer(token, { 'x-kasa-user-id': 'admin', 'x-kasa-tier': 'enterprise', 'x-kasa-role': 'root' });
    expect(res.status).toBe(200);
    const seen = h.services.chat.last().headers;
    expect(seen['x-kasa-user-id']).toBe('user-42');
    expect(seen['x-kasa-username']).toBe('kofi');
    expect(seen['x-kasa-tier']).toBe('enterprise');
    expect(seen['x-kasa-token-id']).toBe(claimsOf(token).jti);
    expect(seen['x-kasa-role']).toBeUndefined();
    expect(seen.authorization).toBe(`Bearer ${token}`);
  });

  it('sends a non-ASCII username percent-encoded (header values are bytes)', async () => {
    const res = await bearer(h.keys.token({ username: 'Àdùnní' }));
    expect(res.status).toBe(200);
    expect(decodeURIComponent(String(h.services.chat.last().headers['x-kasa-username']))).toBe('Àdùnní');
  });

  it('accepts the scheme in any case', async () => {
    const res = await personas({ authorization: `bearer ${h.keys.token()}` });
    expect(res.status).toBe(200);
  });

  it('answers 401 without a token', async () => {
    const res = await personas();
    expect(res.status).toBe(401);
    expect(res.json()).toMatchObject({ code: 'unauthenticated' });
    expect(res.headers['www-authenticate']).toBe('Bearer realm="kasa"');
  });

  it('answers 401 to a Basic or empty Authorization header', async () => {
    expect((await personas({ authorization: 'Basic dXNlcjpwYXNz' })).status).toBe(401);
    expect((await personas({ authorization: 'Bearer ' })).status).toBe(401);
  });

  it('answers 401 to a tampered token', async () => {
    const [header, , signature] = h.keys.token().split('.');
    const forged = b64url({ ...claimsOf(h.keys.token()), sub: 'someone-else', tier: 'enterprise' });
    await expectUnauthenticated(`${header}.${forged}.${signature}`);
  });

  it('answers 401 to an expired token', async () => {
    const now = Math.floor(Date.now() / 1000);
    await expectUnauthenticated(h.keys.token({ iat: now - 120, exp: now - 60 }));
  });

  it('answers 401 to a token with alg none', async () => {
    const claims = claimsOf(h.keys.token());
    await expectUnauthenticated(`${b64url({ alg: 'none', typ: 'JWT', kid: h.keys.kid })}.${b64url(claims)}.`);
  });

  it('answers 401 to an HS256 token signed with the public key', async () => {
    const publicPem = h.keys.publicKey.export({ type: 'spki', format: 'pem' });
    const signingInput = `${b64url({ alg: 'HS256', typ: 'JWT', kid: h.keys.kid })}.${b64url(claimsOf(h.keys.token()))}`;
    const signature = createHmac('sha256', publicPem).update(signingInput).digest('base64url');
    await expectUnauthenticated(`${signingInput}.${signature}`);
  });

  it('answers 401 to a token signed by another key, even with a known kid', async () => {
    const stranger = new TestKeys();
    await expectUnauthenticated(stranger.token({}, { keyid: h.keys.kid }));
    await expectUnauthenticated(stranger.token());
  });

  it('answers 401 to a token for another issuer or audience', async () => {
    await expectUnauthenticated(h.keys.token({}, { issuer: 'someone-else' }));
    await expectUnauthenticated(h.keys.token({}, { audience: 'other-app' }));
  });

  it('answers 401 to a token whose claims are not an access token', async () => {
    await expectUnauthenticated(h.keys.token({ tier: 'platinum' }));
  });

  it('answers 401 to garbage', async () => {
    await expectUnauthenticated('not-a-token');
    await expectUnauthenticated('a.b.c');
  });
});

describe('token revocation', () => {
  const logger = createLogger({ service: 'auth-test', version: 'test', level: 'silent' });
  let publisher: EventBus;

  beforeAll(async () => {
    publisher = new EventBus({ url: AMQP_URL, source: 'kasa/auth', logger });
    await publisher.start();
    await eventually(() => h.gateway.revocationFeedConnected() || undefined, { timeoutMs: 10_000 });
  });
  afterAll(async () => {
    await publisher?.close();
  });

  it('answers 401 within 2 s once auth.token.revoked is published for the token', async () => {
    const jti = randomUUID();
    const token = h.keys.token({}, { jwtid: jti });
    const other = h.keys.token();
    expect((await bearer(token)).status).toBe(200); // verified and cached: revocation must still win

    const exp = claimsOf(token).exp as number;
    const publishedAt = Date.now();
    await publisher.publish('auth.token.revoked', { userId: 'u-123', jti, expiresAt: exp });
    await eventually(async () => ((await bearer(token)).status === 401 ? true : undefined), { timeoutMs: 2_000 });
    expect(Date.now() - publishedAt).toBeLessThan(2_000);

    const res = await bearer(token);
    expect(res.json()).toMatchObject({ code: 'unauthenticated', message: expect.stringContaining('signed out') });
    expect((await bearer(other)).status).toBe(200);
  });
});

describe('sign-in rate limit', () => {
  const login = (ip?: string) =>
    call(`${h.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(ip ? { 'x-forwarded-for': ip } : {}) },
      body: '{"email":"ama@example.com","password":"x"}',
    });

  it(`answers the ${RATE_LIMIT_MAX + 1}th sign-in attempt with 429 and Retry-After`, async () => {
    for (let i = 1; i <= RATE_LIMIT_MAX; i++) {
      const res = await login();
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit-remaining']).toBe(String(RATE_LIMIT_MAX - i));
    }
    const before = h.services.auth.seen.length;
    const res = await login();
    expect(res.status).toBe(429);
    expect(res.json()).toEqual({
      message: expect.stringMatching(/try again in/),
      code: 'rate_limited',
      requestId: res.headers['x-request-id'],
      details: { limit: 'per_address', bucket: 'auth-credentials', max: RATE_LIMIT_MAX, resetsAt: expect.any(String) },
    });
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(h.services.auth.seen.length).toBe(before);
  });

  it('counts register in the same allowance, and leaves other auth routes alone', async () => {
    const res = await call(`${h.url}/api/auth/register`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(429);
    expect((await call(`${h.url}/api/auth/logout`)).status).toBe(200);
    expect(
      (await call(`${h.url}/api/auth/me`, { headers: { authorization: `Bearer ${h.keys.token()}` } })).status,
    ).toBe(200);
  });

  it('does not count CORS preflights', async () => {
    const res = await call(`${h.url}/api/auth/login`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:8080', 'access-control-request-method': 'POST' },
    });
    expect(res.status).toBe(204);
  });

  it('does not trust a client-sent X-Forwarded-For for the client address (GATEWAY_TRUST_PROXY=false)', async () => {
    const res = await login('198.51.100.23');
    expect(res.status).toBe(429);
  });
});
