import type {
  AuthResponse,
  CreateApiKeyResponse,
  CreateWebhookEndpointResponse,
  WebhookDelivery,
  WebhookMessage,
} from '@kasa/contracts';
import { eventually } from '@kasa/test-kit';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { deleteQueues, startPlatform, type RunningPlatform } from '../support/platform';

/**
 * Developer webhooks through the built platform (gateway, auth, voice, status from their dist): endpoints registered
 * through the gateway receive Standard Webhooks messages, verified here with the `standardwebhooks` library, for a
 * real video job, an operator's plan change, an API key revoked through the API and the monthly quota's 80 % (the
 * Free plan's quota is 5 calls on this platform); a receiver answering 500 twice is retried until it answers 200;
 * a replay repeats the webhook-id. Receivers listen on 127.0.0.1, which this platform's operator allows
 * (WEBHOOKS_ALLOW_PRIVATE_NETWORKS); the refusal of internal addresses is services/status/test/webhooks.test.ts.
 */
const run = randomUUID().slice(0, 8);
const OPERATOR_EMAIL = `operator.${run}@example.com`;
// A work queue of this run's own: voice services of other runs on the broker never take its video jobs.
const VOICE_VIDEO_QUEUE = `kasa.voice.video.webhooks-${run}`;
const FREE_MONTHLY_CALLS = 5;

let platform: RunningPlatform;
let operator: Person;

interface Person {
  id: string;
  email: string;
  password: string;
  token: string;
}

interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** Receives every webhook of this file on 127.0.0.1; a path answers with the statuses set for it (then 200). */
const received: Received[] = [];
const answers = new Map<string, number[]>();
let receiverServer: http.Server;
let receiverUrl: string;

const url = (p: string) => `${platform.baseUrl}${p}`;

async function call(method: string, p: string, credential?: string, body?: unknown) {
  const res = await fetch(url(p), {
    method,
    headers: {
      ...(credential ? { authorization: `Bearer ${credential}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, any> };
}

async function signUp(prefix: string, email = `${prefix}.${randomUUID().slice(0, 8)}@example.com`): Promise<Person> {
  const person = { username: `${prefix}_${randomUUID().slice(0, 8)}`, email, password: 'akwaaba-123' };
  const res = await call('POST', '/api/auth/register', undefined, person);
  expect(res.status).toBe(201);
  const auth = res.body as AuthResponse;
  return { id: auth.user.id, email, password: person.password, token: auth.token };
}

async function signIn(person: Person): Promise<string> {
  const res = await call('POST', '/api/auth/login', undefined, { email: person.email, password: person.password });
  expect(res.status).toBe(200);
  return res.body.token as string;
}

async function register(token: string, path: string, events: string[]): Promise<CreateWebhookEndpointResponse> {
  const res = await call('POST', '/api/developer/webhooks', token, { url: `${receiverUrl}${path}`, events });
  expect(res.status).toBe(201);
  return res.body as CreateWebhookEndpointResponse;
}

/** The messages received on `path` so far that verify with `secret`, parsed. */
function verifiedAt(path: string, secret: string): Array<{ message: WebhookMessage; raw: Received }> {
  return received
    .filter((r) => r.path === path)
    .map((raw) => ({ message: new Webhook(secret).verify(raw.body, raw.headers) as WebhookMessage, raw }));
}

const waitFor = <T>(probe: () => T | Promise<T>, what: string, timeoutMs = 30_000) =>
  eventually(probe, { timeoutMs, intervalMs: 50, what, context: () => platform.logs.slice(-30).join('\n') });

async function deliveryLog(token: string, endpointId: string): Promise<WebhookDelivery[]> {
  const res = await call('GET', `/api/developer/webhooks/${endpointId}/deliveries`, token);
  expect(res.status).toBe(200);
  return res.body.deliveries as WebhookDelivery[];
}

beforeAll(async () => {
  receiverServer = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const path = req.url ?? '';
      received.push({ path, headers: req.headers as Record<string, string>, body });
      res.writeHead(answers.get(path)?.shift() ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => receiverServer.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiverServer.address() as AddressInfo).port}`;
  platform = await startPlatform({
    KASA_OPERATOR_EMAILS: OPERATOR_EMAIL,
    VOICE_VIDEO_QUEUE,
    WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true',
    WEBHOOKS_RETRY_SCHEDULE: '200ms,200ms,200ms',
    WEBHOOKS_POLL_INTERVAL_MS: '200',
    PLAN_FREE_MONTHLY_CALLS: String(FREE_MONTHLY_CALLS),
  });
  operator = await signUp('operator', OPERATOR_EMAIL);
}, 180_000);

afterAll(async () => {
  await platform?.stop();
  await deleteQueues(process.env.AMQP_URL, [VOICE_VIDEO_QUEUE, `${VOICE_VIDEO_QUEUE}.dlq`]);
  receiverServer?.closeAllConnections();
  await new Promise((resolve) => receiverServer?.close(resolve));
});

describe('webhooks through the gateway', () => {
  it('sends plan.changed after an operator’s change, then a signed video.completed for a real video job', async () => {
    const ama = await signUp('ama');
    const { endpoint, secret } = await register(ama.token, '/ama', ['plan.changed', 'video.completed', 'video.failed']);
    expect(endpoint).toMatchObject({ enabled: true, description: '' });

    const changed = await call('POST', `/api/admin/people/${ama.id}/plan`, operator.token, {
      tier: 'enterprise',
      reason: 'Contract signed',
    });
    expect(changed.status).toBe(200);
    const [plan] = await waitFor(() => {
      const got = verifiedAt('/ama', secret).filter((m) => m.message.type === 'plan.changed');
      return got.length > 0 && got;
    }, 'plan.changed at the receiver');
    expect(plan!.message).toEqual({
      type: 'plan.changed',
      timestamp: expect.any(String),
      data: { from: 'free', to: 'enterprise' },
    });

    // A new sign-in carries the plan; the video is made by the real voice service.
    const token = await signIn(ama);
    const job = await call('POST', '/api/video/generations', token, {
      prompt: 'Akwaaba! Welcome to Kasa.',
      language: 'en',
    });
    expect(job.status).toBe(202);
    const [video] = await waitFor(
      () => {
        const got = verifiedAt('/ama', secret).filter((m) => m.message.type.startsWith('video.'));
        return got.length > 0 && got;
      },
      'video.completed at the receiver',
      120_000,
    );
    expect(video!.message).toEqual({
      type: 'video.completed',
      timestamp: expect.any(String),
      data: { jobId: job.body.id, status: 'succeeded' },
    });
    expect(video!.raw.headers['content-type']).toBe('application/json');
    expect(video!.raw.headers['webhook-signature']).toMatch(/^v1,/);
    // A body changed on the way does not verify, nor does a message signed for another id.
    const tampered = video!.raw.body.replace(job.body.id as string, 'someone-elses-job');
    expect(() => new Webhook(secret).verify(tampered, video!.raw.headers)).toThrow();
    expect(() =>
      new Webhook(secret).verify(video!.raw.body, { ...video!.raw.headers, 'webhook-id': 'another-id' }),
    ).toThrow();

    const log = await deliveryLog(token, endpoint.id);
    expect(log.map((d) => [d.eventType, d.status])).toEqual([
      ['video.completed', 'delivered'],
      ['plan.changed', 'delivered'],
    ]);
  }, 180_000);

  it('sends key.revoked for a key revoked through the API, and the quota’s 80 % once', async () => {
    const kofi = await signUp('kofi');
    const { secret } = await register(kofi.token, '/kofi', ['key.revoked', 'quota.threshold_reached']);

    const created = await call('POST', '/api/developer/keys', kofi.token, { name: 'Webhooks test' });
    expect(created.status).toBe(201);
    const key = (created.body as CreateApiKeyResponse).key;
    // The key may manage the webhooks too (scope analytics), and its calls count on kofi's quota.
    const viaKey = await call('GET', '/api/developer/webhooks', (created.body as CreateApiKeyResponse).secret);
    expect(viaKey.status).toBe(200);
    expect(viaKey.body.endpoints).toHaveLength(1);
    expect((await call('DELETE', `/api/developer/keys/${key.id}`, kofi.token)).status).toBeLessThan(300);
    const [revoked] = await waitFor(() => {
      const got = verifiedAt('/kofi', secret).filter((m) => m.message.type === 'key.revoked');
      return got.length > 0 && got;
    }, 'key.revoked at the receiver');
    expect(revoked!.message.data).toEqual({ keyId: key.id, prefix: key.maskedKey.slice(0, 8) });

    // Calls on a counted route: the 4th of 5 reaches 80 %, the 5th 100 %; none after that is let through.
    const statuses: number[] = [];
    for (let i = 0; i < FREE_MONTHLY_CALLS + 1; i += 1)
      statuses.push((await call('GET', '/api/personas', kofi.token)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const thresholds = await waitFor(() => {
      const got = verifiedAt('/kofi', secret).filter((m) => m.message.type === 'quota.threshold_reached');
      return got.length >= 2 && got;
    }, 'the quota thresholds at the receiver');
    const period = new Date().toISOString().slice(0, 7);
    // Two events, two deliveries: they may arrive in either order.
    const byThreshold = thresholds.map((t) => t.message.data as { threshold: number });
    expect(byThreshold.sort((a, b) => a.threshold - b.threshold)).toEqual([
      { threshold: 80, used: 4, limit: FREE_MONTHLY_CALLS, period },
      { threshold: 100, used: 5, limit: FREE_MONTHLY_CALLS, period },
    ]);
  }, 120_000);

  it('retries a receiver that answers 500 twice until it answers 200, and a replay repeats the webhook-id', async () => {
    const bea = await signUp('bea');
    answers.set('/flaky', [500, 500, 200]);
    const { endpoint, secret } = await register(bea.token, '/flaky', ['plan.changed']);
    const test = await call('POST', `/api/developer/webhooks/${endpoint.id}/test`, bea.token);
    expect(test.status).toBe(202);

    const [delivered] = await waitFor(async () => {
      const log = await deliveryLog(bea.token, endpoint.id);
      return log[0]?.status === 'delivered' && log;
    }, 'the test message delivered');
    expect(delivered).toMatchObject({
      id: test.body.delivery.id,
      eventType: 'webhook.test',
      attempts: 3,
      lastStatusCode: 200,
      lastError: null,
    });
    const attempts = verifiedAt('/flaky', secret);
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts.map((a) => a.raw.headers['webhook-id']))).toEqual(new Set([delivered!.eventId]));
    expect(attempts[0]!.message).toEqual({
      type: 'webhook.test',
      timestamp: expect.any(String),
      data: { endpointId: endpoint.id },
    });

    const replay = await call(
      'POST',
      `/api/developer/webhooks/${endpoint.id}/deliveries/${delivered!.id}/replay`,
      bea.token,
    );
    expect(replay.status).toBe(202);
    expect(replay.body.delivery).toMatchObject({ eventId: delivered!.eventId, replayOf: delivered!.id });
    await waitFor(() => verifiedAt('/flaky', secret).length === 4, 'the replay at the receiver');
    const replayed = verifiedAt('/flaky', secret)[3]!;
    expect(replayed.raw.headers['webhook-id']).toBe(delivered!.eventId);
    expect(replayed.raw.body).toBe(attempts[0]!.raw.body);
    const log = await waitFor(async () => {
      const got = await deliveryLog(bea.token, endpoint.id);
      return got[0]?.status === 'delivered' && got;
    }, 'the replay delivered');
    expect(log.map((d) => [d.replayOf, d.attempts])).toEqual([
      [delivered!.id, 1],
      [null, 3],
    ]);
  }, 120_000);

  it('answers 404 for another person’s endpoint, 403 over the plan’s limit and 401 without a credential', async () => {
    const [esi, yaw] = [await signUp('esi'), await signUp('yaw')];
    const { endpoint } = await register(esi.token, '/esi', ['key.revoked']);
    for (const [method, path] of [
      ['PATCH', `/api/developer/webhooks/${endpoint.id}`],
      ['DELETE', `/api/developer/webhooks/${endpoint.id}`],
      ['POST', `/api/developer/webhooks/${endpoint.id}/secret`],
      ['POST', `/api/developer/webhooks/${endpoint.id}/test`],
      ['GET', `/api/developer/webhooks/${endpoint.id}/deliveries`],
    ] as const) {
      const res = await call(method, path, yaw.token, method === 'PATCH' ? { enabled: false } : undefined);
      expect([method, path, res.status]).toEqual([method, path, 404]);
    }
    // Free allows one endpoint.
    const second = await call('POST', '/api/developer/webhooks', esi.token, {
      url: `${receiverUrl}/esi-2`,
      events: ['key.revoked'],
    });
    expect(second.status).toBe(403);
    expect(second.body).toMatchObject({ code: 'webhook_limit_reached', details: { limit: 1, plan: 'free' } });
    expect((await call('GET', '/api/developer/webhooks')).status).toBe(401);
    const list = await call('GET', '/api/developer/webhooks', esi.token);
    expect(list.body).toEqual({ endpoints: [endpoint], limit: 1 });
  });
});
