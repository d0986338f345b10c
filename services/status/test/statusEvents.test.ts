import type { EventData } from '@kasa/contracts';
import {
  EventBus,
  NotFoundError,
  connectDatabase,
  createLogger,
  createMongoProcessedEventStore,
} from '@kasa/service-kit';
import { eventually as eventuallyKit, newIdentity, type TestIdentity } from '@kasa/test-kit';
import type { Connection } from 'mongoose';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect as amqpConnect } from 'amqplib';
import { ChatActivityStore } from '../src/chatActivity/chatActivityStore';
import { subscribeStatusEvents } from '../src/events/subscriptions';
import { HeartbeatStore } from '../src/heartbeats/heartbeatStore';
import { ServicesStatus } from '../src/health/servicesStatus';
import { AnalyticsService } from '../src/analytics/analyticsService';
import { ApiKeyOwners } from '../src/apiKeys/apiKeyOwners';
import { RequestStore } from '../src/requests/requestStore';
import { cleanUp } from '../src/retention';
import { statusCollections, type StatusCollections } from '../src/rollups/collections';
import { RollupWriter } from '../src/rollups/rollupWriter';
import { VoiceActivityStore } from '../src/voiceActivity/voiceActivityStore';
import { userMonthId } from '../src/requests/requestStore';

const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const logger = createLogger({ service: 'status-it', version: 'test', level: 'silent' });
const run = randomUUID().slice(0, 8);
const consumerName = `status-it-${run}`;
// The heartbeat interval the status rules assume: a heartbeat is fresh for three of them. Long enough that a loaded
// machine never lets one go stale between its publication and the refresh that reads it; the tests that need a stale
// heartbeat refresh at a time ahead instead of waiting.
const INTERVAL_MS = 5_000;
// Other test runs share the broker: this test's events carry a deployment of their own.
const deployment = `status-it-${run}`;

let db: Connection;
let consumer: EventBus;
let publisher: EventBus;
let stores: {
  heartbeats: HeartbeatStore;
  requests: RequestStore;
  chat: ChatActivityStore;
  apiKeys: ApiKeyOwners;
  voice: VoiceActivityStore;
};
const fakes: Server[] = [];

/** A small HTTP server answering every path with `status` and `body`; its URL. */
async function fakeServer(status: number, body: unknown): Promise<string> {
  const server = createServer((_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fakes.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A URL nothing answers at. */
async function deadUrl(): Promise<string> {
  const url = await fakeServer(200, {});
  const server = fakes.pop()!;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return url;
}

const eventually = (probe: () => Promise<boolean>, timeoutMs = 10_000) =>
  eventuallyKit(probe, { timeoutMs, intervalMs: 50, what: 'the events are stored' });
const LIMITS = { maxTimeMS: 5_000 };
let collections: StatusCollections;
let analytics: AnalyticsService;

const heartbeat = (service: string, overrides: Partial<EventData<'service.heartbeat'>> = {}) => ({
  service,
  deployment,
  instanceId: `${service}-1`,
  version: '0.1.0',
  ready: true,
  checks: { database: true, broker: true },
  at: new Date().toISOString(),
  ...overrides,
});

const requestsOf = (route: string, statuses: number[], userId?: string) => ({
  deployment,
  requests: statuses.map((status, i) => ({
    route,
    method: 'GET',
    status,
    durationMs: 10 + i,
    ...(userId ? { userId } : {}),
    at: new Date().toISOString(),
  })),
});

beforeAll(async () => {
  db = await connectDatabase({ url: process.env.MONGO_URL!, dbName: `kasa_status_it_${run}`, logger, maxAttempts: 3 });
  collections = statusCollections(db);
  const writer = new RollupWriter();
  stores = {
    heartbeats: new HeartbeatStore(db, writer),
    requests: new RequestStore(collections, writer),
    chat: new ChatActivityStore(collections, writer),
    apiKeys: new ApiKeyOwners(collections.apiKeyOwners),
    voice: new VoiceActivityStore(collections, writer),
  };
  analytics = new AnalyticsService({
    requests: stores.requests,
    chat: stores.chat,
    keys: stores.apiKeys,
    monthlyCalls: { free: 1000, pro: 50_000, enterprise: null },
  });
  consumer = new EventBus({
    url: AMQP_URL,
    source: 'kasa/status',
    logger,
    consumerName,
    processedEvents: createMongoProcessedEventStore(db),
  });
  subscribeStatusEvents(consumer, stores, { deployment });
  publisher = new EventBus({ url: AMQP_URL, source: 'kasa/status-it', logger });
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
  await Promise.all(fakes.map((s) => new Promise((resolve) => s.close(resolve))));
  await db?.dropDatabase();
  await db?.close();
});

describe('the status service’s event consumption', () => {
  it('stores a batch of gateway requests once, even when the same event arrives twice', async () => {
    const who = newIdentity();
    const userId = who.userId;
    const id = randomUUID();
    const calls = async () => (await analytics.usage(who, { days: 1 }, LIMITS)).totalCalls;
    await publisher.publish('gateway.request.completed', requestsOf('chat', [200, 201, 500], userId), { id });
    await publisher.publish('gateway.request.completed', requestsOf('chat', [200, 201, 500], userId), { id });
    await publisher.publish('gateway.request.completed', requestsOf('voice', [200], userId));
    await eventually(async () => (await calls()) >= 4);
    await new Promise((r) => setTimeout(r, 300));
    const usage = await analytics.usage(who, { days: 1 }, LIMITS);
    expect(usage.totalCalls).toBe(4);
    expect(usage.days).toEqual([{ date: new Date().toISOString().slice(0, 10), calls: 4, errors: 1 }]);
    expect((await analytics.overview(who, LIMITS)).usage.quota.used).toBe(4);
    // A batch redelivered after its event id was forgotten still adds nothing: the batch's id is kept.
    expect(await stores.requests.storeBatch(id, requestsOf('chat', [200, 201, 500], userId))).toBe(0);
    expect(await calls()).toBe(4);
  });

  it('counts a chat message once, and on its session even when it arrives before the session', async () => {
    const who = newIdentity();
    const userId = who.userId;
    const sessionId = randomUUID();
    const messages = async () => (await analytics.overview(who, LIMITS)).messages;
    const message = {
      sessionId,
      userId,
      messageId: randomUUID(),
      personaId: 'ticha',
      role: 'user' as const,
      language: 'tw',
    };
    await publisher.publish('chat.message.created', message);
    await publisher.publish('chat.message.created', message);
    await eventually(async () => (await messages()) === 1);
    await publisher.publish('chat.session.created', {
      sessionId,
      userId,
      personaId: 'ticha',
      title: 'Twi lesson',
      createdAt: new Date().toISOString(),
    });
    await eventually(async () => (await stores.chat.listSessions(userId, 10, LIMITS)).length === 1);
    expect(await stores.chat.listSessions(userId, 10, LIMITS)).toEqual([
      expect.objectContaining({ id: sessionId, title: 'Twi lesson', personaId: 'ticha', messageCount: 1 }),
    ]);
    const overview = await analytics.overview(who, LIMITS);
    expect(overview).toMatchObject({ messages: 1, sessions: 1, languageUsage: { tw: 1 }, personaUsage: { ticha: 1 } });
    expect(await stores.chat.listSessions(`u-${randomUUID()}`, 10, LIMITS)).toEqual([]);
  });

  it("counts voice's speech and finished videos once each on the person's day", async () => {
    const userId = `u-${randomUUID()}`;
    const now = new Date().toISOString();
    const day = now.slice(8, 10);
    const speech = { userId, language: 'yo', engine: 'espeak', characters: 120, durationSeconds: 7.5 };
    const speechId = randomUUID();
    await publisher.publish('voice.speech.synthesized', speech, { id: speechId });
    await publisher.publish('voice.speech.synthesized', speech, { id: speechId }); // a republish: same id
    await publisher.publish('voice.speech.synthesized', { ...speech, userId: undefined }); // anonymous: not counted
    const jobId = randomUUID();
    const video = { jobId, userId, status: 'succeeded' as const };
    await publisher.publish('voice.video.completed', video, { id: `voice.video.completed:${jobId}` });
    await publisher.publish('voice.video.completed', video, { id: `voice.video.completed:${jobId}` });
    const month = async () =>
      (await collections.usage(userId).findOne({ _id: userMonthId(userId, now.slice(0, 7)) })) as {
        days?: Record<string, Record<string, unknown>>;
      } | null;
    await eventually(async () => (await month())?.days?.[day]?.videos !== undefined);
    await new Promise((r) => setTimeout(r, 300));
    expect((await month())?.days?.[day]).toMatchObject({
      speech: 1,
      speechCharacters: 120,
      speechSeconds: 7.5,
      speechLanguage: { yo: 1 },
      videos: { succeeded: 1 },
    });
    // ...and the person's analytics overview shows them.
    expect((await analytics.overview({ ...newIdentity(), userId }, LIMITS)).voice).toEqual({
      speechClips: 1,
      speechSeconds: 7.5,
      videosMade: 1,
      videosFailed: 0,
    });
  });
});

describe('events of another deployment on the same broker', () => {
  it('are not counted', async () => {
    const who = newIdentity();
    const userId = who.userId;
    const calls = async () => (await analytics.usage(who, { days: 1 }, LIMITS)).totalCalls;
    await publisher.publish('gateway.request.completed', { ...requestsOf('chat', [200], userId), deployment: 'other' });
    await publisher.publish('service.heartbeat', heartbeat(`svc-other-${run}`, { deployment: 'other' }));
    await publisher.publish('gateway.request.completed', requestsOf('chat', [200], userId));
    await eventually(async () => (await calls()) === 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(await calls()).toBe(1);
    const services = (await stores.heartbeats.recentInstances(new Date(0))).map((i) => i.service);
    expect(services).not.toContain(`svc-other-${run}`);
  });
});

describe('the rules of the service status page', () => {
  it('tells operational, degraded and down apart from heartbeats, probes and error rates', async () => {
    const status = new ServicesStatus({
      heartbeats: stores.heartbeats,
      requests: stores.requests,
      probeUrls: {
        gateway: await fakeServer(503, { status: 'not_ready' }),
        auth: await deadUrl(),
        voice: await deadUrl(),
      },
      probeTimeoutMs: 500,
      heartbeatIntervalMs: INTERVAL_MS,
      errorRateDegradedPercent: 5,
      errorRateMinRequests: 10,
    });
    // auth: heartbeats, but 2 of its last 10 calls failed; chat: says it is not ready, one AI provider's circuit open.
    await publisher.publish('service.heartbeat', heartbeat('auth'));
    await publisher.publish(
      'service.heartbeat',
      heartbeat('chat', {
        ready: false,
        components: [
          { name: 'ai:openai', provider: 'openai', state: 'down' },
          { name: 'ai:offline', provider: 'offline', state: 'operational' },
        ],
      }),
    );
    await publisher.publish(
      'gateway.request.completed',
      requestsOf('authCredentials', [200, 200, 200, 200, 200, 200, 200, 200, 500, 503]),
    );
    await eventually(
      async () => (await stores.requests.serviceFigures(new Date(), LIMITS)).lastMinutes.get('auth')?.calls === 10,
    );
    await eventually(async () => (await stores.heartbeats.recentInstances(new Date(0))).length >= 2);

    const data = await status.refresh();
    // Served from memory afterwards: the same snapshot, no query.
    expect(await status.read()).toBe(data);
    const state = (name: string) => data.services.find((s) => s.name === name);
    expect(state('auth')).toMatchObject({ status: 'degraded', provider: 'kasa', requests: 10, errors: 2 });
    expect(state('chat')).toMatchObject({ status: 'degraded', provider: 'kasa' });
    expect(state('voice')).toMatchObject({ status: 'down', uptime: 0 });
    expect(state('gateway')).toMatchObject({ status: 'degraded' });
    expect(state('status')).toMatchObject({ status: 'operational' });
    expect(state('ai:openai')).toMatchObject({ status: 'down', provider: 'openai' });
    expect(state('ai:offline')).toMatchObject({ status: 'operational', provider: 'offline' });
    // The one line for chat's AI providers: the only configured one is failing, so replies come from offline.
    expect(state('ai-providers')).toMatchObject({ status: 'degraded', provider: 'openai' });
    // Voice has not reported its parts yet: its usual ones are listed, unknown; its engines are not known at all.
    expect(state('transcription')).toMatchObject({ status: 'unknown', provider: 'unknown' });
    expect(state('translation')).toMatchObject({ status: 'unknown', provider: 'unknown' });
    expect(data.services.some((s) => s.name.startsWith('speech:'))).toBe(false);
    expect(data.overall).toMatchObject({ status: 'down', totalErrors: expect.any(Number) });
    expect(data.overall.totalRequests).toBeGreaterThanOrEqual(10);

    // Three intervals later without a heartbeat, auth is silent and its probe finds nothing: down.
    const later = await status.refresh(new Date(Date.now() + 4 * INTERVAL_MS));
    expect(later.services.find((s) => s.name === 'auth')!.status).toBe('down');
  });

  it('shows voice’s speech engines, transcription and translation from its heartbeats, unknown once they stop', async () => {
    const status = new ServicesStatus({
      heartbeats: stores.heartbeats,
      requests: stores.requests,
      probeUrls: { voice: await deadUrl() },
      probeTimeoutMs: 500,
      heartbeatIntervalMs: INTERVAL_MS,
      errorRateDegradedPercent: 5,
      errorRateMinRequests: 10,
    });
    // What voice reports on the offline defaults (services/voice/src/voiceStatus.ts): no process asks it over HTTP.
    await publisher.publish(
      'service.heartbeat',
      heartbeat('voice', {
        components: [
          { name: 'speech:espeak-ng', provider: 'espeak-ng', state: 'operational' },
          { name: 'transcription', provider: 'offline', state: 'down' },
          { name: 'translation', provider: 'offline', state: 'degraded' },
        ],
      }),
    );
    await eventually(async () =>
      (await stores.heartbeats.recentInstances(new Date(0))).some((i) => i.service === 'voice' && i.components.length),
    );

    const data = await status.refresh();
    const state = (name: string) => data.services.find((s) => s.name === name);
    expect(state('voice')).toMatchObject({ status: 'operational' });
    expect(state('speech:espeak-ng')).toMatchObject({ status: 'operational', provider: 'espeak-ng', requests: 0 });
    expect(state('transcription')).toMatchObject({ status: 'down', provider: 'offline' });
    expect(state('translation')).toMatchObject({ status: 'degraded', provider: 'offline' });
    // Parts never change the platform's state: the service around them answers, with its fallbacks.
    expect(data.services.map((s) => s.name).slice(-3)).toEqual(['speech:espeak-ng', 'transcription', 'translation']);

    // Three intervals without a heartbeat: voice is silent, its probe finds nothing, and nobody says how its parts are.
    const later = await status.refresh(new Date(Date.now() + 4 * INTERVAL_MS));
    const after = (name: string) => later.services.find((s) => s.name === name);
    expect(after('voice')).toMatchObject({ status: 'down' });
    expect(after('speech:espeak-ng')).toMatchObject({ status: 'unknown', provider: 'espeak-ng' });
    expect(after('translation')).toMatchObject({ status: 'unknown', provider: 'offline' });
  });

  it('counts uptime as the share of expected heartbeats received since the service was first heard of', async () => {
    const service = `svc-${run}`;
    const start = Date.now() - 10_000;
    // One heartbeat a second expected over 10 s; 5 arrived.
    for (let i = 0; i < 5; i += 1) {
      await stores.heartbeats.record(heartbeat(service, { at: new Date(start + i * 1_000).toISOString() }));
    }
    expect(await stores.heartbeats.uptime(service, new Date(start + 10_000), 86_400_000, 1_000)).toBe(50);
    expect(await stores.heartbeats.uptime(`never-${run}`, new Date(), 86_400_000, 1_000)).toBeNull();
  });
});

describe('whose API key is', () => {
  const prefix = 'ksk_ab12';
  const createdAt = () => new Date().toISOString();
  const owned = (who: TestIdentity, keyId: string) => stores.apiKeys.isOwnedBy(who, keyId, LIMITS);
  const usageOf = (who: TestIdentity, keyId: string) => analytics.usage(who, { days: 1, keyId }, LIMITS);

  it('is learnt from auth’s events, without asking auth: the owner sees the key’s usage, anyone else a 404', async () => {
    const [ama, kofi] = [newIdentity(), newIdentity()];
    const [personal, team] = [`key-${randomUUID()}`, `key-${randomUUID()}`];
    const teamId = `team-${run}`;
    await publisher.publish('auth.apikey.created', {
      userId: ama.userId,
      keyId: personal,
      teamId: null,
      prefix,
      createdAt: createdAt(),
    });
    await publisher.publish('auth.apikey.created', {
      userId: ama.userId,
      keyId: team,
      teamId,
      prefix,
      createdAt: createdAt(),
    });
    await eventually(async () => (await owned(ama, personal)) && (await owned(ama, team)));

    expect(await usageOf(ama, personal)).toMatchObject({ totalCalls: 0, byKey: [] });
    await expect(usageOf(kofi, personal)).rejects.toBeInstanceOf(NotFoundError);
    await expect(usageOf(ama, `key-${randomUUID()}`)).rejects.toBeInstanceOf(NotFoundError);
    // A team key is the team's (calls made with it act as team:<id>) and its creator's; auth announces no members.
    expect(await owned(newIdentity('free', `team:${teamId}`), team)).toBe(true);
    await expect(usageOf(kofi, team)).rejects.toBeInstanceOf(NotFoundError);

    // Revoked, a key stays its owner's: its past calls are still hers to see (the portal lists revoked keys too).
    await publisher.publish('auth.apikey.revoked', { userId: ama.userId, keyId: personal, prefix });
    await eventually(async () => (await collections.apiKeyOwners.findOne({ _id: personal }))?.revokedAt !== undefined);
    expect(await usageOf(ama, personal)).toMatchObject({ totalCalls: 0 });
    await expect(usageOf(kofi, personal)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('does not depend on the order of the events: a revocation heard first keeps its owner, the creation fills in the team', async () => {
    const ama = newIdentity();
    const keyId = `key-${randomUUID()}`;
    const teamId = `team-${randomUUID().slice(0, 8)}`;
    await publisher.publish('auth.apikey.revoked', { userId: ama.userId, keyId, prefix });
    await eventually(() => owned(ama, keyId));
    await publisher.publish('auth.apikey.created', {
      userId: ama.userId,
      keyId,
      teamId,
      prefix,
      createdAt: createdAt(),
    });
    await eventually(async () => (await collections.apiKeyOwners.findOne({ _id: keyId }))?.teamId === teamId);
    const stored = await collections.apiKeyOwners.findOne({ _id: keyId });
    expect(stored).toMatchObject({
      userId: ama.userId,
      teamId,
      revokedAt: expect.any(Date),
      createdAt: expect.any(Date),
    });
    expect(await owned(newIdentity('free', `team:${teamId}`), keyId)).toBe(true);
  });
});

describe('the clean-up', () => {
  it('deletes old raw records, old minute and hour buckets and day buckets past the retention, and keeps the rest', async () => {
    const who = newIdentity();
    const now = Date.now();
    const day = 86_400_000;
    const at = (ms: number) => new Date(now - ms).toISOString();
    const oldBatch = randomUUID();
    // A batch counted 8 days ago (its id is a raw record), calls 3 hours and 3 days ago, and 130 days ago.
    await stores.requests.storeBatch(
      oldBatch,
      {
        requests: [{ route: 'chat', method: 'GET', status: 200, durationMs: 1, userId: who.userId, at: at(130 * day) }],
      },
      new Date(now - 8 * day),
    );
    const recentBatch = randomUUID();
    await stores.requests.storeBatch(recentBatch, {
      requests: [
        { route: 'chat', method: 'GET', status: 200, durationMs: 1, userId: who.userId, at: at(3 * 3_600_000) },
        { route: 'chat', method: 'GET', status: 200, durationMs: 1, userId: who.userId, at: at(3 * day) },
        { route: 'chat', method: 'GET', status: 200, durationMs: 1, userId: who.userId, at: at(1_000) },
      ],
    });
    const ids = async (filter: Record<string, unknown>) =>
      (await collections.services.find(filter).toArray()).map((d) => d._id);
    const minuteOf = (ms: number) => `m|${new Date(now - ms).toISOString().slice(0, 16)}`;
    const hourOf = (ms: number) => `h|${new Date(now - ms).toISOString().slice(0, 13)}`;
    expect(await ids({ _id: { $in: [minuteOf(3 * 3_600_000), hourOf(3 * day)] } })).toHaveLength(2);

    const processed = { prune: async () => 0 };
    await cleanUp({ ...stores, processedEvents: processed }, { retentionDays: 90, rawRetentionDays: 7, logger });

    // Raw: the old batch id is gone (so it would count again: it is far past any redelivery), the recent one stays.
    expect(await collections.batches.countDocuments({ _id: { $in: [oldBatch, recentBatch] } })).toBe(1);
    expect(await collections.batches.countDocuments({ _id: recentBatch })).toBe(1);
    // Minute buckets older than 2 hours and hour buckets older than 2 days go; newer ones stay.
    expect(await ids({ _id: { $in: [minuteOf(3 * 3_600_000), hourOf(3 * day)] } })).toEqual([]);
    expect(await ids({ _id: { $in: [minuteOf(1_000), hourOf(3 * 3_600_000)] } })).toHaveLength(2);
    // The month of 130 days ago is past the retention; the recent days still count.
    const oldMonth = new Date(now - 130 * day).toISOString().slice(0, 7);
    expect(await collections.usage(who.userId).countDocuments({ _id: `u|${who.userId}|${oldMonth}` })).toBe(0);
    expect((await analytics.usage(who, { days: 7 }, LIMITS)).totalCalls).toBe(3);
  });
});
