import type { ApiKey, AuthResponse, CreateApiKeyResponse } from '@kasa/contracts';
import { EventBus, connectDatabase, createLogger } from '@kasa/service-kit';
import { eventually } from '@kasa/test-kit';
import { Types, type Connection } from 'mongoose';
import { randomUUID } from 'node:crypto';
import { startPlatform, type RunningPlatform } from '../support/platform';

const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const logger = createLogger({ service: 'api-keys-it', version: 'test', level: 'silent' });
// Small limits, so that both can be reached in a few calls: 4 requests a minute per key, 6 calls a month on Free.
const PER_MINUTE = 4;
const FREE_MONTHLY = 6;
const authDbName = `kasa_auth_keys_${randomUUID().slice(0, 8)}`;

let platform: RunningPlatform;
let authDb: Connection;
let publisher: EventBus;

beforeAll(async () => {
  platform = await startPlatform({
    API_RATE_LIMIT_PER_MINUTE: String(PER_MINUTE),
    PLAN_FREE_MONTHLY_CALLS: String(FREE_MONTHLY),
    AUTH_DB_NAME: authDbName,
  });
  authDb = await connectDatabase({ url: process.env.MONGO_URL!, dbName: authDbName, logger, maxAttempts: 3 });
  publisher = new EventBus({ url: AMQP_URL, source: 'kasa/api-keys-it', logger });
  await publisher.start();
  // Revocations reach the gateway over its broadcast queue: wait until it listens.
  await eventually(
    async () => {
      const ready = await fetch(`http://127.0.0.1:${platform.ports.admin}/readyz`).catch(() => undefined);
      const body = (await ready?.json().catch(() => undefined)) as { info?: { revocationFeed?: string } } | undefined;
      return body?.info?.revocationFeed === 'connected';
    },
    { timeoutMs: 15_000 },
  );
}, 120_000);

afterAll(async () => {
  await publisher?.close();
  await authDb?.dropDatabase().catch(() => undefined);
  await authDb?.close();
  await platform?.stop();
});

const url = (path: string) => `${platform.baseUrl}${path}`;

async function send(method: string, path: string, credential: string, body?: unknown) {
  const res = await fetch(url(path), {
    method,
    headers: {
      authorization: `Bearer ${credential}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { res, text, body: (text ? JSON.parse(text) : undefined) as Record<string, any> };
}

/** A new account's access token and id. */
async function signUp(): Promise<{ token: string; userId: string }> {
  const id = randomUUID().slice(0, 8);
  const res = await fetch(url('/api/auth/register'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: `dev_${id}`, email: `dev.${id}@example.com`, password: 'medaase-42' }),
  });
  expect(res.status).toBe(201);
  const auth = (await res.json()) as AuthResponse;
  return { token: auth.token, userId: auth.user.id };
}

async function createKey(token: string, body: Record<string, unknown> = { name: 'Integration' }) {
  const created = await send('POST', '/api/developer/keys', token, body);
  expect(created.res.status).toBe(201);
  return created.body as CreateApiKeyResponse;
}

/** Per-minute windows are calendar minutes: start a sequence that must fit in one minute well inside it. */
async function awayFromMinuteEnd(): Promise<void> {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 50_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 100));
}

describe('an API key through the gateway', () => {
  it('is created, listed masked, works on the chat routes, and is refused within 2 s of its revocation', async () => {
    const { token } = await signUp();
    const { secret, key } = await createKey(token, { name: 'Lifecycle' });
    expect(secret).toMatch(/^ksk_[A-Za-z0-9_-]{43}$/);

    const listed = await send('GET', '/api/developer/keys', token);
    expect(listed.res.status).toBe(200);
    expect((listed.body.keys as ApiKey[]).map((k) => [k.name, k.maskedKey])).toEqual([
      ['Lifecycle', `${secret.slice(0, 8)}…${secret.slice(-4)}`],
    ]);
    expect(listed.text).not.toContain(secret);

    const personas = await send('GET', '/api/personas', secret);
    expect(personas.res.status).toBe(200);
    expect((personas.body as unknown as Array<{ id: string }>).map((p) => p.id)).toContain('kasa');
    expect(personas.res.headers.get('x-quota-remaining')).toBe(String(FREE_MONTHLY - 1));
    const models = await send('GET', '/v1/models', secret);
    expect(models.res.status).toBe(200);
    expect(models.body).toMatchObject({ object: 'list' });

    const revoked = await send('DELETE', `/api/developer/keys/${key.id}`, token);
    expect(revoked.res.status).toBe(204);
    const revokedAt = Date.now();
    await eventually(async () => (await send('GET', '/api/personas', secret)).res.status === 401, { timeoutMs: 2_000 });
    expect(Date.now() - revokedAt).toBeLessThan(2_000);
    const refused = await send('GET', '/api/personas', secret);
    expect(refused.body).toMatchObject({ code: 'unauthenticated', message: expect.stringContaining('revoked') });

    const after = await send('GET', '/api/developer/keys', token);
    expect((after.body.keys as ApiKey[])[0]).toMatchObject({ id: key.id, revokedAt: expect.any(String) });
  });

  it('answers 401 to a key nobody holds and to junk with the key prefix', async () => {
    for (const key of [`ksk_${'A'.repeat(43)}`, `ksk_${'x'.repeat(500)}`]) {
      const res = await send('GET', '/api/personas', key);
      expect(res.res.status).toBe(401);
      expect(res.body).toMatchObject({
        code: 'unauthenticated',
        message: expect.stringContaining('API key is not valid'),
      });
    }
  });

  it('answers 401 to an expired key', async () => {
    const { token } = await signUp();
    const { secret, key } = await createKey(token, { name: 'Short-lived', expiresInDays: 1 });
    await authDb
      .collection('api_keys')
      .updateOne({ _id: new Types.ObjectId(key.id) }, { $set: { expiresAt: new Date(Date.now() - 1_000) } });
    const res = await send('GET', '/api/personas', secret);
    expect(res.res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'unauthenticated', message: expect.stringContaining('expired') });
  });

  it('cannot manage keys or the account: 401 saying to sign in', async () => {
    const { token } = await signUp();
    const { secret, key } = await createKey(token);
    const attempts: Array<[string, string, unknown?]> = [
      ['GET', '/api/developer/keys'],
      ['POST', '/api/developer/keys', { name: 'minted by a key' }],
      ['DELETE', `/api/developer/keys/${key.id}`],
      ['GET', '/api/auth/me'],
      ['POST', '/api/billing/checkout', { plan: 'pro' }],
    ];
    for (const [method, path, body] of attempts) {
      const res = await send(method, path, secret, body);
      expect(res.res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 'unauthenticated', message: expect.stringContaining('sign in') });
    }
    const keys = (await send('GET', '/api/developer/keys', token)).body.keys as ApiKey[];
    expect(keys).toHaveLength(1);
    expect(keys[0]!.revokedAt).toBeNull();
  });

  it('answers 403 naming the scope a key lacks', async () => {
    const { token } = await signUp();
    const voiceOnly = await createKey(token, { name: 'Voice only', scopes: ['voice'] });
    const chat = await send('GET', '/api/personas', voiceOnly.secret);
    expect(chat.res.status).toBe(403);
    expect(chat.body).toMatchObject({ code: 'forbidden', message: expect.stringContaining('"chat" scope') });
    expect(chat.res.headers.get('www-authenticate')).toContain('insufficient_scope');
    const voice = await send('POST', '/api/voice/synthesize', voiceOnly.secret, {});
    expect([401, 403]).not.toContain(voice.res.status);

    const chatOnly = await createKey(token, { name: 'Chat only', scopes: ['chat'] });
    const analytics = await send('GET', '/api/developer/analytics', chatOnly.secret);
    expect(analytics.res.status).toBe(403);
    expect(analytics.body.message).toContain('"analytics" scope');
  });

  it('answers 404 when someone revokes another person’s key, which keeps working', async () => {
    const owner = await signUp();
    const other = await signUp();
    const { secret, key } = await createKey(owner.token);
    const res = await send('DELETE', `/api/developer/keys/${key.id}`, other.token);
    expect(res.res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'not_found' });
    expect((await send('DELETE', '/api/developer/keys/not-an-id', other.token)).res.status).toBe(404);
    expect((await send('GET', '/api/personas', secret)).res.status).toBe(200);
  });

  it('answers 400 with the shared error shape for an invalid key request', async () => {
    const { token } = await signUp();
    const res = await send('POST', '/api/developer/keys', token, { name: 'x', expiresInDays: 400 });
    expect(res.res.status).toBe(400);
    expect(res.body).toMatchObject({
      message: expect.stringContaining('expiresInDays'),
      code: 'validation_failed',
      details: expect.any(Array),
    });
  });

  it('limits each key per minute, and counts every key and token of a person against one monthly quota', async () => {
    await awayFromMinuteEnd();
    const { token } = await signUp();
    const first = await createKey(token, { name: 'first' });
    const second = await createKey(token, { name: 'second' });

    for (let i = 0; i < PER_MINUTE; i++) expect((await send('GET', '/v1/models', first.secret)).res.status).toBe(200);
    const perMinute = await send('GET', '/v1/models', first.secret);
    expect(perMinute.res.status).toBe(429);
    expect(perMinute.body).toMatchObject({
      code: 'rate_limited',
      message: expect.stringContaining(`${PER_MINUTE} requests per minute reached for this API key`),
    });
    expect(Number(perMinute.res.headers.get('retry-after'))).toBeGreaterThan(0);

    // The second key has its own minute, but shares the month: 4 + 2 calls reach the Free quota of 6.
    for (let i = 0; i < FREE_MONTHLY - PER_MINUTE; i++)
      expect((await send('GET', '/api/personas', second.secret)).res.status).toBe(200);
    for (const credential of [second.secret, token]) {
      const monthly = await send('GET', '/api/personas', credential);
      expect(monthly.res.status).toBe(429);
      expect(monthly.body).toMatchObject({
        code: 'quota_exceeded',
        message: expect.stringContaining(`Free plan (${FREE_MONTHLY} calls) reached; upgrade to Pro`),
      });
      expect(monthly.res.headers.get('x-ratelimit-remaining')).toBe('0');
    }
  });

  it('is documented in the OpenAPI document', async () => {
    const doc = (await (await fetch(url('/api/openapi.json'))).json()) as {
      paths: Record<string, Record<string, unknown>>;
      components: { securitySchemes: { bearerAuth: { description: string } } };
    };
    expect(Object.keys(doc.paths['/api/developer/keys'] ?? {})).toEqual(expect.arrayContaining(['get', 'post']));
    expect(Object.keys(doc.paths['/api/developer/keys/{keyId}'] ?? {})).toEqual(['delete']);
    expect(doc.components.securitySchemes.bearerAuth.description).toContain('API key');
  });

  it('applies a plan change to existing keys as soon as it is announced', async () => {
    const { token, userId } = await signUp();
    const { secret } = await createKey(token);
    const before = await send('GET', '/api/personas', secret);
    expect(before.res.headers.get('x-quota-limit')).toBe(String(FREE_MONTHLY));

    await authDb
      .collection('users')
      .updateOne({ _id: new Types.ObjectId(userId) }, { $set: { subscriptionTier: 'pro' } });
    await publisher.publish('auth.user.plan_changed', { userId, from: 'free', to: 'pro' });
    await eventually(
      async () => (await send('GET', '/api/personas', secret)).res.headers.get('x-quota-limit') === '50000',
      { timeoutMs: 2_000 },
    );
  });
});

describe('a team through the gateway', () => {
  it('is managed with access tokens only, and its keys run on the team’s plan', async () => {
    const owner = await signUp();
    const member = await signUp();
    await authDb
      .collection('users')
      .updateOne({ _id: new Types.ObjectId(owner.userId) }, { $set: { subscriptionTier: 'enterprise' } });
    const created = await send('POST', '/api/developer/team', owner.token, { name: 'Tamale Tech' });
    expect(created.res.status).toBe(201);
    const memberEmail = (await send('GET', '/api/auth/me', member.token)).body.user.email as string;
    const invitation = await send('POST', '/api/developer/team/invitations', owner.token, { email: memberEmail });
    expect(invitation.res.status).toBe(201);
    const accepted = await send('POST', `/api/developer/invitations/${invitation.body.id}/accept`, member.token);
    expect(accepted.res.status).toBe(200);

    const { secret } = await createKey(owner.token, { name: 'Team key', team: true });
    expect((await send('GET', '/api/developer/team', secret)).res.status).toBe(401);
    // The owner's Enterprise plan is unlimited: no monthly quota headers, whoever of the team holds the key.
    const personas = await send('GET', '/api/personas', secret);
    expect(personas.res.status).toBe(200);
    expect(personas.res.headers.get('x-quota-limit')).toBeNull();
    const memberKeys = (await send('GET', '/api/developer/keys', member.token)).body.keys as ApiKey[];
    expect(memberKeys.map((k) => k.name)).toEqual(['Team key']);
  });
});
