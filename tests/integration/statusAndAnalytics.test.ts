import type {
  AnalyticsResponse,
  AnalyticsSessionsResponse,
  AuthResponse,
  CreateApiKeyResponse,
  ServicesStatusResponse,
  UsageResponse,
} from '@kasa/contracts';
import { randomUUID } from 'node:crypto';
import { startPlatform, type RunningPlatform } from '../support/platform';

// Heartbeats every 500 ms (a service is down after three missed ones) and request batches every 200 ms.
const HEARTBEAT_INTERVAL_MS = 500;

let platform: RunningPlatform;

beforeAll(async () => {
  platform = await startPlatform({
    HEARTBEAT_INTERVAL_MS: String(HEARTBEAT_INTERVAL_MS),
    REQUEST_EVENTS_FLUSH_MS: '200',
  });
}, 120_000);

afterAll(async () => {
  await platform?.stop();
});

/** One call the test made through the gateway, as the status service should have recorded it. */
interface Call {
  method: string;
  /** The gateway's API endpoint name (gateway.config.yml). */
  route: string;
  status: number;
  keyId: string | null;
}

/** A person using Kasa in this test: every call they make is written down. */
class Caller {
  readonly calls: Call[] = [];
  constructor(
    readonly token: string,
    readonly userId: string,
  ) {}

  /** Sends with the access token, or with `key` (an API key) when given; records the call. */
  async send(
    method: string,
    path: string,
    route: string,
    options: { body?: unknown; key?: { secret: string; id: string } } = {},
  ): Promise<{ status: number; body: any; text: string }> {
    const res = await fetch(`${platform.baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${options.key?.secret ?? this.token}`,
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await res.text();
    this.calls.push({ method, route, status: res.status, keyId: options.key?.id ?? null });
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: res.status, body, text };
  }
}

async function signUp(): Promise<Caller> {
  const id = randomUUID().slice(0, 8);
  const res = await fetch(`${platform.baseUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: `stats_${id}`, email: `stats.${id}@example.com`, password: 'medaase-42' }),
  });
  expect(res.status).toBe(201);
  const auth = (await res.json()) as AuthResponse;
  return new Caller(auth.token, auth.user.id);
}

async function createKey(caller: Caller): Promise<{ secret: string; id: string }> {
  const res = await fetch(`${platform.baseUrl}/api/developer/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${caller.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Analytics test', scopes: ['chat', 'voice', 'analytics'] }),
  });
  expect(res.status).toBe(201);
  caller.calls.push({ method: 'POST', route: 'auth', status: 201, keyId: null });
  const created = (await res.json()) as CreateApiKeyResponse;
  return { secret: created.secret, id: created.key.id };
}

async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline)
      throw new Error(`${what}: not within ${timeoutMs} ms\n${platform.logs.slice(-20).join('\n')}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

function tally<K extends string | number | null>(calls: Call[], keyOf: (call: Call) => K): Map<K, number> {
  const counts = new Map<K, number>();
  for (const call of calls) counts.set(keyOf(call), (counts.get(keyOf(call)) ?? 0) + 1);
  return counts;
}

const byName = <T extends Record<string, unknown>>(rows: T[], key: keyof T) =>
  [...rows].sort((a, b) => String(a[key]).localeCompare(String(b[key])));

/** Whether the list has the most calls first. */
const mostFirst = (rows: Array<{ calls: number }>) =>
  rows.every((row, i) => i === 0 || rows[i - 1]!.calls >= row.calls);

const AREAS: Record<string, string> = {
  auth: 'auth',
  chat: 'chat',
  voiceSynthesize: 'voice',
  voice: 'voice',
  status: 'analytics',
};
const QUOTA_ROUTES = new Set(['chat', 'voice', 'voiceSynthesize']);

async function servicesStatus(caller: Caller) {
  const res = await caller.send('GET', '/api/developer/services/status', 'status');
  expect(res.status).toBe(200);
  return (res.body as ServicesStatusResponse).data;
}

const stateOf = (data: ServicesStatusResponse['data'], name: string) =>
  data.services.find((s) => s.name === name)?.status;

describe('the service status page', () => {
  it('lists every service operational, shows voice down when it stops and operational again when it returns', async () => {
    const watcher = await signUp();
    const services = ['gateway', 'auth', 'chat', 'voice', 'status'];
    const healthy = await eventually(
      async () => {
        const data = await servicesStatus(watcher);
        // Operational and heard from (a heartbeat stored): a service that just started may only have been probed.
        const heard = (name: string) => data.services.find((s) => s.name === name)?.lastResponse;
        return services.every((name) => stateOf(data, name) === 'operational' && heard(name)) ? data : undefined;
      },
      20_000,
      'every service operational',
    );
    expect(healthy.overall.status).toBe('operational');
    for (const name of services) {
      expect(healthy.services.find((s) => s.name === name)).toMatchObject({
        name,
        provider: 'kasa',
        uptime: expect.any(Number),
        lastResponse: expect.any(String),
      });
    }
    // The AI provider chain (from chat's heartbeat) and the voice service's parts have lines of their own.
    expect(healthy.services.some((s) => s.name.startsWith('ai:'))).toBe(true);
    expect(healthy.services.find((s) => s.name === 'translation')).toBeDefined();

    await platform.kill('voice');
    const stoppedAt = Date.now();
    const down = await eventually(
      async () => {
        const data = await servicesStatus(watcher);
        return stateOf(data, 'voice') === 'down' ? data : undefined;
      },
      15_000,
      'voice down',
    );
    // Three missed heartbeats (1.5 s) plus the probe that finds nothing listening.
    expect(Date.now() - stoppedAt).toBeLessThan(10_000);
    expect(down.overall.status).toBe('down');
    expect(stateOf(down, 'chat')).toBe('operational');
    expect(stateOf(down, 'translation')).toBe('unknown');

    await platform.restart('voice');
    const back = await eventually(
      async () => {
        const data = await servicesStatus(watcher);
        return stateOf(data, 'voice') === 'operational' ? data : undefined;
      },
      15_000,
      'voice operational again',
    );
    expect(back.overall.status).toBe('operational');
    // Voice missed heartbeats while it was away: its uptime shows it.
    expect(back.services.find((s) => s.name === 'voice')!.uptime).toBeLessThan(100);
  }, 90_000);
});

describe('the analytics of a developer', () => {
  let ama: Caller;
  let kofi: Caller;
  let amaKey: { secret: string; id: string };
  let kofiKey: { secret: string; id: string };

  beforeAll(async () => {
    [ama, kofi] = await Promise.all([signUp(), signUp()]);
    [amaKey, kofiKey] = await Promise.all([createKey(ama), createKey(kofi)]);

    // Ama, with her API key: a tutoring session in two languages, a bad session id, and speech.
    expect((await ama.send('GET', '/api/personas', 'chat', { key: amaKey })).status).toBe(200);
    const lesson = await ama.send('POST', '/api/chat/sessions', 'chat', {
      key: amaKey,
      body: { personaId: 'ticha', title: 'Twi lesson' },
    });
    expect(lesson.status).toBe(201);
    for (const [content, language] of [
      ['How do I greet an elder politely in the morning?', 'en'],
      // On Free only English can be chosen; auto detects French (and Kasa answers in it).
      ['Comment dit-on merci beaucoup en twi ?', 'auto'],
    ]) {
      const sent = await ama.send('POST', `/api/chat/sessions/${lesson.body.id}/messages`, 'chat', {
        key: amaKey,
        body: { role: 'user', content, language },
      });
      expect(sent.status).toBeLessThan(300);
    }
    expect(
      (await ama.send('GET', '/api/chat/sessions/not-a-session', 'chat', { key: amaKey })).status,
    ).toBeGreaterThanOrEqual(400);
    await ama.send('POST', '/api/voice/synthesize', 'voiceSynthesize', {
      key: amaKey,
      body: { text: 'Akwaaba', language: 'en' },
    });
    // Ama, signed in: a travel chat.
    const trip = await ama.send('POST', '/api/chat/sessions', 'chat', {
      body: { personaId: 'kasa', title: 'Trip to Accra' },
    });
    expect(trip.status).toBe(201);
    const asked = await ama.send('POST', `/api/chat/sessions/${trip.body.id}/messages`, 'chat', {
      body: { role: 'user', content: 'What should I pack for a week in Accra in August?', language: 'en' },
    });
    expect(asked.status).toBeLessThan(300);
    expect((await ama.send('GET', '/api/personas', 'chat')).status).toBe(200);

    // Kofi uses Kasa at the same time.
    const budget = await kofi.send('POST', '/api/chat/sessions', 'chat', {
      key: kofiKey,
      body: { personaId: 'merla', title: 'Budget' },
    });
    expect(budget.status).toBe(201);
    await kofi.send('POST', `/api/chat/sessions/${budget.body.id}/messages`, 'chat', {
      key: kofiKey,
      body: { role: 'user', content: 'How much should I save each month?', language: 'en' },
    });
  }, 60_000);

  /**
   * Asks for the caller's usage until every call made before the request is counted (each request is recorded once
   * answered, so it never counts itself); returns that answer and the calls it covers.
   */
  async function settledUsage(caller: Caller, query = '') {
    return eventually(
      async () => {
        const before = [...caller.calls];
        const res = await caller.send('GET', `/api/analytics/usage${query}`, 'status');
        expect(res.status).toBe(200);
        const data = (res.body as UsageResponse).data;
        const covered = query.includes('keyId') ? before.filter((c) => query.includes(c.keyId ?? '\0')) : before;
        return data.totalCalls === covered.length ? { data, covered } : undefined;
      },
      20_000,
      'usage counts every call',
    );
  }

  it('counts exactly the calls the caller made, per day, endpoint, status and key', async () => {
    const { data, covered } = await settledUsage(ama);
    const expectedEndpoints = [...tally(covered, (c) => `${c.method} ${c.route}`)].map(([endpoint, calls]) => ({
      endpoint,
      calls,
    }));
    expect(byName(data.byEndpoint, 'endpoint')).toEqual(byName(expectedEndpoints, 'endpoint'));
    expect(mostFirst(data.byEndpoint)).toBe(true);
    const expectedStatuses = [...tally(covered, (c) => c.status)].map(([status, calls]) => ({ status, calls }));
    expect(byName(data.byStatus, 'status')).toEqual(byName(expectedStatuses, 'status'));
    const expectedKeys = [...tally(covered, (c) => c.keyId)].map(([keyId, calls]) => ({ keyId, calls }));
    expect(byName(data.byKey, 'keyId')).toEqual(byName(expectedKeys, 'keyId'));
    expect(data.byKey.map((k) => k.keyId)).not.toContain(kofiKey.id);

    expect(data.days).toHaveLength(30);
    const today = new Date().toISOString().slice(0, 10);
    expect(data.days.at(-1)).toEqual({
      date: today,
      calls: covered.length,
      errors: covered.filter((c) => c.status >= 500).length,
    });
    expect(data.days.slice(0, -1).every((d) => d.calls === 0 && d.errors === 0)).toBe(true);
    expect(data.days[0]!.date < today).toBe(true);
  });

  it('narrows the figures to one of the caller’s keys', async () => {
    const { data, covered } = await settledUsage(ama, `?days=7&keyId=${amaKey.id}`);
    expect(covered.length).toBe(ama.calls.filter((c) => c.keyId === amaKey.id).length);
    expect(data.days).toHaveLength(7);
    expect(data.byKey).toEqual([{ keyId: amaKey.id, calls: covered.length }]);
  });

  it('answers 404 for a key that is not the caller’s, and for a key that does not exist', async () => {
    for (const keyId of [amaKey.id, 'no-such-key']) {
      const res = await kofi.send('GET', `/api/analytics/usage?keyId=${keyId}`, 'status');
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'not_found', message: expect.any(String), requestId: expect.any(String) });
      expect(res.text).not.toContain(ama.userId);
    }
  });

  it.each(['0', '91', 'abc', '2.5', ''])('answers 400 to days=%s', async (days) => {
    const res = await ama.send('GET', `/api/analytics/usage?days=${days}`, 'status');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'validation_failed',
      message: expect.stringContaining('days'),
      requestId: expect.any(String),
    });
  });

  it('sums up the caller’s last 30 days: calls by area, quota, personas, languages, sessions and messages', async () => {
    const { data, covered } = await eventually(
      async () => {
        const before = [...ama.calls];
        const res = await ama.send('GET', '/api/developer/analytics', 'status');
        expect(res.status).toBe(200);
        const body = (res.body as AnalyticsResponse).data;
        return body.usage.totalCalls === before.length && body.messages === 6
          ? { data: body, covered: before }
          : undefined;
      },
      20_000,
      'analytics complete',
    );
    const perArea = tally(covered, (c) => AREAS[c.route] ?? 'other');
    const expectedBreakdown = Object.fromEntries(
      [...perArea].map(([area, calls]) => [area, Math.round((calls / covered.length) * 1000) / 10]),
    );
    expect(data.usage.breakdown).toEqual(expectedBreakdown);
    const month = new Date().toISOString().slice(0, 7);
    expect(data.usage.quota).toEqual({
      period: month,
      used: covered.filter((c) => QUOTA_ROUTES.has(c.route) && c.status !== 429).length,
      limit: 1000,
    });
    expect(data.personaUsage).toEqual({ ticha: 1, kasa: 1 });
    expect(data.languageUsage).toEqual({ en: 2, fr: 1 });
    expect(data.sessions).toBe(2);
    // Three messages and the three replies.
    expect(data.messages).toBe(6);
    const errors = covered.filter((c) => c.status >= 500).length;
    expect(data.performance.errorRate).toBe(Math.round((errors / covered.length) * 10_000) / 100);
    expect(data.performance.averageResponseTime).toBeGreaterThan(0);
  });

  it('lists the caller’s sessions newest first with their message counts, and only theirs', async () => {
    const res = await ama.send('GET', '/api/analytics/sessions', 'status');
    expect(res.status).toBe(200);
    const sessions = (res.body as AnalyticsSessionsResponse).data;
    expect(sessions.map((s) => [s.title, s.personaId, s.messageCount])).toEqual([
      ['Trip to Accra', 'kasa', 2],
      ['Twi lesson', 'ticha', 4],
    ]);
    expect(sessions[0]!.lastMessageAt).toEqual(expect.any(String));
    expect((await ama.send('GET', '/api/analytics/sessions?limit=0', 'status')).status).toBe(400);
  });

  it('never shows one developer’s figures to another', async () => {
    const res = await kofi.send('GET', '/api/developer/analytics', 'status');
    expect(res.status).toBe(200);
    const data = (res.body as AnalyticsResponse).data;
    expect(data.personaUsage).toEqual({ merla: 1 });
    expect(data.languageUsage.fr).toBeUndefined();
    expect(data.usage.totalCalls).toBeLessThanOrEqual(kofi.calls.length);
    const sessions = await kofi.send('GET', '/api/analytics/sessions', 'status');
    expect((sessions.body as AnalyticsSessionsResponse).data.map((s) => s.title)).toEqual(['Budget']);
  });
});
