import type { CreateApiKeyResponse } from '@kasa/contracts';
import { EventBus, connectDatabase, createLogger } from '@kasa/service-kit';
import type { Connection } from 'mongoose';
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiKeyVerifier } from '../../gateway/src/auth/apiKeyVerifier';
import { apiKeyModel } from '../../services/auth/src/apiKeys/apiKeyModel';
import type { AuthComponents } from '../../services/auth/src/authComponents';
import { createTestAuthApp } from '../../services/auth/test/authApp';
import { userModel } from '../../services/auth/src/users/userModel';

// The gateway's API key cache against the real auth service (in this process, on its own port).
const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const logger = createLogger({ service: 'api-key-cache-it', version: 'test', level: 'silent' });

let db: Connection;
let bus: EventBus;
let server: Server;
let authUrl: string;
let components: AuthComponents;
const verifiers: ApiKeyVerifier[] = [];

function verifier(options: { ttlMs?: number; url?: string } = {}): ApiKeyVerifier {
  const created = new ApiKeyVerifier({
    authServiceUrl: options.url ?? authUrl,
    logger,
    ttlMs: options.ttlMs ?? 30_000,
  });
  verifiers.push(created);
  return created;
}

beforeAll(async () => {
  db = await connectDatabase({
    url: process.env.MONGO_URL!,
    dbName: `kasa_auth_cache_${process.pid}`,
    logger,
    maxAttempts: 3,
  });
  bus = new EventBus({ url: AMQP_URL, source: 'kasa/auth', logger });
  await bus.start();
  const built = createTestAuthApp({ db, bus, logger, name: 'api-key-cache-it' });
  components = built.auth;
  const app = built.app;
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  authUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await Promise.all(verifiers.map((v) => v.close()));
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await components?.apiKeyUsage.close();
  await bus?.close();
  await db?.dropDatabase();
  await db?.close();
});

/** Registers someone and creates a key for them through the auth service's HTTP API. */
async function newKey(body: Record<string, unknown> = { name: 'cache' }): Promise<CreateApiKeyResponse> {
  const id = randomUUID().slice(0, 8);
  const registered = await fetch(`${authUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: `dev_${id}`, email: `dev.${id}@example.com`, password: 'akwaaba-123' }),
  });
  const { user } = (await registered.json()) as { user: { id: string; username: string } };
  const created = await fetch(`${authUrl}/api/developer/keys`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-kasa-user-id': user.id,
      'x-kasa-username': user.username,
      'x-kasa-tier': 'free',
    },
    body: JSON.stringify(body),
  });
  expect(created.status).toBe(201);
  return (await created.json()) as CreateApiKeyResponse;
}

describe('the gateway’s API key cache', () => {
  it('answers from the cache until the key is evicted, then asks auth again', async () => {
    const cache = verifier();
    const { secret, key } = await newKey();
    expect(cache.verifyCached(secret)).toBeUndefined();
    const first = await cache.verify(secret);
    expect(first).toMatchObject({ ok: true, key: { keyId: key.id, scopes: ['chat', 'voice', 'analytics'] } });

    // Revoked behind the cache's back (no event): the cache still answers for the TTL.
    await apiKeyModel(db).updateOne({ _id: key.id }, { revokedAt: new Date() });
    expect(cache.verifyCached(secret)).toEqual(first);

    cache.evictKey(key.id);
    expect(cache.verifyCached(secret)).toBeUndefined();
    expect(await cache.verify(secret)).toEqual({ ok: false, reason: 'revoked' });
    // The refusal is cached too.
    expect(cache.verifyCached(secret)).toEqual({ ok: false, reason: 'revoked' });
  });

  it('drops a person’s keys when their plan changes', async () => {
    const cache = verifier();
    const { secret, key } = await newKey();
    expect(await cache.verify(secret)).toMatchObject({ ok: true, key: { tier: 'free' } });
    const owner = (await apiKeyModel(db).findById(key.id).lean())!.userId;
    await userModel(db).updateOne({ _id: owner }, { subscriptionTier: 'enterprise' });
    expect(cache.verifyCached(secret)).toMatchObject({ ok: true, key: { tier: 'free' } });
    cache.evictUser(owner);
    expect(await cache.verify(secret)).toMatchObject({ ok: true, key: { tier: 'enterprise' } });
  });

  it('forgets an answer after its TTL', async () => {
    const cache = verifier({ ttlMs: 200 });
    const { secret, key } = await newKey();
    expect((await cache.verify(secret)).ok).toBe(true);
    await apiKeyModel(db).updateOne({ _id: key.id }, { revokedAt: new Date() });
    await new Promise((r) => setTimeout(r, 250));
    expect(cache.verifyCached(secret)).toBeUndefined();
    expect(await cache.verify(secret)).toEqual({ ok: false, reason: 'revoked' });
  });

  it('never keeps a key past its own expiry', async () => {
    const cache = verifier();
    const { secret, key } = await newKey({ name: 'expiring', expiresInDays: 1 });
    await apiKeyModel(db).updateOne({ _id: key.id }, { expiresAt: new Date(Date.now() + 300) });
    expect((await cache.verify(secret)).ok).toBe(true);
    await new Promise((r) => setTimeout(r, 350));
    expect(cache.verifyCached(secret)).toEqual({ ok: false, reason: 'expired' });
  });

  it('shares one check among concurrent requests for a key', async () => {
    const cache = verifier();
    const { secret } = await newKey();
    const results = await Promise.all(Array.from({ length: 20 }, () => cache.verify(secret)));
    expect(new Set(results).size).toBe(1);
    expect(results[0]).toMatchObject({ ok: true });
  });

  it('refuses what is not shaped like a key without asking auth', async () => {
    const unreachable = verifier({ url: 'http://127.0.0.1:1' });
    for (const key of ['ksk_short', `ksk_${'a'.repeat(200)}`, `ksk_${'!'.repeat(43)}`]) {
      expect(unreachable.verifyCached(key)).toEqual({ ok: false, reason: 'unknown' });
      expect(await unreachable.verify(key)).toEqual({ ok: false, reason: 'unknown' });
    }
    expect(unreachable.size).toBe(0);
  });

  it('reports auth as unavailable, without caching that, when it cannot be reached', async () => {
    const { secret } = await newKey();
    const cache = verifier({ url: 'http://127.0.0.1:1' });
    expect(await cache.verify(secret)).toEqual({ ok: false, reason: 'unavailable' });
    expect(cache.verifyCached(secret)).toBeUndefined();
  });
});
