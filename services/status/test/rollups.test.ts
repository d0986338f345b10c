import type { EventData } from '@kasa/contracts';
import { ServiceMetrics, connectDatabase, createLogger } from '@kasa/service-kit';
import { ManualClock, eventually, identityHeaders, newIdentity, unique, type TestIdentity } from '@kasa/test-kit';
import type { Connection } from 'mongoose';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { AnalyticsService } from '../src/analytics/analyticsService';
import { ApiKeyOwners } from '../src/apiKeys/apiKeyOwners';
import { createApp } from '../src/app';
import { ChatActivityStore } from '../src/chatActivity/chatActivityStore';
import { HeartbeatStore } from '../src/heartbeats/heartbeatStore';
import { ServicesStatus } from '../src/health/servicesStatus';
import { DashboardHealth } from '../src/queries/queryLimits';
import { RequestStore } from '../src/requests/requestStore';
import { statusCollections, type StatusCollections } from '../src/rollups/collections';
import { RollupCache } from '../src/rollups/rollupCache';
import { RollupWriter } from '../src/rollups/rollupWriter';

const logger = createLogger({ service: 'status-rollups-test', version: 'test', level: 'silent' });
const LIMITS = { maxTimeMS: 5_000 };

let db: Connection;
let collections: StatusCollections;
let requests: RequestStore;
let chat: ChatActivityStore;
let analytics: AnalyticsService;
/** Whose each API key is, as auth's events tell the status service. */
let owners: ApiKeyOwners;

/** What the status service stores of auth.apikey.created for `keyId`, a personal key of `who`. */
const keyCreated = (who: TestIdentity, keyId: string) =>
  owners.recordCreated({
    userId: who.userId,
    keyId,
    teamId: null,
    prefix: 'ksk_ab12',
    createdAt: new Date().toISOString(),
  });

type Call = EventData<'gateway.request.completed'>['requests'][number];
const call = (who: TestIdentity, at: Date, overrides: Partial<Call> = {}): Call => ({
  route: 'chat',
  method: 'POST',
  status: 200,
  durationMs: 10,
  userId: who.userId,
  at: at.toISOString(),
  ...overrides,
});

beforeAll(async () => {
  db = await connectDatabase({
    url: process.env.MONGO_URL!,
    dbName: `kasa_status_rollups_${unique()}`,
    logger,
    maxAttempts: 3,
  });
  collections = statusCollections(db);
  // Wired as the service is by default: dashboards read through the cache, which the write lane keeps exact.
  const cache = new RollupCache({ maxBytes: 8 * 1024 * 1024, ttlMs: 10 * 60_000 });
  const writer = new RollupWriter({ cache });
  requests = new RequestStore(collections, writer, cache);
  chat = new ChatActivityStore(collections, writer, cache);
  owners = new ApiKeyOwners(collections.apiKeyOwners);
  analytics = new AnalyticsService({
    requests,
    chat,
    keys: owners,
    monthlyCalls: { free: 1000, pro: 50_000, enterprise: null },
  });
}, 30_000);

afterAll(async () => {
  await db?.dropDatabase();
  await db?.close();
});

describe('the rollups of gateway requests', () => {
  it('count each call on its UTC day, per endpoint, status and key, across a day and a month boundary', async () => {
    const who = newIdentity();
    const key = `key-${unique()}`;
    const clock = new ManualClock(Date.UTC(2026, 1, 28, 23, 59, 59, 999)); // the last instant of February
    const lastOfFeb = clock.date();
    clock.advance(1); // 1 March, 00:00:00.000
    const firstOfMarch = clock.date();
    await requests.storeBatch(randomUUID(), {
      requests: [
        call(who, lastOfFeb, { apiKeyId: key }),
        call(who, lastOfFeb, { status: 503, apiKeyId: key }),
        call(who, firstOfMarch, { method: 'GET', route: 'voice', status: 200 }),
        call(who, firstOfMarch, { status: 429, apiKeyId: key }),
        call(who, firstOfMarch, { route: 'status', method: 'GET', status: 404, durationMs: 30 }),
      ],
    });
    clock.advance(12 * 3_600_000); // noon on 1 March

    const usage = await analytics.usage(who, { days: 2 }, LIMITS, clock.date());
    expect(usage.days).toEqual([
      { date: '2026-02-28', calls: 2, errors: 1 },
      { date: '2026-03-01', calls: 3, errors: 0 },
    ]);
    expect(usage.totalCalls).toBe(5);
    expect(usage.byEndpoint).toEqual([
      { endpoint: 'POST chat', calls: 3 },
      { endpoint: 'GET status', calls: 1 },
      { endpoint: 'GET voice', calls: 1 },
    ]);
    expect(usage.byStatus).toEqual([
      { status: 200, calls: 2 },
      { status: 404, calls: 1 },
      { status: 429, calls: 1 },
      { status: 503, calls: 1 },
    ]);
    expect(usage.byKey).toEqual([
      { keyId: key, calls: 3 },
      { keyId: null, calls: 2 },
    ]);
    // Today only: the last instant of February belongs to the day before.
    expect((await analytics.usage(who, { days: 1 }, LIMITS, clock.date())).totalCalls).toBe(3);

    const byKey = await analytics.usage(who, { days: 2, keyId: key }, LIMITS, clock.date());
    expect(byKey.days).toEqual([
      { date: '2026-02-28', calls: 2, errors: 1 },
      { date: '2026-03-01', calls: 1, errors: 0 },
    ]);
    expect(byKey.byKey).toEqual([{ keyId: key, calls: 3 }]);
    expect(byKey.byStatus.map((s) => s.status).sort()).toEqual([200, 429, 503]);

    // The quota is March's alone: the voice call (429s and analytics calls do not count).
    const overview = await analytics.overview(who, LIMITS, clock.date());
    expect(overview.usage.quota).toEqual({ period: '2026-03', used: 1, limit: 1000 });
    expect(overview.usage.totalCalls).toBe(5);
    expect(overview.usage.breakdown).toEqual({ chat: 60, voice: 20, analytics: 20 });
    expect(overview.performance).toEqual({ averageResponseTime: 14, uptime: 80, errorRate: 20 });
    // Thirty days on, February has left the overview's window.
    clock.advance(29 * 86_400_000);
    expect((await analytics.overview(who, LIMITS, clock.date())).usage.totalCalls).toBe(3);
  });

  it('counts exactly under concurrent batches on the same buckets, and once per redelivered batch', async () => {
    const who = newIdentity();
    const at = new Date();
    const ids = Array.from({ length: 20 }, () => randomUUID());
    const batch = { requests: Array.from({ length: 25 }, () => call(who, at)) };
    // Every batch twice, all at once (as concurrent deliveries would be).
    const counted = await Promise.all([...ids, ...ids].map((id) => requests.storeBatch(id, batch)));
    expect(counted.reduce((a, b) => a + b, 0)).toBe(20 * 25);
    expect((await analytics.usage(who, { days: 1 }, LIMITS, at)).totalCalls).toBe(500);
    expect((await requests.serviceFigures(at, LIMITS)).lastMinutes.get('chat')!.calls).toBeGreaterThanOrEqual(500);
  });

  it('show new calls on the very next read, though dashboards asked again are answered from memory', async () => {
    const who = newIdentity();
    const at = new Date();
    await requests.storeBatch(randomUUID(), { requests: [call(who, at), call(who, at)] });
    expect((await analytics.usage(who, { days: 1 }, LIMITS, at)).totalCalls).toBe(2);
    expect((await analytics.overview(who, LIMITS, at)).usage.totalCalls).toBe(2);

    await requests.storeBatch(randomUUID(), { requests: [call(who, at), call(who, at, { status: 500 })] });
    const usage = await analytics.usage(who, { days: 1 }, LIMITS, at);
    expect(usage.totalCalls).toBe(4);
    expect(usage.days).toEqual([{ date: at.toISOString().slice(0, 10), calls: 4, errors: 1 }]);
    expect((await analytics.overview(who, LIMITS, at)).usage.totalCalls).toBe(4);

    // A person with no calls yet is remembered as such, until their first call is counted.
    const newcomer = newIdentity();
    expect((await analytics.usage(newcomer, { days: 1 }, LIMITS, at)).totalCalls).toBe(0);
    await requests.storeBatch(randomUUID(), { requests: [call(newcomer, at)] });
    expect((await analytics.usage(newcomer, { days: 1 }, LIMITS, at)).totalCalls).toBe(1);
  });
});

describe('the rollups of chat activity', () => {
  it('count sessions per persona and the person’s messages per language on their day', async () => {
    const who = newIdentity();
    const clock = new ManualClock(Date.UTC(2026, 5, 10, 23, 59, 0));
    const sessions = [randomUUID(), randomUUID()];
    await chat.recordSession(
      { sessionId: sessions[0]!, userId: who.userId, personaId: 'nana', title: 'Kumasi' },
      clock.date().toISOString(),
    );
    const message = (role: 'user' | 'assistant', language?: string, sessionId = sessions[0]!) => ({
      sessionId,
      userId: who.userId,
      messageId: randomUUID(),
      personaId: 'nana',
      role,
      ...(language ? { language } : {}),
    });
    await chat.recordMessage(message('user', 'tw'), clock.date().toISOString());
    await chat.recordMessage(message('assistant', 'tw'), clock.date().toISOString());
    clock.advance(2 * 60_000); // the next day
    const repeated = message('user', 'ee');
    await chat.recordMessage(repeated, clock.date().toISOString());
    await chat.recordMessage(repeated, clock.date().toISOString());
    await chat.recordSession(
      { sessionId: sessions[1]!, userId: who.userId, personaId: 'dokta', createdAt: clock.date().toISOString() },
      clock.date().toISOString(),
    );
    await chat.recordMessage(message('user', undefined, sessions[1]), clock.date().toISOString());

    const overview = await analytics.overview(who, LIMITS, clock.date());
    expect(overview).toMatchObject({
      sessions: 2,
      personaUsage: { nana: 1, dokta: 1 },
      messages: 4,
      languageUsage: { tw: 1, ee: 1 },
    });
    const listed = await chat.listSessions(who.userId, 10, LIMITS);
    expect(listed.map((s) => [s.id, s.personaId, s.title, s.messageCount])).toEqual([
      [sessions[1], 'dokta', 'Untitled chat', 1],
      [sessions[0], 'nana', 'Kumasi', 3],
    ]);
    expect(await chat.listSessions(who.userId, 1, LIMITS)).toHaveLength(1);

    // A third session shows on the next read of the list, which the reads above left in memory.
    await chat.recordSession(
      { sessionId: randomUUID(), userId: who.userId, personaId: 'kasa', createdAt: clock.date().toISOString() },
      clock.date().toISOString(),
    );
    expect(await chat.listSessions(who.userId, 10, LIMITS)).toHaveLength(3);
  });

  it('keeps a person’s newest sessions only, so the list is one bounded document', async () => {
    const who = newIdentity();
    const start = Date.UTC(2026, 6, 1);
    for (let i = 0; i < 160; i += 1) {
      await chat.recordSession(
        { sessionId: `s-${String(i).padStart(3, '0')}`, userId: who.userId, personaId: 'kasa' },
        new Date(start + i * 1_000).toISOString(),
      );
    }
    const doc = await collections.sessions(who.userId).findOne({ _id: who.userId });
    expect(Object.keys(doc!.s as object).length).toBeLessThanOrEqual(150);
    const listed = await chat.listSessions(who.userId, 100, LIMITS);
    expect(listed).toHaveLength(100);
    expect(listed[0]!.id).toBe('s-159');
  });
});

describe('the analytics routes', () => {
  const app = (analyticsService: AnalyticsService, queryTimeoutMs = 2_000, health = new DashboardHealth()) =>
    createApp({
      logger,
      metrics: new ServiceMetrics(`status_test_${unique()}`),
      readiness: {},
      isShuttingDown: () => false,
      services: {},
      probeTimeoutMs: 200,
      servicesStatus: new ServicesStatus({
        heartbeats: new HeartbeatStore(db, new RollupWriter()),
        requests,
        probeUrls: {},
        probeTimeoutMs: 200,
        heartbeatIntervalMs: 10_000,
        errorRateDegradedPercent: 5,
        errorRateMinRequests: 10,
        health,
      }),
      analytics: analyticsService,
      queryTimeoutMs,
      health,
    });

  it('never shows one person’s figures to another, and answers 404 for another person’s key', async () => {
    const [ama, kofi] = [newIdentity(), newIdentity()];
    const amaKey = `key-${unique()}`;
    const kofiKey = `key-${unique()}`;
    await Promise.all([keyCreated(ama, amaKey), keyCreated(kofi, kofiKey)]);
    await requests.storeBatch(randomUUID(), {
      requests: [call(ama, new Date(), { apiKeyId: amaKey }), call(ama, new Date())],
    });
    await chat.recordSession(
      { sessionId: randomUUID(), userId: ama.userId, personaId: 'merla', title: 'Savings' },
      new Date().toISOString(),
    );
    const server = app(analytics);

    const kofiUsage = await request(server).get('/api/analytics/usage').set(identityHeaders(kofi));
    expect(kofiUsage.status).toBe(200);
    expect(kofiUsage.body.data.totalCalls).toBe(0);
    const kofiOverview = await request(server).get('/api/developer/analytics').set(identityHeaders(kofi));
    expect(kofiOverview.body.data).toMatchObject({ sessions: 0, personaUsage: {}, usage: { totalCalls: 0 } });
    expect((await request(server).get('/api/analytics/sessions').set(identityHeaders(kofi))).body.data).toEqual([]);

    for (const keyId of [amaKey, 'no-such-key']) {
      const res = await request(server).get(`/api/analytics/usage?keyId=${keyId}`).set(identityHeaders(kofi));
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'not_found', requestId: expect.any(String) });
      expect(JSON.stringify(res.body)).not.toContain(ama.userId);
    }
    // Kofi's own key without calls: his, with zeros.
    const own = await request(server).get(`/api/analytics/usage?keyId=${kofiKey}`).set(identityHeaders(kofi));
    expect(own.status).toBe(200);
    expect(own.body.data).toMatchObject({ totalCalls: 0, byKey: [] });
    const amas = await request(server).get(`/api/analytics/usage?keyId=${amaKey}`).set(identityHeaders(ama));
    expect(amas.body.data).toMatchObject({ totalCalls: 1, byKey: [{ keyId: amaKey, calls: 1 }] });
  });

  it('answers 503 with Retry-After when the reads run over their time limit, and says so on /api/status', async () => {
    const health = new DashboardHealth();
    let signal: AbortSignal | undefined;
    // A database that never answers: the reads wait until they are aborted.
    const stalled = new AnalyticsService({
      requests: {
        userMonths: (_u: string, _m: string[], limits: { signal?: AbortSignal }) => {
          signal = limits.signal;
          return new Promise(() => undefined);
        },
      } as unknown as RequestStore,
      chat,
      keys: owners,
      monthlyCalls: { free: 1000, pro: 50_000, enterprise: null },
    });
    const server = app(stalled, 300, health);
    expect((await request(server).get('/api/status')).body.status).toBe('operational');

    const started = Date.now();
    const res = await request(server).get('/api/developer/analytics').set(identityHeaders());
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body).toMatchObject({ message: expect.stringContaining('try again'), requestId: expect.any(String) });
    expect(signal?.aborted).toBe(true);

    const status = await request(server).get('/api/status');
    expect(status.body.services).toContainEqual({ name: 'status', status: 'degraded', latencyMs: 0 });
    expect(status.body.status).toBe('degraded');
  });

  it('stops the reads when the client goes away', async () => {
    let signal: AbortSignal | undefined;
    const stalled = new AnalyticsService({
      requests: {
        userMonths: (_u: string, _m: string[], limits: { signal?: AbortSignal }) => {
          signal = limits.signal;
          return new Promise(() => undefined);
        },
      } as unknown as RequestStore,
      chat,
      keys: owners,
      monthlyCalls: { free: 1000, pro: 50_000, enterprise: null },
    });
    const server = app(stalled, 10_000).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const client = new AbortController();
      const pending = fetch(`http://127.0.0.1:${port}/api/developer/analytics`, {
        headers: identityHeaders(),
        signal: client.signal,
      }).catch(() => undefined);
      await eventually(() => signal !== undefined, { what: 'the reads started' });
      client.abort();
      await pending;
      await eventually(() => signal!.aborted, { timeoutMs: 2_000, what: 'the reads are aborted' });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
