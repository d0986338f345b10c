import type { KasaEvent, WebhookDelivery } from '@kasa/contracts';
import {
  SecretBox,
  ServiceMetrics,
  connectDatabase,
  createLogger,
  createServiceApp,
  initModels,
} from '@kasa/service-kit';
import { eventually, identityHeaders, newIdentity, unique, type TestIdentity } from '@kasa/test-kit';
import type { Connection } from 'mongoose';
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import request from 'supertest';
import { WebhookDeliveryStore } from '../src/webhooks/deliveryStore';
import { WebhookDeliveryWorker } from '../src/webhooks/deliveryWorker';
import { WebhookEndpointStore } from '../src/webhooks/endpointStore';
import { WebhookEvents } from '../src/webhooks/webhookEvents';
import { createWebhookRouter } from '../src/webhooks/webhookRouter';
import type { HostLookup } from '../src/webhooks/webhookTarget';

/**
 * The webhook routes, the event handlers and the delivery worker against the real database (the embedded
 * MongoDB-wire server), with receivers on 127.0.0.1. Through the whole platform: tests/integration/webhooks.test.ts.
 */
const logger = createLogger({ service: 'status-webhooks-test', version: 'test', level: 'silent' });
const box = new SecretBox(randomBytes(32));
let db: Connection;
let endpoints: WebhookEndpointStore;
let deliveries: WebhookDeliveryStore;
let events: WebhookEvents;
const closers: Array<() => Promise<unknown>> = [];

/** A resolver for made-up public names, so that registration can be checked without the Internet. */
const publicNames: HostLookup = async (hostname) => {
  if (hostname.endsWith('.example.com')) return [{ address: '93.184.216.34', family: 4 }];
  if (hostname === 'private.example.net') return [{ address: '10.1.2.3', family: 4 }];
  throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
};

function app(options: { allowPrivateNetworks: boolean; secrets?: WebhookEndpointStore }) {
  return createServiceApp({
    logger,
    metrics: new ServiceMetrics(`status_webhooks_${unique()}`),
    readiness: {},
    routes: [
      createWebhookRouter({
        endpoints: options.secrets ?? endpoints,
        deliveries,
        allowPrivateNetworks: options.allowPrivateNetworks,
        queryTimeoutMs: 5_000,
        lookup: publicNames,
      }),
    ],
  });
}

const publicApp = () => app({ allowPrivateNetworks: false });
const privateApp = () => app({ allowPrivateNetworks: true });

function worker(schedule: number[], overrides: Partial<ConstructorParameters<typeof WebhookDeliveryWorker>[0]> = {}) {
  const w = new WebhookDeliveryWorker({
    endpoints,
    deliveries,
    schedule,
    allowPrivateNetworks: true,
    concurrency: 4,
    queryTimeoutMs: 5_000,
    logger,
    // The made-up public names lead nowhere here (a closed port): no test ever reaches out to the Internet.
    lookup: async (hostname) =>
      hostname.endsWith('.example.com') ? [{ address: '127.0.0.1', family: 4 }] : publicNames(hostname),
    ...overrides,
  });
  closers.push(() => w.stop());
  return w;
}

/** Polls the worker until `probe` holds (the worker would poll on its own timer in the service). */
async function until<T>(w: WebhookDeliveryWorker, probe: () => Promise<T>, what: string) {
  return eventually(
    async () => {
      await w.poll();
      return probe();
    },
    { timeoutMs: 15_000, intervalMs: 20, what },
  );
}

interface Received {
  headers: Record<string, string>;
  body: string;
}

/** A receiver on 127.0.0.1: answers with the next status of `statuses` (the last one repeats). */
async function receiver(statuses: number[] = [200]) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers as Record<string, string>, body });
      res.writeHead(statuses[Math.min(received.length - 1, statuses.length - 1)]!).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received };
}

async function register(who: TestIdentity, url: string, events: string[] = ['video.completed']) {
  const res = await request(privateApp())
    .post('/api/developer/webhooks')
    .set(identityHeaders(who))
    .send({ url, events });
  expect(res.status).toBe(201);
  return res.body as { endpoint: { id: string }; secret: string };
}

const deliveryLog = async (who: TestIdentity, endpointId: string, query = '') => {
  const res = await request(publicApp())
    .get(`/api/developer/webhooks/${endpointId}/deliveries${query}`)
    .set(identityHeaders(who));
  expect(res.status).toBe(200);
  return res.body as { deliveries: WebhookDelivery[]; nextCursor: string | null };
};

const videoEvent = (userId: string, id = randomUUID()): KasaEvent<'voice.video.completed'> => ({
  id,
  type: 'voice.video.completed',
  source: 'kasa/voice',
  time: new Date().toISOString(),
  data: { jobId: `job-${unique()}`, userId, status: 'succeeded' },
});

beforeAll(async () => {
  db = await connectDatabase({
    url: process.env.MONGO_URL!,
    dbName: `kasa_status_webhooks_${unique()}`,
    logger,
    maxAttempts: 3,
  });
  endpoints = new WebhookEndpointStore(db, box);
  deliveries = new WebhookDeliveryStore(db);
  events = new WebhookEvents({ endpoints, deliveries, queryTimeoutMs: 5_000 });
  await initModels(endpoints.model, deliveries.model);
}, 30_000);

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  // Each test's workers see only that test's deliveries.
  await deliveries.model.deleteMany({});
});

afterAll(async () => {
  await db?.dropDatabase();
  await db?.close();
});

describe('registering an endpoint', () => {
  it('answers the endpoint and its secret once, and lists it with the plan’s limit', async () => {
    const ama = newIdentity('pro');
    const created = await request(publicApp())
      .post('/api/developer/webhooks')
      .set(identityHeaders(ama))
      .send({
        url: ' https://hooks.example.com/kasa ',
        description: 'Orders',
        events: ['video.completed', 'key.revoked'],
      });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      endpoint: {
        id: expect.stringMatching(/^[0-9a-f]{24}$/),
        url: 'https://hooks.example.com/kasa',
        description: 'Orders',
        events: ['video.completed', 'key.revoked'],
        enabled: true,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    expect(created.headers['cache-control']).toBe('private, no-store');
    const list = await request(publicApp()).get('/api/developer/webhooks').set(identityHeaders(ama));
    expect(list.body).toEqual({ endpoints: [created.body.endpoint], limit: 10 });
    // The secret is stored sealed, never in clear.
    const stored = await db.collection('webhook_endpoints').findOne({ _id: created.body.endpoint.id });
    expect(JSON.stringify(stored)).not.toContain(created.body.secret.slice(6));
  });

  it.each([
    ['https://127.0.0.1/hooks', 'a loopback address'],
    ['https://[::1]:8443/hooks', 'IPv6 loopback'],
    ['https://[::ffff:127.0.0.1]/hooks', 'IPv4-mapped loopback'],
    ['https://localhost/hooks', 'localhost'],
    ['https://169.254.169.254/latest/meta-data', 'the cloud metadata address'],
    ['https://100.64.0.1/', 'CGNAT'],
    ['https://private.example.net/hooks', 'a name that resolves to a private address'],
    ['https://nowhere.example.org/hooks', 'a name that does not resolve'],
    ['http://hooks.example.com/hooks', 'plain http'],
  ])('refuses %s (%s) with 400 webhook_url_not_allowed when private networks are not allowed', async (url) => {
    const ama = newIdentity('pro');
    const res = await request(publicApp())
      .post('/api/developer/webhooks')
      .set(identityHeaders(ama))
      .send({ url, events: ['plan.changed'] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'webhook_url_not_allowed', message: expect.any(String) });
    const list = await request(publicApp()).get('/api/developer/webhooks').set(identityHeaders(ama));
    expect(list.body.endpoints).toEqual([]);
    // The same check on a change of address.
    const { endpoint } = await register(ama, 'https://hooks.example.com/a');
    const patched = await request(publicApp())
      .patch(`/api/developer/webhooks/${endpoint.id}`)
      .set(identityHeaders(ama))
      .send({ url });
    expect(patched.status).toBe(400);
    expect(patched.body.code).toBe('webhook_url_not_allowed');
  });

  it('validates the body: events known and unique, a URL of at most 2,048 characters, no credentials', async () => {
    const ama = newIdentity('pro');
    const post = (body: unknown) =>
      request(publicApp())
        .post('/api/developer/webhooks')
        .set(identityHeaders(ama))
        .send(body as object);
    for (const body of [
      { url: 'https://hooks.example.com/', events: [] },
      { url: 'https://hooks.example.com/', events: ['webhook.test'] },
      { url: 'https://hooks.example.com/', events: ['plan.changed', 'plan.changed'] },
      { url: `https://hooks.example.com/${'a'.repeat(2_048)}`, events: ['plan.changed'] },
      { url: 'https://user:pw@hooks.example.com/', events: ['plan.changed'] },
      { url: 'ftp://hooks.example.com/', events: ['plan.changed'] },
      { url: 'https://hooks.example.com/', events: ['plan.changed'], description: 'x'.repeat(201) },
      { url: 'https://hooks.example.com/', events: ['plan.changed'], secret: 'mine' },
    ]) {
      const res = await post(body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_failed');
    }
  });

  it('refuses more endpoints than the plan allows with 403, even when registrations race', async () => {
    const free = newIdentity('free');
    const attempts = await Promise.all(
      [1, 2, 3].map(() =>
        request(publicApp())
          .post('/api/developer/webhooks')
          .set(identityHeaders(free))
          .send({ url: 'https://hooks.example.com/', events: ['plan.changed'] }),
      ),
    );
    expect(attempts.map((r) => r.status).sort()).toEqual([201, 403, 403]);
    const refused = attempts.find((r) => r.status === 403)!;
    expect(refused.body).toMatchObject({ code: 'webhook_limit_reached', details: { limit: 1, plan: 'free' } });
    const list = await request(publicApp()).get('/api/developer/webhooks').set(identityHeaders(free));
    expect(list.body).toMatchObject({ limit: 1 });
    expect(list.body.endpoints).toHaveLength(1);
    // Once deleted, its place is free again.
    const id = list.body.endpoints[0].id as string;
    expect((await request(publicApp()).delete(`/api/developer/webhooks/${id}`).set(identityHeaders(free))).status).toBe(
      204,
    );
    await register(free, 'https://hooks.example.com/again');
  });

  it('answers 409 where signing secrets cannot be kept (production without STATUS_SECRETS_KEY)', async () => {
    const ama = newIdentity('pro');
    const withoutKey = app({ allowPrivateNetworks: false, secrets: new WebhookEndpointStore(db, null) });
    const res = await request(withoutKey)
      .post('/api/developer/webhooks')
      .set(identityHeaders(ama))
      .send({ url: 'https://hooks.example.com/', events: ['plan.changed'] });
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/STATUS_SECRETS_KEY/);
  });
});

describe('another person’s endpoint', () => {
  it('is 404 on every route, and never changed', async () => {
    const [ama, kofi] = [newIdentity('pro'), newIdentity('pro')];
    const { endpoint } = await register(ama, 'https://hooks.example.com/ama');
    await request(privateApp()).post(`/api/developer/webhooks/${endpoint.id}/test`).set(identityHeaders(ama));
    const [delivery] = (await deliveryLog(ama, endpoint.id)).deliveries;
    const as = (who: TestIdentity) => ({
      patch: request(publicApp())
        .patch(`/api/developer/webhooks/${endpoint.id}`)
        .set(identityHeaders(who))
        .send({ enabled: false }),
      remove: request(publicApp()).delete(`/api/developer/webhooks/${endpoint.id}`).set(identityHeaders(who)),
      secret: request(publicApp()).post(`/api/developer/webhooks/${endpoint.id}/secret`).set(identityHeaders(who)),
      test: request(publicApp()).post(`/api/developer/webhooks/${endpoint.id}/test`).set(identityHeaders(who)),
      log: request(publicApp()).get(`/api/developer/webhooks/${endpoint.id}/deliveries`).set(identityHeaders(who)),
      replay: request(publicApp())
        .post(`/api/developer/webhooks/${endpoint.id}/deliveries/${delivery!.id}/replay`)
        .set(identityHeaders(who)),
    });
    for (const [name, call] of Object.entries(as(kofi))) {
      const res = await call;
      expect([name, res.status, res.body.code]).toEqual([name, 404, 'not_found']);
    }
    // Nor does an id that does not exist, or is not an id at all, tell anything else.
    for (const id of ['0123456789abcdef01234567', 'not-an-id']) {
      const res = await request(publicApp()).delete(`/api/developer/webhooks/${id}`).set(identityHeaders(ama));
      expect(res.status).toBe(404);
    }
    const list = await request(publicApp()).get('/api/developer/webhooks').set(identityHeaders(ama));
    expect(list.body.endpoints).toEqual([expect.objectContaining({ id: endpoint.id, enabled: true })]);
    expect((await deliveryLog(ama, endpoint.id)).deliveries).toHaveLength(1);
    // Kofi's own list is empty; without the gateway's identity there is no answer at all.
    expect(
      (await request(publicApp()).get('/api/developer/webhooks').set(identityHeaders(kofi))).body.endpoints,
    ).toEqual([]);
    expect((await request(publicApp()).get('/api/developer/webhooks')).status).toBe(401);
  });
});

describe('deliveries', () => {
  it('are made once per subscribed, enabled endpoint of the event’s owner, however often the event is heard', async () => {
    const [ama, kofi] = [newIdentity('pro'), newIdentity('pro')];
    const videos = await register(ama, 'https://hooks.example.com/videos', ['video.completed']);
    const plans = await register(ama, 'https://hooks.example.com/plans', ['plan.changed']);
    const off = await register(ama, 'https://hooks.example.com/off', ['video.completed']);
    await request(publicApp())
      .patch(`/api/developer/webhooks/${off.endpoint.id}`)
      .set(identityHeaders(ama))
      .send({ enabled: false });
    const kofis = await register(kofi, 'https://hooks.example.com/kofi', ['video.completed']);

    const event = videoEvent(ama.userId);
    await Promise.all([events.video(event), events.video(event)]);
    await events.video(event);

    const log = (await deliveryLog(ama, videos.endpoint.id)).deliveries;
    expect(log).toEqual([
      expect.objectContaining({ eventId: event.id, eventType: 'video.completed', status: 'pending', attempts: 0 }),
    ]);
    expect((await deliveryLog(ama, plans.endpoint.id)).deliveries).toEqual([]);
    expect((await deliveryLog(ama, off.endpoint.id)).deliveries).toEqual([]);
    expect((await deliveryLog(kofi, kofis.endpoint.id)).deliveries).toEqual([]);
    const stored = await db.collection('webhook_deliveries').findOne({ eventId: event.id });
    expect(JSON.parse(stored!.body as string)).toEqual({
      type: 'video.completed',
      timestamp: event.time,
      data: { jobId: event.data.jobId, status: 'succeeded' },
    });
  });

  it('are sent signed, retried after failures on the schedule, and logged with their attempts', async () => {
    const ama = newIdentity('pro');
    const hook = await receiver([500, 500, 200]);
    const { endpoint, secret } = await register(ama, hook.url);
    const event = videoEvent(ama.userId);
    await events.video(event);
    const w = worker([50, 50, 50]);
    const [delivered] = await until(
      w,
      async () => {
        const log = (await deliveryLog(ama, endpoint.id)).deliveries;
        return log[0]?.status === 'delivered' && log;
      },
      'the delivery after two failures',
    );
    expect(delivered).toMatchObject({
      eventId: event.id,
      status: 'delivered',
      attempts: 3,
      lastStatusCode: 200,
      lastError: null,
      nextAttemptAt: null,
      deliveredAt: expect.any(String),
      replayOf: null,
    });
    expect(hook.received).toHaveLength(3);
    for (const got of hook.received) {
      expect(got.headers['webhook-id']).toBe(event.id);
      expect(new Webhook(secret).verify(got.body, got.headers)).toMatchObject({ type: 'video.completed' });
    }
  });

  it('fail once every retry is used up, saying why', async () => {
    const ama = newIdentity('pro');
    const hook = await receiver([503]);
    const { endpoint } = await register(ama, hook.url);
    await events.video(videoEvent(ama.userId));
    const w = worker([20, 20]);
    const [failed] = await until(
      w,
      async () => {
        const log = (await deliveryLog(ama, endpoint.id)).deliveries;
        return log[0]?.status === 'failed' && log;
      },
      'the delivery failed',
    );
    expect(failed).toMatchObject({ attempts: 3, lastStatusCode: 503, lastError: 'HTTP 503', nextAttemptAt: null });
    expect(hook.received).toHaveLength(3);
  });

  it('replay the same webhook-id and body as a new delivery, signed with the secret of the moment', async () => {
    const ama = newIdentity('pro');
    const hook = await receiver([200]);
    const { endpoint, secret } = await register(ama, hook.url);
    const test = await request(publicApp())
      .post(`/api/developer/webhooks/${endpoint.id}/test`)
      .set(identityHeaders(ama));
    expect(test.status).toBe(202);
    expect(test.body.delivery).toMatchObject({ eventType: 'webhook.test', status: 'pending', attempts: 0 });
    const w = worker([50]);
    await until(w, async () => hook.received.length === 1, 'the test message');
    expect(new Webhook(secret).verify(hook.received[0]!.body, hook.received[0]!.headers)).toMatchObject({
      type: 'webhook.test',
      data: { endpointId: endpoint.id },
    });

    // A new secret: the old one signs nothing from now on.
    const rotated = await request(publicApp())
      .post(`/api/developer/webhooks/${endpoint.id}/secret`)
      .set(identityHeaders(ama));
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(secret);
    const replay = await request(publicApp())
      .post(`/api/developer/webhooks/${endpoint.id}/deliveries/${test.body.delivery.id}/replay`)
      .set(identityHeaders(ama));
    expect(replay.status).toBe(202);
    expect(replay.body.delivery).toMatchObject({
      eventId: test.body.delivery.eventId,
      replayOf: test.body.delivery.id,
    });
    await until(w, async () => hook.received.length === 2, 'the replay');
    const [first, again] = hook.received;
    expect(again!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(again!.body).toBe(first!.body);
    expect(new Webhook(rotated.body.secret).verify(again!.body, again!.headers)).toBeDefined();
    expect(() => new Webhook(secret).verify(again!.body, again!.headers)).toThrow();

    // Disabled: no test, no replay; enabled again, they go.
    await request(publicApp())
      .patch(`/api/developer/webhooks/${endpoint.id}`)
      .set(identityHeaders(ama))
      .send({ enabled: false });
    expect(
      (await request(publicApp()).post(`/api/developer/webhooks/${endpoint.id}/test`).set(identityHeaders(ama))).status,
    ).toBe(409);
  });

  it('are never sent twice by two workers racing for them', async () => {
    const ama = newIdentity('enterprise');
    const hook = await receiver([200]);
    await register(ama, hook.url);
    const sent = Array.from({ length: 12 }, () => videoEvent(ama.userId));
    for (const event of sent) await events.video(event);
    const [a, b] = [worker([50], { concurrency: 3 }), worker([50], { concurrency: 3 })];
    await eventually(
      async () => {
        await Promise.all([a.poll(), b.poll()]);
        return hook.received.length >= sent.length && a.busy + b.busy === 0;
      },
      { timeoutMs: 15_000, intervalMs: 20, what: 'every delivery sent' },
    );
    const ids = hook.received.map((r) => r.headers['webhook-id']).sort();
    expect(ids).toEqual(sent.map((e) => e.id).sort());
  });

  it('stop for a disabled endpoint and go with a deleted one', async () => {
    const ama = newIdentity('pro');
    const hook = await receiver([200]);
    const { endpoint } = await register(ama, hook.url);
    await events.video(videoEvent(ama.userId));
    await endpoints.update(ama.userId, endpoint.id, { enabled: false }, { maxTimeMS: 5_000 });
    const w = worker([50]);
    const [stopped] = await until(
      w,
      async () => {
        const log = (await deliveryLog(ama, endpoint.id)).deliveries;
        return log[0]?.status === 'failed' && log;
      },
      'the delivery stopped',
    );
    expect(stopped).toMatchObject({ attempts: 0, lastError: 'endpoint disabled' });
    expect(hook.received).toHaveLength(0);

    expect(
      (await request(publicApp()).delete(`/api/developer/webhooks/${endpoint.id}`).set(identityHeaders(ama))).status,
    ).toBe(204);
    expect(await db.collection('webhook_deliveries').countDocuments({ endpointId: endpoint.id })).toBe(0);
  });

  it('are listed newest first, a page at a time', async () => {
    const ama = newIdentity('pro');
    const { endpoint } = await register(ama, 'https://hooks.example.com/log');
    const sent: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const event = videoEvent(ama.userId);
      sent.unshift(event.id);
      await events.video(event);
    }
    const first = await deliveryLog(ama, endpoint.id, '?limit=2');
    const second = await deliveryLog(ama, endpoint.id, `?limit=2&before=${first.nextCursor}`);
    const third = await deliveryLog(ama, endpoint.id, `?limit=2&before=${second.nextCursor}`);
    expect(third.nextCursor).toBeNull();
    const ids = [...first.deliveries, ...second.deliveries, ...third.deliveries].map((d) => d.eventId);
    expect(new Set(ids).size).toBe(5);
    expect(ids.sort()).toEqual([...sent].sort());
    const times = [...first.deliveries, ...second.deliveries, ...third.deliveries].map((d) => d.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    for (const query of ['?limit=0', '?limit=101', '?before=nonsense']) {
      const res = await request(publicApp())
        .get(`/api/developer/webhooks/${endpoint.id}/deliveries${query}`)
        .set(identityHeaders(ama));
      expect(res.status).toBe(400);
    }
  });
});
