import { AdminHealthResponse, AdminUsageResponse, type EventData } from '@kasa/contracts';
import {
  EventBus,
  ServiceMetrics,
  connectDatabase,
  createLogger,
  createMongoProcessedEventStore,
} from '@kasa/service-kit';
import { eventually, identityHeaders, newIdentity, unique } from '@kasa/test-kit';
import { connect as amqpConnect } from 'amqplib';
import type { Express } from 'express';
import type { Connection } from 'mongoose';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { createAdminComponents, type AdminComponents } from '../src/admin/adminComponents';
import { AnalyticsService } from '../src/analytics/analyticsService';
import { ApiKeyOwners } from '../src/apiKeys/apiKeyOwners';
import { createApp } from '../src/app';
import { ChatActivityStore } from '../src/chatActivity/chatActivityStore';
import { subscribeStatusEvents } from '../src/events/subscriptions';
import { HeartbeatStore } from '../src/heartbeats/heartbeatStore';
import { ServicesStatus } from '../src/health/servicesStatus';
import { DashboardHealth } from '../src/queries/queryLimits';
import { RequestStore } from '../src/requests/requestStore';
import { statusCollections } from '../src/rollups/collections';
import { RollupCache } from '../src/rollups/rollupCache';
import { RollupWriter } from '../src/rollups/rollupWriter';
import { VoiceActivityStore } from '../src/voiceActivity/voiceActivityStore';

/**
 * The operators' health and usage (/api/admin/health, /api/admin/usage) against the real broker and database: the
 * gateway's request batches and the services' heartbeats arrive as events, as in production, and the answers are read
 * from the rollups they feed. Whether someone is an operator is auth's to say (asked over HTTP in production; the
 * whole path through the gateway and auth is tests/e2e/adminHealth.e2e.test.ts): here the operator is named.
 */
const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const logger = createLogger({ service: 'status-admin-it', version: 'test', level: 'silent' });
const run = randomUUID().slice(0, 8);
const consumerName = `status-admin-it-${run}`;
// Other test runs share the broker: this test's heartbeats and batches carry a deployment of their own.
const deployment = `status-admin-it-${run}`;
const HEARTBEAT_INTERVAL_MS = 5_000;

const operator = newIdentity('enterprise');
const operators = { isOperator: async (userId: string) => userId === operator.userId };

let db: Connection;
let consumer: EventBus;
let publisher: EventBus;
let admin: AdminComponents;
let app: Express;

type Call = EventData<'gateway.request.completed'>['requests'][number];
const call = (overrides: Partial<Call> = {}): Call => ({
  route: 'chat',
  method: 'POST',
  status: 200,
  durationMs: 40,
  at: new Date().toISOString(),
  ...overrides,
});

const asOperator = (path: string) => request(app).get(path).set(identityHeaders(operator));
const usageOf = async (month?: string) =>
  (await asOperator(`/api/admin/usage${month ? `?month=${month}` : ''}`)).body as AdminUsageResponse;

beforeAll(async () => {
  db = await connectDatabase({
    url: process.env.MONGO_URL!,
    dbName: `kasa_status_admin_${unique()}`,
    logger,
    maxAttempts: 3,
  });
  const collections = statusCollections(db);
  // Wired as the service is: dashboards read through the cache, which the one write lane keeps exact.
  const cache = new RollupCache({ maxBytes: 8 * 1024 * 1024, ttlMs: 10 * 60_000 });
  const writer = new RollupWriter({ cache });
  const stores = {
    heartbeats: new HeartbeatStore(db, writer),
    requests: new RequestStore(collections, writer, cache),
    chat: new ChatActivityStore(collections, writer, cache),
    apiKeys: new ApiKeyOwners(collections.apiKeyOwners),
    voice: new VoiceActivityStore(collections, writer),
  };
  const health = new DashboardHealth();
  const servicesStatus = new ServicesStatus({
    heartbeats: stores.heartbeats,
    requests: stores.requests,
    probeUrls: {},
    probeTimeoutMs: 200,
    heartbeatIntervalMs: HEARTBEAT_INTERVAL_MS,
    errorRateDegradedPercent: 5,
    errorRateMinRequests: 10,
    health,
  });
  admin = createAdminComponents({
    db,
    settings: {
      AUTH_SERVICE_URL: 'http://127.0.0.1:1',
      HEARTBEAT_INTERVAL_MS,
      STATUS_QUERY_TIMEOUT_MS: 5_000,
      STATUS_RETENTION_DAYS: 90,
    },
    status: { servicesStatus, stores },
    operators,
  });
  app = createApp({
    logger,
    metrics: new ServiceMetrics(`status_admin_test_${unique()}`),
    readiness: {},
    isShuttingDown: () => false,
    services: {},
    probeTimeoutMs: 200,
    servicesStatus,
    analytics: new AnalyticsService({
      requests: stores.requests,
      chat: stores.chat,
      keys: stores.apiKeys,
      monthlyCalls: { free: 1000, pro: 50_000, enterprise: null },
    }),
    queryTimeoutMs: 5_000,
    health,
    admin: admin.routes,
  });
  consumer = new EventBus({
    url: AMQP_URL,
    source: 'kasa/status',
    logger,
    consumerName,
    processedEvents: createMongoProcessedEventStore(db),
  });
  subscribeStatusEvents(consumer, stores, { deployment });
  publisher = new EventBus({ url: AMQP_URL, source: 'kasa/status-admin-it', logger });
  await Promise.all([consumer.start(), publisher.start()]);
}, 30_000);

afterAll(async () => {
  await publisher?.close();
  await consumer?.close();
  const connection = await amqpConnect(AMQP_URL);
  const channel = await connection.createChannel();
  await channel.deleteQueue(`kasa.${consumerName}`);
  await channel.deleteQueue(`kasa.${consumerName}.dlq`);
  await connection.close();
  await db?.dropDatabase();
  await db?.close();
});

describe('the operators’ health and usage', () => {
  it('gives an operator each service’s state and figures, and the month’s totals and top people and keys', async () => {
    const [ama, kofi, esi] = [newIdentity('pro'), newIdentity(), newIdentity()];
    const amaKey = `key-${unique()}`;
    await publisher.publish('service.heartbeat', {
      service: 'chat',
      deployment,
      instanceId: `chat-${run}`,
      version: '0.1.0',
      ready: true,
      checks: { database: true, broker: true },
      at: new Date().toISOString(),
    });
    await publisher.publish('auth.apikey.created', {
      userId: ama.userId,
      keyId: amaKey,
      teamId: null,
      prefix: 'ksk_ab12',
      createdAt: new Date().toISOString(),
    });
    // Ama: 5 calls (2 with her key; one refused, one failed), Kofi 3, Esi 1; one anonymous call to the voice service.
    await publisher.publish('gateway.request.completed', {
      deployment,
      requests: [
        call({ userId: ama.userId, apiKeyId: amaKey, durationMs: 20 }),
        call({ userId: ama.userId, apiKeyId: amaKey, status: 400, durationMs: 8 }),
        call({ userId: ama.userId, status: 503, durationMs: 900 }),
        call({ userId: ama.userId }),
        call({ userId: kofi.userId, durationMs: 60 }),
        call({ userId: kofi.userId, durationMs: 70 }),
        call({ route: 'voicePublic', method: 'GET', durationMs: 5 }),
      ],
    });
    await publisher.publish('gateway.request.completed', {
      deployment,
      requests: [call({ userId: ama.userId }), call({ userId: kofi.userId }), call({ userId: esi.userId })],
    });

    await eventually(async () => (await usageOf()).totals.calls === 10, {
      intervalMs: 100,
      what: 'the batches are counted',
    });
    const usage = await asOperator('/api/admin/usage');
    expect(usage.status).toBe(200);
    expect(usage.headers['cache-control']).toBe('no-store');
    const body = AdminUsageResponse.parse(usage.body);
    expect(body.month).toBe(new Date().toISOString().slice(0, 7));
    expect(body.totals).toEqual({
      calls: 10,
      clientErrors: 1,
      serverErrors: 1,
      quotaCalls: 9,
      keyCalls: 2,
      averageMs: expect.any(Number),
    });
    expect(body.people).toEqual([
      { id: ama.userId, kind: 'person', calls: 5, clientErrors: 1, serverErrors: 1, quotaCalls: 5 },
      { id: kofi.userId, kind: 'person', calls: 3, clientErrors: 0, serverErrors: 0, quotaCalls: 3 },
      { id: esi.userId, kind: 'person', calls: 1, clientErrors: 0, serverErrors: 0, quotaCalls: 1 },
    ]);
    expect(body.keys).toEqual([
      {
        keyId: amaKey,
        callerId: ama.userId,
        createdBy: ama.userId,
        teamId: null,
        revoked: false,
        calls: 2,
        clientErrors: 1,
        serverErrors: 0,
      },
    ]);
    expect(body.updatedAt).not.toBeNull();

    const health = await asOperator('/api/admin/health');
    expect(health.status).toBe(200);
    const figures = AdminHealthResponse.parse(health.body);
    expect(figures.services.map((s) => s.name)).toEqual(['gateway', 'auth', 'chat', 'voice', 'status']);
    const chat = figures.services.find((s) => s.name === 'chat')!;
    expect(chat.status).toBe('operational');
    expect(chat.uptime24h).toBe(100);
    expect(chat.lastHour).toMatchObject({ requests: 9, clientErrors: 1, serverErrors: 1 });
    expect(chat.lastDay).toMatchObject({ requests: 9, clientErrors: 1, serverErrors: 1 });
    // 9 calls: 8 of them took 8 to 70 ms, one 900 ms; the 95th percentile falls in the slowest call's bucket.
    expect(chat.lastHour.p95Ms).toBeGreaterThan(500);
    expect(chat.lastHour.p95Ms).toBeLessThanOrEqual(1_000);
    expect(chat.lastHour.averageMs).toBeCloseTo((20 + 8 + 900 + 40 + 60 + 70 + 40 + 40 + 40) / 9, 1);
    expect(figures.services.find((s) => s.name === 'voice')!.lastHour).toMatchObject({ requests: 1, p95Ms: 4.8 });
    expect(figures.overall.lastDay.requests).toBe(10);
    // The auth service was never heard of and has no probe here: down, with no uptime.
    expect(figures.services.find((s) => s.name === 'auth')).toMatchObject({
      status: 'down',
      uptime24h: 0,
      uptime30d: 0,
    });

    // 30 days of uptime are kept from the heartbeat hours: chat, heard of just now, has had all of its heartbeats.
    await admin.tidy();
    const later = AdminHealthResponse.parse((await asOperator('/api/admin/health')).body);
    expect(later.services.find((s) => s.name === 'chat')!.uptime30d).toBe(100);
  });

  it('lists a person again with their new figures, in order, as they make more calls', async () => {
    const before = await usageOf();
    const top = before.people[0]!;
    const newcomer = newIdentity();
    // One more call than the leader: the newcomer is first, the leader keeps their figures.
    await publisher.publish('gateway.request.completed', {
      deployment,
      requests: Array.from({ length: top.calls + 1 }, () => call({ userId: newcomer.userId })),
    });
    await eventually(async () => (await usageOf()).people[0]?.id === newcomer.userId, {
      intervalMs: 100,
      what: 'the newcomer leads',
    });
    const after = await usageOf();
    expect(after.people[0]).toMatchObject({ id: newcomer.userId, calls: top.calls + 1 });
    expect(after.people[1]).toEqual(top);
    expect(after.totals.calls).toBe(before.totals.calls + top.calls + 1);
  });

  it('answers zeros and empty lists for a month without calls, and 400 for a month that is not one', async () => {
    const empty = await asOperator('/api/admin/usage?month=2020-01');
    expect(empty.status).toBe(200);
    expect(AdminUsageResponse.parse(empty.body)).toEqual({
      month: '2020-01',
      updatedAt: null,
      totals: { calls: 0, clientErrors: 0, serverErrors: 0, quotaCalls: 0, keyCalls: 0, averageMs: null },
      people: [],
      keys: [],
    });
    for (const month of ['2020-13', 'january', '2020-1']) {
      const res = await asOperator(`/api/admin/usage?month=${month}`);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_failed');
    }
    expect((await asOperator('/api/admin/usage?month=2020-01&extra=1')).status).toBe(400);
  });

  it('does not exist for a signed-in person who is not an operator, nor for an anonymous caller', async () => {
    const person = identityHeaders(newIdentity('enterprise'));
    for (const path of ['/api/admin/health', '/api/admin/usage', '/api/admin/usage?month=2020-01']) {
      const res = await request(app).get(path).set(person);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'not_found' });
      expect(JSON.stringify(res.body)).not.toMatch(/calls|services/);
      // Without the gateway's identity the service refuses as every identity route does; through the gateway an
      // anonymous caller gets the same 404 as this person (kasa-jwt's `hidden`, tests/e2e/adminHealth.e2e.test.ts).
      expect((await request(app).get(path)).status).toBe(401);
    }
  });
});
