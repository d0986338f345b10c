import type { EventData, KasaEvent } from '@kasa/contracts';
import { EventBus, createLogger } from '@kasa/service-kit';
import { eventually } from '@kasa/test-kit';
import { randomUUID } from 'node:crypto';
import { call, startHarness, type Harness } from './harness';

type RequestRecord = EventData<'gateway.request.completed'>['requests'][number];

const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const logger = createLogger({ service: 'request-events-test', version: 'test', level: 'silent' });

describe('gateway.request.completed and the gateway heartbeat', () => {
  let h: Harness;
  let listener: EventBus;
  const requests: RequestRecord[] = [];
  const batches: Array<KasaEvent<'gateway.request.completed'>> = [];
  const heartbeats: Array<EventData<'service.heartbeat'>> = [];
  const userId = `u-${randomUUID()}`;
  const keyOwner = `u-${randomUUID()}`;
  const keyId = `key-${randomUUID().slice(0, 8)}`;
  const apiKey = `ksk_${'k'.repeat(43)}`;
  const deployment = `gateway-test-${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    // Other test runs share the broker: only this test's callers are looked at.
    listener = new EventBus({ url: AMQP_URL, source: 'kasa/request-events-test', logger })
      .subscribeBroadcast('gateway.request.completed', async (event) => {
        const mine = event.data.requests.filter((r) => r.userId === userId || r.userId === keyOwner);
        if (mine.length > 0) batches.push(event);
        requests.push(...mine);
      })
      .subscribeBroadcast('service.heartbeat', async (event) => {
        if (event.data.deployment === deployment) heartbeats.push(event.data);
      });
    await listener.start();
    h = await startHarness({
      HEARTBEAT_INTERVAL_MS: '200',
      REQUEST_EVENTS_FLUSH_MS: '100',
      KASA_DEPLOYMENT: deployment,
    });
    h.services.auth.route('/internal/api-keys/verify', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          userId: keyOwner,
          username: 'kofi',
          tier: 'pro',
          keyId,
          scopes: ['chat', 'voice', 'analytics'],
          expiresAt: null,
        }),
      );
    });
    h.services.chat.route('/api/chat/sessions/missing', (_req, res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end('{"message":"boom","code":"internal"}');
    });
    await eventually(() => (h.gateway.revocationFeedConnected() ? true : undefined), { timeoutMs: 15_000 });
  }, 30_000);

  afterAll(async () => {
    await h?.stop();
    await listener?.close();
  });

  it('publishes each API request with its route, method, status, duration and caller, in batches', async () => {
    const token = h.keys.token({ sub: userId });
    const auth = { authorization: `Bearer ${token}` };
    expect((await call(`${h.url}/api/personas`, { headers: auth })).status).toBe(200);
    expect((await call(`${h.url}/api/chat/sessions/missing`, { headers: auth })).status).toBe(500);
    expect((await call(`${h.url}/api/chat/sessions`, { method: 'POST', headers: auth, body: '{}' })).status).toBe(200);
    expect((await call(`${h.url}/api/personas`, { headers: { authorization: `Bearer ${apiKey}` } })).status).toBe(200);

    await eventually(() => (requests.length >= 4 ? true : undefined), { timeoutMs: 10_000 });
    const sorted = [...requests].sort((a, b) => a.at.localeCompare(b.at));
    expect(
      sorted.map(({ route, method, status, userId: who, apiKeyId }) => ({ route, method, status, who, apiKeyId })),
    ).toEqual([
      { route: 'chat', method: 'GET', status: 200, who: userId, apiKeyId: undefined },
      { route: 'chat', method: 'GET', status: 500, who: userId, apiKeyId: undefined },
      { route: 'chat', method: 'POST', status: 200, who: userId, apiKeyId: undefined },
      { route: 'chat', method: 'GET', status: 200, who: keyOwner, apiKeyId: keyId },
    ]);
    for (const r of sorted) {
      expect(r.durationMs).toBeGreaterThanOrEqual(0);
      expect(Math.abs(Date.parse(r.at) - Date.now())).toBeLessThan(30_000);
    }
    // Batched: fewer events than requests is possible, never more than one per request.
    expect(batches.length).toBeLessThanOrEqual(4);
    expect(batches.every((b) => b.source === 'kasa/gateway' && b.data.deployment === deployment)).toBe(true);
  });

  it('publishes a heartbeat saying whether the gateway is ready', async () => {
    await eventually(() => (heartbeats.length >= 2 ? true : undefined), { timeoutMs: 5_000 });
    expect(heartbeats.at(-1)).toMatchObject({
      service: 'gateway',
      ready: true,
      checks: { jwks: true, broker: true },
      at: expect.any(String),
    });
  });
});
