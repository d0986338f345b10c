import type { GeoLookupResponse } from '@kasa/contracts';
import type { Express } from 'express';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { FakeOpenAI, TestEnvironment, userHeaders } from './support';

type GeoMode = 'kumasi' | 'unknown' | 'fail' | 'hang';

const KUMASI: GeoLookupResponse = {
  ip: '41.66.199.1',
  found: true,
  country: 'GH',
  countryName: 'Ghana',
  region: 'AH',
  city: 'Kumasi',
  timezone: 'Africa/Accra',
  currency: 'GHS',
  suggestedLanguages: ['en'],
};
const LOCATION = 'The user appears to be in Kumasi, Ghana (timezone Africa/Accra, currency GHS).';
/**
 * The lookup's time limit here (the default is 300 ms): the first lookup opens a connection, and on a busy 2-core CI
 * machine that has taken longer than 300 ms, which would leave out a location the test expects.
 */
const GEO_TIMEOUT_MS = 1_500;

/** Stands in for the voice service's GET /api/geo (the chat service's edge); records the X-Forwarded-For it got. */
class FakeGeoService {
  mode: GeoMode = 'kumasi';
  readonly forwardedFor: (string | undefined)[] = [];
  private readonly server: Server = createServer((req, res) => {
    if (req.url !== '/api/geo') return void res.writeHead(404).end();
    this.forwardedFor.push(req.headers['x-forwarded-for'] as string | undefined);
    if (this.mode === 'hang') return;
    if (this.mode === 'fail') return void res.writeHead(500).end('{"message":"boom"}');
    const body =
      this.mode === 'kumasi'
        ? KUMASI
        : {
            ...KUMASI,
            found: false,
            country: null,
            countryName: null,
            region: null,
            city: null,
            timezone: null,
            currency: null,
            suggestedLanguages: [],
            message: 'unknown location',
          };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const env = new TestEnvironment('geo');
const geo = new FakeGeoService();
const provider = new FakeOpenAI();
let app: Express;

beforeAll(async () => {
  await env.start();
  const [geoUrl] = await Promise.all([geo.start(), provider.start()]);
  provider.mode = { kind: 'ok', text: 'Akwaaba.' };
  ({ app } = await env.app({
    CHAT_PROVIDERS: 'capture',
    CAPTURE_BASE_URL: provider.baseURL,
    CAPTURE_MODEL: 'fake-1',
    VOICE_SERVICE_URL: geoUrl,
    CHAT_GEO_TIMEOUT_MS: String(GEO_TIMEOUT_MS),
  }));
});
afterAll(async () => {
  await Promise.all([geo.stop(), provider.stop()]);
  await env.stop();
});
beforeEach(() => {
  geo.mode = 'kumasi';
  geo.forwardedFor.length = 0;
});

/** Sends one message in a new session with `personaId`, as the gateway would forward it; answers the system prompt. */
async function promptFor(
  personaId: string,
  tier: 'free' | 'pro' = 'pro',
): Promise<{ system: string; status: number; ms: number }> {
  const headers = userHeaders(tier);
  const session = await request(app).post('/api/chat/sessions').set(headers).send({ personaId, title: 'Trip' });
  expect(session.status).toBe(201);
  const before = provider.requests.length;
  const started = Date.now();
  const res = await request(app)
    .post(`/api/chat/sessions/${session.body.id}/messages`)
    .set({ ...headers, 'x-forwarded-for': '41.66.199.1, 10.0.0.7' })
    .send({ role: 'user', type: 'text', content: 'What should I see this weekend?', language: 'en' });
  const ms = Date.now() - started;
  expect(provider.requests.length).toBe(before + 1);
  return { system: provider.requests[before]!.body.messages[0]!.content as string, status: res.status, ms };
}

describe("the caller's location in the system prompt", () => {
  it.each(['nana', 'merla'])('is given to %s, from the X-Forwarded-For the gateway sent', async (personaId) => {
    const { system, status } = await promptFor(personaId);
    expect(status).toBe(201);
    expect(system).toContain(LOCATION);
    expect(system).toMatch(/language is English \(en\)/);
    expect(geo.forwardedFor).toEqual(['41.66.199.1, 10.0.0.7']);
  });

  it('is part of the Pro plan: a Free user’s prompt has none, and the voice service is not asked', async () => {
    const { system, status } = await promptFor('nana', 'free');
    expect(status).toBe(201);
    expect(system).not.toMatch(/appears to be/);
    expect(geo.forwardedFor).toEqual([]);
  });

  it('is not stored with the messages', async () => {
    await promptFor('nana');
    const stored = await env.db.collection('messages').countDocuments({ content: { $regex: 'appears to be' } });
    expect(stored).toBe(0);
  });

  it.each(['kasa', 'dokta'])('is not given to %s, and the voice service is not asked', async (personaId) => {
    const { system, status } = await promptFor(personaId);
    expect(status).toBe(201);
    expect(system).not.toMatch(/appears to be/);
    expect(geo.forwardedFor).toEqual([]);
  });

  it.each<GeoMode>(['unknown', 'fail'])(
    'is left out when the lookup answers %s, and the reply arrives',
    async (mode) => {
      geo.mode = mode;
      const { system, status } = await promptFor('nana');
      expect(status).toBe(201);
      expect(geo.forwardedFor).toHaveLength(1);
      expect(system).toMatch(/^You are Nana/);
      expect(system).not.toMatch(/appears to be/);
    },
  );

  it('is left out after its time limit when the voice service hangs, and the reply arrives', async () => {
    geo.mode = 'hang';
    const { system, status, ms } = await promptFor('nana');
    expect(status).toBe(201);
    expect(system).not.toMatch(/appears to be/);
    expect(ms).toBeGreaterThanOrEqual(GEO_TIMEOUT_MS - 10);
    expect(ms).toBeLessThan(GEO_TIMEOUT_MS + 3_000);
  });
});
