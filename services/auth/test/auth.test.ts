import type { AuthResponse, EventType, KasaEvent } from '@kasa/contracts';
import {
  EventBus,
  connectDatabase,
  createLogger,
  createMongoProcessedEventStore,
  isDatabaseReady,
} from '@kasa/service-kit';
import { eventually } from '@kasa/test-kit';
import type { Express } from 'express';
import jwt from 'jsonwebtoken';
import { Types, type Connection } from 'mongoose';
import { createHmac, randomUUID } from 'node:crypto';
import request from 'supertest';
import type { AuthComponents } from '../src/authComponents';
import { generateSigningKey } from '../src/tokens/signingKey';
import { TOKEN_AUDIENCE, TOKEN_ISSUER } from '../src/tokens/tokenService';
import { userModel } from '../src/users/userModel';
import { ADDRESS_UNAVAILABLE_MESSAGE } from '../src/users/userService';
import { createTestAuthApp } from './authApp';

const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const logger = createLogger({ service: 'auth-test', version: 'test', level: 'silent' });
const signingKey = generateSigningKey();

let db: Connection;
let bus: EventBus;
let observer: EventBus;
let observerDb: Connection;
let app: Express;
let components: AuthComponents;
const received: KasaEvent[] = [];

function eventOf(type: EventType, match: (data: Record<string, unknown>) => boolean) {
  return eventually(() => received.find((e) => e.type === type && match(e.data as Record<string, unknown>)));
}

const unique = () => randomUUID().slice(0, 8);
const newUser = () => {
  const id = unique();
  return { username: `ama_${id}`, email: `Ama.${id}@Example.com`, password: 'akwaaba-123' };
};

async function register(body = newUser()) {
  const res = await request(app).post('/api/auth/register').send(body);
  expect(res.status).toBe(201);
  return { body, res, auth: res.body as AuthResponse };
}

beforeAll(async () => {
  const url = process.env.MONGO_URL!;
  db = await connectDatabase({ url, dbName: `kasa_auth_test_${process.pid}`, logger, maxAttempts: 3 });
  observerDb = await connectDatabase({ url, dbName: `kasa_auth_observer_${process.pid}`, logger, maxAttempts: 3 });
  bus = new EventBus({ url: AMQP_URL, source: 'kasa/auth', logger });
  observer = new EventBus({
    url: AMQP_URL,
    source: 'kasa/auth-test',
    logger,
    consumerName: `auth-test-${unique()}`,
    processedEvents: createMongoProcessedEventStore(observerDb),
  });
  for (const type of ['auth.user.registered', 'auth.token.revoked', 'auth.email.requested'] as const) {
    observer.subscribeBroadcast(type, async (event) => {
      received.push(event as KasaEvent);
    });
  }
  await Promise.all([bus.start(), observer.start()]);

  await userModel(db).init();
  ({ app, auth: components } = createTestAuthApp({
    db,
    bus,
    logger,
    name: 'auth-test',
    readiness: { database: () => isDatabaseReady(db), broker: () => bus.isConnected() },
    signingKey,
  }));
});

afterAll(async () => {
  await components?.apiKeyUsage.close();
  await Promise.all([bus?.close(), observer?.close()]);
  await db?.dropDatabase();
  await observerDb?.dropDatabase();
  await Promise.all([db?.close(), observerDb?.close()]);
});

describe('POST /api/auth/register', () => {
  it('creates a free account, answers with a token and the user, and announces it', async () => {
    const { body, res, auth } = await register();
    expect(auth).toMatchObject({
      success: true,
      message: expect.any(String),
      user: { username: body.username, email: body.email.toLowerCase(), subscriptionTier: 'free' },
    });
    expect(auth.user).not.toHaveProperty('passwordHash');
    const claims = jwt.decode(auth.token, { complete: true });
    expect(claims?.header.alg).toBe('RS256');
    expect(claims?.payload).toMatchObject({ sub: auth.user.id, jti: expect.any(String), exp: expect.any(Number) });
    expect(String(res.headers['set-cookie'])).toMatch(/kasa_session=.+HttpOnly/i);

    const event = await eventOf('auth.user.registered', (d) => d.userId === auth.user.id);
    expect(event.data).toMatchObject({ username: body.username, subscriptionTier: 'free' });
    expect(event.data).not.toHaveProperty('email');
    // Once the broker confirmed, the outbox entry on the account says so, with the event's id.
    const entry = await eventually(async () => {
      const stored = (await userModel(db).findById(auth.user.id).lean())?.registeredEvent;
      return stored?.state === 'Published' ? stored : undefined;
    });
    expect(entry).toMatchObject({ id: event.id, type: 'auth.user.registered', attempts: 1 });
  });

  it('ignores a subscription tier slipped into the body', async () => {
    const { auth } = await register({ ...newUser(), subscriptionTier: 'enterprise' } as ReturnType<typeof newUser>);
    expect(auth.user.subscriptionTier).toBe('free');
  });

  it('answers an email that is taken, whatever its case, without confirming the account, and tells its owner', async () => {
    const { body, auth } = await register();
    const attempt = () =>
      request(app)
        .post('/api/auth/register')
        .send({ ...newUser(), email: body.email.toUpperCase() });
    const res = await attempt();
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'conflict', message: ADDRESS_UNAVAILABLE_MESSAGE });
    expect(res.body.message).not.toMatch(/exists|already|registered/i);
    expect(res.headers['set-cookie']).toBeUndefined();

    const notice = await eventOf('auth.email.requested', (d) => d.userId === auth.user.id);
    expect(notice.data).toMatchObject({ to: body.email.toLowerCase(), notice: 'registration_attempted' });
    // Once an hour at most: a second attempt answers the same and sends nothing more.
    expect((await attempt()).body.message).toBe(ADDRESS_UNAVAILABLE_MESSAGE);
    expect(await userModel(db).countDocuments({ email: body.email.toLowerCase() })).toBe(1);
    const owned = await userModel(db).findById(auth.user.id).lean();
    expect(owned?.registrationNoticeAt).toEqual(expect.any(Date));
    expect(
      received.filter(
        (e) => e.type === 'auth.email.requested' && e.data && (e.data as { userId: string }).userId === auth.user.id,
      ),
    ).toHaveLength(1);
    // The account is untouched: its owner signs in as before.
    const login = await request(app).post('/api/auth/login').send({ email: body.email, password: body.password });
    expect(login.status).toBe(200);
  });

  it('answers 409 for a username that is taken, whatever its case', async () => {
    const { body } = await register();
    const res = await request(app)
      .post('/api/auth/register')
      .send({ ...newUser(), username: body.username.toUpperCase() });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('This username is already taken');
  });

  it.each([
    ['a missing password', { username: 'kofi', email: 'kofi@example.com' }, /password/],
    ['a missing username', { email: 'kofi@example.com', password: 'secret1' }, /username/],
    ['a short password', { username: 'kofi', email: 'kofi@example.com', password: '12345' }, /at least 6 characters/],
    ['an invalid email', { username: 'kofi', email: 'not-an-email', password: 'secret1' }, /valid email/],
    ['a number as username', { username: 12345, email: 'kofi@example.com', password: 'secret1' }, /username/],
    [
      'an overlong username',
      { username: 'k'.repeat(80), email: 'kofi@example.com', password: 'secret1' },
      /at most 32/,
    ],
    ['an array body', [1, 2, 3], /./],
  ])('answers 400 with a clear message for %s', async (_case, body, message) => {
    const res = await request(app)
      .post('/api/auth/register')
      .send(body as object);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_failed', requestId: expect.any(String) });
    expect(res.body.message).toMatch(message);
  });

  it('answers 400 for malformed JSON', async () => {
    const res = await request(app)
      .post('/api/auth/register')
      .set('Content-Type', 'application/json')
      .send('{"username": "kofi",');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'malformed_json', message: 'The request body is not valid JSON' });
  });

  it('answers 413 for a 1 MB body', async () => {
    const res = await request(app)
      .post('/api/auth/register')
      .send({ username: 'kofi', email: 'kofi@example.com', password: 'x'.repeat(1024 * 1024) });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('payload_too_large');
  });
});

describe('POST /api/auth/login', () => {
  it('signs in with the email in any case and answers a fresh token', async () => {
    const { body, auth } = await register();
    const res = await request(app)
      .post('/api/auth/login')
      .send({ email: body.email.toUpperCase(), password: body.password });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, token: expect.any(String), user: { id: auth.user.id } });
    expect(res.body.token).not.toBe(auth.token);
  });

  it('answers 401 with one message for a wrong password and for an unknown email', async () => {
    const { body } = await register();
    const wrong = await request(app).post('/api/auth/login').send({ email: body.email, password: 'wrong-password' });
    const unknown = await request(app)
      .post('/api/auth/login')
      .send({ email: `nobody.${unique()}@example.com`, password: 'whatever' });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 'unauthenticated', message: 'Invalid email or password' });
    }
  });

  it('answers 400 when a field is missing', async () => {
    const res = await request(app).post('/api/auth/login').send({ email: 'kofi@example.com' });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/password/);
  });
});

describe('GET /api/auth/me', () => {
  it('answers the signed-in user, who is not an operator', async () => {
    const { auth } = await register();
    const res = await request(app).get('/api/auth/me').set('Authorization', `Bearer ${auth.token}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, user: { ...auth.user, operator: false } });
  });

  it('answers 401 without a token', async () => {
    const res = await request(app).get('/api/auth/me');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('unauthenticated');
  });

  describe('refuses forged tokens', () => {
    let auth: AuthResponse;
    beforeAll(async () => {
      ({ auth } = await register());
    });
    const claims = () => ({ sub: auth.user.id, jti: randomUUID(), username: auth.user.username, tier: 'enterprise' });
    const forgeries: Array<[string, () => string]> = [
      [
        'a tampered payload',
        () => {
          const [h, , s] = auth.token.split('.');
          const payload = Buffer.from(
            JSON.stringify({ ...(jwt.decode(auth.token) as object), tier: 'enterprise' }),
          ).toString('base64url');
          return `${h}.${payload}.${s}`;
        },
      ],
      [
        'an expired token',
        () =>
          jwt.sign({ ...claims(), exp: Math.floor(Date.now() / 1000) - 10 }, signingKey.privateKey, {
            algorithm: 'RS256',
            issuer: TOKEN_ISSUER,
            audience: TOKEN_AUDIENCE,
          }),
      ],
      [
        'alg none',
        () =>
          jwt.sign(claims(), '', { algorithm: 'none', issuer: TOKEN_ISSUER, audience: TOKEN_AUDIENCE, expiresIn: 600 }),
      ],
      [
        'HS256 keyed with the public key',
        () => {
          const publicPem = signingKey.publicKey.export({ type: 'spki', format: 'pem' }).toString();
          const encode = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
          const now = Math.floor(Date.now() / 1000);
          const unsigned = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ ...claims(), iat: now, exp: now + 600, iss: TOKEN_ISSUER, aud: TOKEN_AUDIENCE })}`;
          const sig = createHmac('sha256', publicPem).update(unsigned).digest('base64url');
          return `${unsigned}.${sig}`;
        },
      ],
      [
        'a token signed by another key',
        () =>
          jwt.sign(claims(), generateSigningKey().privateKey, {
            algorithm: 'RS256',
            issuer: TOKEN_ISSUER,
            audience: TOKEN_AUDIENCE,
            expiresIn: 600,
          }),
      ],
      [
        'a token for another audience',
        () =>
          jwt.sign(claims(), signingKey.privateKey, {
            algorithm: 'RS256',
            issuer: TOKEN_ISSUER,
            audience: 'someone-else',
            expiresIn: 600,
          }),
      ],
      ['garbage', () => 'not.a.token'],
    ];
    it.each(forgeries)('answers 401 for %s', async (_case, forge) => {
      const res = await request(app).get('/api/auth/me').set('Authorization', `Bearer ${forge()}`);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('unauthenticated');
    });
  });
});

describe('logout', () => {
  it('GET revokes the cookie session, clears the cookie and goes home; the token stops working', async () => {
    const { res: registered, auth } = await register();
    const cookie = String(registered.headers['set-cookie']).split(';')[0]!;
    const res = await request(app).get('/api/auth/logout').set('Cookie', cookie);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/');
    expect(String(res.headers['set-cookie'])).toMatch(/kasa_session=;.*Expires=Thu, 01 Jan 1970/i);

    const me = await request(app).get('/api/auth/me').set('Authorization', `Bearer ${auth.token}`);
    expect(me.status).toBe(401);
    expect(me.body.message).toMatch(/signed out/);
    const jti = (jwt.decode(auth.token) as { jti: string }).jti;
    await eventOf('auth.token.revoked', (d) => d.jti === jti);
  });

  it('POST with a bearer token revokes it and is idempotent', async () => {
    const { auth } = await register();
    for (let i = 0; i < 2; i++) {
      const res = await request(app).post('/api/auth/logout').set('Authorization', `Bearer ${auth.token}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: true });
    }
    const jti = (jwt.decode(auth.token) as { jti: string }).jti;
    await eventOf('auth.token.revoked', (d) => d.jti === jti);
    expect(
      received.filter((e) => e.type === 'auth.token.revoked' && (e.data as { jti: string }).jti === jti),
    ).toHaveLength(1);
    const me = await request(app).get('/api/auth/me').set('Authorization', `Bearer ${auth.token}`);
    expect(me.status).toBe(401);
  });

  it('signs out when the broker never confirms the revocation, and the token stops working all the same', async () => {
    // A broker that is away: the publish never settles, so publishWithin answers false at its deadline.
    const { app: brokerAway, auth: brokerAwayAuth } = createTestAuthApp({
      db,
      bus: { publishWithin: (_type, _data, ms) => new Promise<boolean>((r) => setTimeout(() => r(false), ms)) },
      logger,
      name: 'auth-test-broker-away',
      signingKey,
    });
    try {
      const { auth } = await register();
      const res = await request(brokerAway).post('/api/auth/logout').set('Authorization', `Bearer ${auth.token}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: true, message: 'Signed out' });
      const me = await request(app).get('/api/auth/me').set('Authorization', `Bearer ${auth.token}`);
      expect(me.status).toBe(401);
    } finally {
      await brokerAwayAuth.apiKeyUsage.close();
    }
  });

  it('refuses a sign-out started by another site with 403, and the session keeps working', async () => {
    const { res: registered, auth } = await register();
    const cookie = String(registered.headers['set-cookie']).split(';')[0]!;
    const crossSite: Array<Record<string, string>> = [
      { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate', Referer: 'https://evil.example/' },
      { 'Sec-Fetch-Site': 'same-site', Referer: 'http://localhost:9999/' },
      { Origin: 'https://evil.example' },
      { Referer: 'https://evil.example/page' },
    ];
    for (const headers of crossSite) {
      const res = await request(app).get('/api/auth/logout').set('Cookie', cookie).set(headers);
      expect([headers, res.status, res.body.code]).toEqual([headers, 403, 'forbidden']);
      expect(res.body.message).toMatch(/another site/);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    const post = await request(app)
      .post('/api/auth/logout')
      .set('Cookie', cookie)
      .set({ 'Sec-Fetch-Site': 'cross-site', Origin: 'https://evil.example' });
    expect(post.status).toBe(403);

    const me = await request(app).get('/api/auth/me').set('Authorization', `Bearer ${auth.token}`);
    expect(me.status).toBe(200);
  });

  it('signs out a navigation from a Kasa page and an address typed into the browser', async () => {
    for (const headers of [
      { 'Sec-Fetch-Site': 'same-origin', 'Sec-Fetch-Mode': 'navigate', Referer: 'http://kasa.example/chat' },
      { 'Sec-Fetch-Site': 'none', 'Sec-Fetch-Mode': 'navigate' },
    ]) {
      const { res: registered, auth } = await register();
      const cookie = String(registered.headers['set-cookie']).split(';')[0]!;
      const res = await request(app)
        .get('/api/auth/logout')
        .set('Cookie', cookie)
        .set({ ...headers, 'X-Forwarded-Host': 'kasa.example', 'X-Forwarded-Proto': 'http' });
      expect(res.status).toBe(302);
      const me = await request(app).get('/api/auth/me').set('Authorization', `Bearer ${auth.token}`);
      expect(me.status).toBe(401);
    }
  });

  it('still redirects home when there is nothing to revoke', async () => {
    const res = await request(app).get('/api/auth/logout');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/');
  });
});

describe('outbox', () => {
  it('re-sends a registration whose publish was never confirmed, with the same event id', async () => {
    const users = userModel(db);
    const _id = new Types.ObjectId();
    const username = `late_${unique()}`;
    // Stored with its account but never confirmed (the broker was away and auth stopped before it came back).
    const entry = components.users.registeredEvents.entry('auth.user.registered', {
      userId: _id.toString(),
      username,
      subscriptionTier: 'free',
      registeredAt: new Date().toISOString(),
    });
    await users.create({
      _id,
      username,
      usernameKey: username,
      email: `late.${unique()}@example.com`,
      passwordHash: 'x',
      registeredEvent: entry,
    });
    expect(await components.users.republishPending()).toBeGreaterThanOrEqual(1);
    const event = await eventOf('auth.user.registered', (d) => d.userId === _id.toString());
    expect(event.id).toBe(entry.id);
    await eventually(async () =>
      (await users.findById(_id).lean())?.registeredEvent?.state === 'Published' ? true : undefined,
    );
  });
});

describe('service endpoints', () => {
  it('publishes the public key as a JWKS document', async () => {
    const res = await request(app).get('/.well-known/jwks.json');
    expect(res.status).toBe(200);
    expect(res.body.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', kid: signingKey.kid });
    expect(res.body.keys[0]).not.toHaveProperty('d');
  });

  it('is ready when the database and the broker answer', async () => {
    const res = await request(app).get('/readyz');
    expect(res.status).toBe(200);
    expect(res.body.checks).toEqual({ database: true, broker: true });
  });

  it('answers unknown paths with the JSON 404', async () => {
    const res = await request(app).get('/api/auth/nope');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'not_found' });
  });
});
