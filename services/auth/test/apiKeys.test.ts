import {
  API_KEY_PATTERN,
  MAX_ACTIVE_API_KEYS,
  type ApiKey,
  type AuthResponse,
  type CreateApiKeyResponse,
  type KasaEvent,
} from '@kasa/contracts';
import { EventBus, connectDatabase, createLogger, createMongoProcessedEventStore } from '@kasa/service-kit';
import type { Express } from 'express';
import type { Connection } from 'mongoose';
import { eventually, identityHeaders } from '@kasa/test-kit';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { apiKeyModel } from '../src/apiKeys/apiKeyModel';
import type { ApiKeyUsageRecorder } from '../src/apiKeys/apiKeyUsage';
import { hashApiKey } from '../src/apiKeys/apiKeySecrets';
import { userModel } from '../src/users/userModel';
import { createTestAuthApp } from './authApp';

const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const logger = createLogger({ service: 'auth-api-keys-test', version: 'test', level: 'silent' });
const KEYS = '/api/developer/keys';
const VERIFY = '/internal/api-keys/verify';

let db: Connection;
let observerDb: Connection;
let bus: EventBus;
let observer: EventBus;
let app: Express;
const revocations: Array<KasaEvent<'auth.apikey.revoked'>> = [];
const creations: Array<KasaEvent<'auth.apikey.created'>> = [];

let usage: ApiKeyUsageRecorder;

interface Person {
  id: string;
  username: string;
  headers: Record<string, string>;
}

/** A registered account and the identity headers the gateway would forward for it. */
async function person(): Promise<Person> {
  const id = randomUUID().slice(0, 8);
  const res = await request(app)
    .post('/api/auth/register')
    .send({ username: `dev_${id}`, email: `dev.${id}@example.com`, password: 'akwaaba-123' });
  expect(res.status).toBe(201);
  const { user } = res.body as AuthResponse;
  return {
    id: user.id,
    username: user.username,
    headers: identityHeaders({ userId: user.id, username: user.username, tier: user.subscriptionTier }),
  };
}

async function createKey(owner: Person, body: Record<string, unknown> = { name: 'My app' }) {
  const res = await request(app).post(KEYS).set(owner.headers).send(body);
  expect(res.status).toBe(201);
  return res.body as CreateApiKeyResponse;
}

const listKeys = async (owner: Person) => {
  const res = await request(app).get(KEYS).set(owner.headers);
  expect(res.status).toBe(200);
  return (res.body as { keys: ApiKey[] }).keys;
};
const verify = (key: unknown) => request(app).post(VERIFY).send({ key });

beforeAll(async () => {
  const url = process.env.MONGO_URL!;
  db = await connectDatabase({ url, dbName: `kasa_auth_keys_test_${process.pid}`, logger, maxAttempts: 3 });
  observerDb = await connectDatabase({ url, dbName: `kasa_auth_keys_obs_${process.pid}`, logger, maxAttempts: 3 });
  bus = new EventBus({ url: AMQP_URL, source: 'kasa/auth', logger });
  observer = new EventBus({
    url: AMQP_URL,
    source: 'kasa/auth-keys-test',
    logger,
    consumerName: `auth-keys-test-${randomUUID().slice(0, 8)}`,
    processedEvents: createMongoProcessedEventStore(observerDb),
  });
  observer.subscribeBroadcast('auth.apikey.revoked', async (event) => {
    revocations.push(event);
  });
  observer.subscribeBroadcast('auth.apikey.created', async (event) => {
    creations.push(event);
  });
  await Promise.all([bus.start(), observer.start()]);
  await Promise.all([userModel(db).init(), apiKeyModel(db).init()]);
  const built = createTestAuthApp({ db, bus, logger, name: 'auth-api-keys-test', lastUsedFlushMs: 100 });
  app = built.app;
  usage = built.auth.apiKeyUsage;
});

afterAll(async () => {
  await usage?.close();
  await Promise.all([bus?.close(), observer?.close()]);
  await db?.dropDatabase();
  await observerDb?.dropDatabase();
  await Promise.all([db?.close(), observerDb?.close()]);
});

describe('creating an API key', () => {
  it('shows the full key once, with every scope by default, and stores only its hash', async () => {
    const owner = await person();
    const res = await request(app).post(KEYS).set(owner.headers).send({ name: '  Billing bot  ' });
    expect(res.status).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const { secret, key, message } = res.body as CreateApiKeyResponse;
    expect(secret).toMatch(API_KEY_PATTERN);
    expect(message).toMatch(/cannot show it again/);
    expect(key).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      name: 'Billing bot',
      maskedKey: `${secret.slice(0, 8)}…${secret.slice(-4)}`,
      scopes: ['chat', 'voice', 'analytics'],
      createdAt: expect.any(String),
      expiresAt: null,
      lastUsedAt: null,
      revokedAt: null,
      teamId: null,
    });

    const stored = await apiKeyModel(db).findById(key.id).lean();
    expect(stored?.hash).toBe(hashApiKey(secret));
    expect(JSON.stringify(stored)).not.toContain(secret);
  });

  it('announces auth.apikey.created with whose key it is, never the key', async () => {
    const owner = await person();
    const { secret, key } = await createKey(owner);
    const event = await eventually(() => creations.find((e) => e.data.keyId === key.id));
    expect(event.data).toEqual({
      userId: owner.id,
      keyId: key.id,
      teamId: null,
      prefix: secret.slice(0, 8),
      createdAt: key.createdAt,
      // Who created it and from where, for the audit log.
      actor: { userId: owner.id, clientIp: expect.any(String) },
    });
    expect(JSON.stringify(event)).not.toContain(secret);
  });

  it('sets the expiry from expiresInDays and keeps the scopes asked for', async () => {
    const owner = await person();
    const before = Date.now();
    const { key } = await createKey(owner, { name: 'CI', expiresInDays: 30, scopes: ['voice'] });
    const expiresAt = Date.parse(key.expiresAt!);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 30 * 86_400_000);
    expect(expiresAt).toBeLessThan(Date.now() + 30 * 86_400_000 + 1_000);
    expect(key.scopes).toEqual(['voice']);
  });

  const invalid: Array<[string, Record<string, unknown>, string]> = [
    ['no name', {}, 'name'],
    ['a blank name', { name: '   ' }, 'name'],
    ['a 61-character name', { name: 'x'.repeat(61) }, 'name'],
    ['a name with a control character', { name: 'a\u0007b' }, 'name'],
    ['expiresInDays 0', { name: 'a', expiresInDays: 0 }, 'expiresInDays'],
    ['expiresInDays 366', { name: 'a', expiresInDays: 366 }, 'expiresInDays'],
    ['a fractional expiresInDays', { name: 'a', expiresInDays: 1.5 }, 'expiresInDays'],
    ['expiresInDays as text', { name: 'a', expiresInDays: '7' }, 'expiresInDays'],
    ['an unknown scope', { name: 'a', scopes: ['admin'] }, 'scopes'],
    ['no scopes', { name: 'a', scopes: [] }, 'scopes'],
    ['a repeated scope', { name: 'a', scopes: ['chat', 'chat'] }, 'scopes'],
    ['scopes that are not a list', { name: 'a', scopes: 'chat' }, 'scopes'],
  ];
  it.each(invalid)('answers 400 naming the field for %s, and stores nothing', async (_case, body, field) => {
    const owner = await person();
    const res = await request(app).post(KEYS).set(owner.headers).send(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      message: expect.stringContaining(field),
      code: 'validation_failed',
      details: expect.arrayContaining([expect.objectContaining({ path: expect.stringContaining(field) })]),
      requestId: expect.any(String),
    });
    expect(await apiKeyModel(db).countDocuments({ userId: owner.id })).toBe(0);
  });

  it('answers 400 to malformed JSON and 413 to an oversized body', async () => {
    const owner = await person();
    const malformed = await request(app)
      .post(KEYS)
      .set(owner.headers)
      .set('content-type', 'application/json')
      .send('{"name": ');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ code: 'malformed_json' });
    const huge = await request(app)
      .post(KEYS)
      .set(owner.headers)
      .send({ name: 'a', padding: 'x'.repeat(20_000) });
    expect(huge.status).toBe(413);
  });

  it('answers 401 without the identity the gateway forwards', async () => {
    expect((await request(app).post(KEYS).send({ name: 'x' })).status).toBe(401);
    expect((await request(app).get(KEYS)).status).toBe(401);
  });

  it(`allows ${MAX_ACTIVE_API_KEYS} active keys, then answers 409 until one is revoked`, async () => {
    const owner = await person();
    const created = await Promise.all(
      Array.from({ length: MAX_ACTIVE_API_KEYS }, (_, i) => createKey(owner, { name: `key ${i}` })),
    );
    const over = await request(app).post(KEYS).set(owner.headers).send({ name: 'one too many' });
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({
      code: 'conflict',
      message: expect.stringMatching(/25 active API keys.*Revoke one/),
    });
    expect(await apiKeyModel(db).countDocuments({ userId: owner.id })).toBe(MAX_ACTIVE_API_KEYS);

    await request(app).delete(`${KEYS}/${created[0]!.key.id}`).set(owner.headers).expect(204);
    await createKey(owner, { name: 'replacement' });
  });

  it('does not count expired keys against the limit', async () => {
    const owner = await person();
    await Promise.all(Array.from({ length: MAX_ACTIVE_API_KEYS }, () => createKey(owner)));
    expect((await request(app).post(KEYS).set(owner.headers).send({ name: 'x' })).status).toBe(409);
    const one = await apiKeyModel(db).findOne({ userId: owner.id }).lean();
    await apiKeyModel(db).updateOne({ _id: one!._id }, { expiresAt: new Date(Date.now() - 1_000) });
    await createKey(owner, { name: 'after expiry' });
  });
});

describe('listing API keys', () => {
  it('lists only the caller’s keys, newest first, masked, never the key', async () => {
    const owner = await person();
    const stranger = await person();
    const first = await createKey(owner, { name: 'first' });
    const second = await createKey(owner, { name: 'second', scopes: ['chat', 'analytics'] });
    await createKey(stranger, { name: 'not yours' });

    const keys = await listKeys(owner);
    expect(keys.map((k) => k.name)).toEqual(['second', 'first']);
    expect(keys[0]).toEqual(second.key);
    expect(keys[0]!.maskedKey).toMatch(/^ksk_.{4}….{4}$/);
    const listed = JSON.stringify(keys);
    expect(listed).not.toContain(first.secret);
    expect(listed).not.toContain(second.secret);
    expect(listed).not.toContain('hash');
  });
});

describe('revoking an API key', () => {
  it('marks it revoked, announces auth.apikey.revoked without the key, and is idempotent', async () => {
    const owner = await person();
    const { secret, key } = await createKey(owner);
    const res = await request(app).delete(`${KEYS}/${key.id}`).set(owner.headers);
    expect(res.status).toBe(204);

    const event = await eventually(() => revocations.find((e) => e.data.keyId === key.id));
    expect(event.data).toEqual({
      userId: owner.id,
      keyId: key.id,
      prefix: secret.slice(0, 8),
      actor: { userId: owner.id, clientIp: expect.any(String) },
    });
    expect(JSON.stringify(event)).not.toContain(secret);
    const [listed] = await listKeys(owner);
    expect(listed!.revokedAt).toEqual(expect.any(String));

    await request(app).delete(`${KEYS}/${key.id}`).set(owner.headers).expect(204);
    await new Promise((r) => setTimeout(r, 300));
    expect(revocations.filter((e) => e.data.keyId === key.id)).toHaveLength(1);
    expect((await listKeys(owner))[0]!.revokedAt).toBe(listed!.revokedAt);
  });

  it('answers 404 for another person’s key and leaves that key working', async () => {
    const owner = await person();
    const thief = await person();
    const { secret, key } = await createKey(owner);
    const res = await request(app).delete(`${KEYS}/${key.id}`).set(thief.headers);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'not_found', message: 'API key not found' });
    expect((await verify(secret)).status).toBe(200);
  });

  it.each([['not-an-id'], ['0123456789abcdef01234567'], ['zzzzzzzzzzzzzzzzzzzzzzzz'], ['123456789012']])(
    'answers 404 for the id %s',
    async (id) => {
      const owner = await person();
      const res = await request(app).delete(`${KEYS}/${id}`).set(owner.headers);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'not_found' });
    },
  );
});

describe('verifying an API key (the gateway’s internal call)', () => {
  it('answers whom the key acts for, with the owner’s current tier', async () => {
    const owner = await person();
    const { secret, key } = await createKey(owner, { name: 'x', scopes: ['chat'] });
    const res = await verify(secret);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      userId: owner.id,
      username: owner.username,
      tier: 'free',
      keyId: key.id,
      scopes: ['chat'],
      expiresAt: null,
      teamId: null,
      planHolderId: owner.id,
    });

    await userModel(db).updateOne({ _id: owner.id }, { subscriptionTier: 'pro' });
    expect((await verify(secret)).body).toMatchObject({ tier: 'pro' });
  });

  it('records the use shortly after answering, at most once a minute', async () => {
    const owner = await person();
    const { secret, key } = await createKey(owner);
    const lastUsed = async () => (await apiKeyModel(db).findById(key.id).lean())!.lastUsedAt;
    expect(await lastUsed()).toBeNull();

    await verify(secret).expect(200);
    const shown = await eventually(async () => (await listKeys(owner))[0]!.lastUsedAt, {
      what: 'the key list shows the last use',
    });
    const first = await lastUsed();
    expect(first!.toISOString()).toBe(shown);
    await verify(secret).expect(200);
    await usage.flush();
    expect(await lastUsed()).toEqual(first);

    const twoMinutesAgo = new Date(Date.now() - 120_000);
    await apiKeyModel(db).updateOne({ _id: key.id }, { lastUsedAt: twoMinutesAgo });
    await verify(secret).expect(200);
    await eventually(async () => (await lastUsed())!.getTime() > twoMinutesAgo.getTime() + 60_000, {
      what: 'a use after a minute is recorded again',
    });
  });

  it('answers without waiting for the last-use write, even when the database write is stuck', async () => {
    const keys = apiKeyModel(db);
    const writes: unknown[] = [];
    // The same model, except that its bulk writes never finish.
    const stuckKeys = Object.create(keys, {
      bulkWrite: { value: (ops: unknown) => (writes.push(ops), new Promise(() => undefined)) },
    }) as typeof keys;
    const { app: stuckApp, auth: stuckAuth } = createTestAuthApp({
      db,
      bus,
      logger,
      name: 'auth-api-keys-stuck-test',
      lastUsedStore: stuckKeys,
      lastUsedFlushMs: 20,
    });
    const owner = await person();
    const { secret, key } = await createKey(owner);

    for (let i = 0; i < 3; i++) {
      const started = Date.now();
      const res = await request(stuckApp).post(VERIFY).send({ key: secret });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ keyId: key.id });
      expect(Date.now() - started).toBeLessThan(1_000);
      await eventually(() => writes.length > 0, { what: 'the background write has started (and hangs)' });
    }
    expect((await keys.findById(key.id).lean())!.lastUsedAt).toBeNull();
    void stuckAuth.apiKeyUsage.close(); // stops its timer; the stuck write itself never ends
  });

  it('answers 401 for a revoked key', async () => {
    const owner = await person();
    const { secret, key } = await createKey(owner);
    await request(app).delete(`${KEYS}/${key.id}`).set(owner.headers).expect(204);
    const res = await verify(secret);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'unauthenticated', details: { reason: 'revoked' } });
  });

  it('answers 401 for an expired key', async () => {
    const owner = await person();
    const { secret, key } = await createKey(owner, { name: 'short-lived', expiresInDays: 1 });
    await apiKeyModel(db).updateOne({ _id: key.id }, { expiresAt: new Date(Date.now() - 1) });
    const res = await verify(secret);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ message: 'This API key has expired.', details: { reason: 'expired' } });
  });

  it('answers 401 for a key nobody holds, a tampered key or garbage, and 400 without a key', async () => {
    const owner = await person();
    const { secret } = await createKey(owner);
    const tampered = `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
    for (const key of [tampered, `ksk_${'A'.repeat(43)}`, 'eyJhbGciOiJSUzI1NiJ9.e30.x', 'ksk_short']) {
      const res = await verify(key);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 'unauthenticated', details: { reason: 'unknown' } });
    }
    expect((await verify(undefined)).status).toBe(400);
    expect((await verify('k'.repeat(101))).status).toBe(400);
  });

  it('answers 401 once the owner’s account is gone', async () => {
    const owner = await person();
    const { secret } = await createKey(owner);
    await userModel(db).deleteOne({ _id: owner.id });
    expect((await verify(secret)).body).toMatchObject({ details: { reason: 'unknown' } });
  });
});
