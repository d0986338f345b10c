import { request as httpRequest } from 'node:http';
import { call, startHarness, type Harness } from './harness';

let h: Harness;
let token: string;

beforeAll(async () => {
  h = await startHarness({ WEB_ORIGIN: 'http://localhost:8080,http://localhost:3001' });
  token = h.keys.token();
});
afterAll(async () => {
  await h?.stop();
});

const auth = () => ({ authorization: `Bearer ${token}` });

describe('routing', () => {
  const routes: Array<[string, string, 'auth' | 'chat' | 'voice' | 'status', boolean]> = [
    // method, path (with query), service, needs a token
    ['POST', '/api/auth/login?next=%2Fchat', 'auth', false],
    ['POST', '/api/auth/register', 'auth', false],
    ['GET', '/api/auth/logout', 'auth', false],
    ['GET', '/api/auth/me?fields=a,b', 'auth', true],
    ['GET', '/api/billing/plans', 'auth', false],
    ['POST', '/api/billing/checkout', 'auth', true],
    ['GET', '/api/billing/checkout/KASA-0000000000', 'auth', true],
    ['POST', '/api/billing/webhooks/stripe', 'auth', false],
    ['POST', '/api/billing/webhooks/paystack', 'auth', false],
    ['POST', '/api/newsletter', 'auth', false],
    ['POST', '/api/contact', 'auth', false],
    ['GET', '/api/developer/keys', 'auth', true],
    ['DELETE', '/api/developer/keys/k1', 'auth', true],
    ['GET', '/api/personas', 'chat', true],
    ['POST', '/api/chat/sessions/s1/messages?stream=1', 'chat', true],
    ['POST', '/v1/chat/completions', 'chat', true],
    ['GET', '/v1/models', 'chat', true],
    ['POST', '/api/voice/synthesize', 'voice', false], // anonymous callers may have the public samples read
    ['GET', '/api/languages', 'voice', false],
    ['GET', '/api/languages/yo?x=%C3%A9', 'voice', false],
    ['POST', '/api/translate', 'voice', true],
    ['POST', '/api/voice/transcribe?language=en', 'voice', true],
    ['GET', '/api/video/jobs/j1', 'voice', true],
    ['GET', '/api/geo', 'voice', false],
    ['GET', '/api/developer/services/status', 'status', true],
    ['GET', '/api/developer/analytics?from=2026-01-01&to=2026-02-01', 'status', true],
    ['GET', '/api/analytics/sessions', 'status', true],
    ['GET', '/api/status', 'status', false],
  ];

  it.each(routes)(
    'sends %s %s to the %s service with path and query intact',
    async (method, path, service, needsToken) => {
      const seenOf = () => h.services[service].seen.filter((seen) => seen.url === path).length;
      const before = seenOf();
      const res = await call(h.url + path, {
        method,
        headers: { ...(needsToken ? auth() : {}), 'content-type': 'application/json' },
        body: method === 'POST' ? '{"hello":"kasa"}' : undefined,
      });
      expect(res.status).toBe(200);
      expect(res.json()).toMatchObject({ service, method, url: path });
      expect(seenOf()).toBe(before + 1);
      if (method === 'POST') expect(h.services[service].last().body).toBe('{"hello":"kasa"}');
    },
  );

  it.each(routes.filter(([, , , needsToken]) => needsToken))(
    'answers 401 on %s %s without a token',
    async (method, path) => {
      const res = await call(h.url + path, { method });
      expect(res.status).toBe(401);
      expect(res.json()).toMatchObject({ code: 'unauthenticated' });
    },
  );

  it.each([
    ['GET', '/api/nothing-here'],
    ['GET', '/api'],
    ['POST', '/api/chat'],
    ['GET', '/api/developer/other'],
    ['GET', '/v1'],
    ['DELETE', '/api/openapi.json'],
  ])('answers %s %s with a JSON 404 in the shared error shape', async (method, path) => {
    const res = await call(h.url + path, { method, headers: { accept: 'text/html' } });
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = res.json();
    const shared = {
      message: expect.stringContaining('No route'),
      code: 'not_found',
      requestId: res.headers['x-request-id'],
    };
    // The OpenAI-compatible API's paths carry OpenAI's error object as well, which its client libraries read.
    expect(body).toEqual(
      path.startsWith('/v1')
        ? {
            ...shared,
            error: { message: shared.message, type: 'not_found_error', code: 'not_found', param: null },
          }
        : shared,
    );
  });

  it('passes a payment processor’s webhook to auth byte for byte, with its signature, without a token', async () => {
    // Bytes that parsing and serializing JSON again would change: the signature covers exactly these.
    const body = Buffer.from('{ "id": "evt_1",\n  "amount": 1.50, "name": "Akwaaba \\u00e9 ✓" }\n', 'utf8');
    for (const [path, header] of [
      ['/api/billing/webhooks/stripe', 'stripe-signature'],
      ['/api/billing/webhooks/paystack', 'x-paystack-signature'],
    ] as const) {
      const res = await call(h.url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [header]: 't=1,v1=abc' },
        body,
      });
      expect(res.status).toBe(200);
      const seen = h.services.auth.last();
      expect(seen.url).toBe(path);
      expect(Buffer.from(seen.body, 'utf8').equals(body)).toBe(true);
      expect(seen.headers[header]).toBe('t=1,v1=abc');
      expect(seen.headers['x-kasa-user-id']).toBeUndefined();
    }
    // Only POST is public there: anything else is an ordinary billing route, which needs a token.
    expect((await call(`${h.url}/api/billing/webhooks/stripe`)).status).toBe(401);
  });

  it("passes the auth service's JWKS document through, publicly", async () => {
    const res = await call(`${h.url}/.well-known/jwks.json`);
    expect(res.status).toBe(200);
    expect(res.json()).toEqual(h.keys.jwks);
  });

  it('answers a URL Express cannot decode with a JSON 400, not an HTML stack trace', async () => {
    for (const path of ['/%E0%A4%A', '/api/status/%E0%A4%A']) {
      const res = await call(h.url + path);
      expect(res.status).toBe(400);
      expect(res.json()).toEqual({
        message: expect.any(String),
        code: 'bad_request',
        requestId: res.headers['x-request-id'],
      });
    }
  });

  it('serves the OpenAPI document built from the contracts', async () => {
    const res = await call(`${h.url}/api/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const doc = res.json<{ openapi: string; paths: Record<string, unknown> }>();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/auth/login', '/api/chat/sessions']));
  });
});

describe('request ids', () => {
  it('makes a request id, sends it upstream and returns it', async () => {
    const res = await call(`${h.url}/api/status`);
    const id = res.headers['x-request-id'];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(h.services.status.last().headers['x-request-id']).toBe(id);
  });

  it('keeps a safe incoming request id', async () => {
    const res = await call(`${h.url}/api/status`, { headers: { 'x-request-id': 'client-trace.42' } });
    expect(res.headers['x-request-id']).toBe('client-trace.42');
    expect(h.services.status.last().headers['x-request-id']).toBe('client-trace.42');
  });

  it('replaces an unsafe incoming request id', async () => {
    const res = await call(`${h.url}/api/status`, { headers: { 'x-request-id': 'bad id <script>' } });
    expect(res.headers['x-request-id']).not.toBe('bad id <script>');
    expect(h.services.status.last().headers['x-request-id']).toBe(res.headers['x-request-id']);
  });

  it('puts the request id in error bodies', async () => {
    const res = await call(`${h.url}/api/chat/sessions`, { headers: { 'x-request-id': 'trace-401' } });
    expect(res.json()).toMatchObject({ requestId: 'trace-401' });
  });
});

describe('headers sent upstream', () => {
  it('adds X-Forwarded-* and drops hop-by-hop headers', async () => {
    // node:http, because undici will not send a Connection header that lists other headers.
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(`${h.url}/api/status`, {
        headers: {
          'x-forwarded-for': '203.0.113.7',
          'x-forwarded-proto': 'https',
          connection: 'keep-alive, x-hop',
          'x-hop': '1',
          'x-keep': 'yes',
        },
      });
      req
        .on('response', (res) => res.resume().on('end', resolve))
        .on('error', reject)
        .end();
    });
    const seen = h.services.status.last().headers;
    expect(seen['x-forwarded-for']).toBe('203.0.113.7, 127.0.0.1');
    expect(seen['x-forwarded-proto']).toBe('http');
    expect(seen['x-forwarded-host']).toBe(`127.0.0.1:${h.gateway.port}`);
    expect(seen.host).toBe(`127.0.0.1:${h.services.status.port}`);
    expect(seen['x-hop']).toBeUndefined();
    expect(seen['x-keep']).toBe('yes');
  });

  it('strips client-sent x-kasa-* identity headers on public routes', async () => {
    await call(`${h.url}/api/languages`, {
      headers: { 'x-kasa-user-id': 'admin', 'X-Kasa-Tier': 'enterprise', 'x-kasa-anything': '1' },
    });
    const seen = h.services.voice.last().headers;
    expect(Object.keys(seen).filter((name) => name.startsWith('x-kasa-'))).toEqual([]);
  });

  it('passes the upstream status, headers and body back', async () => {
    h.services.status.route('/api/status', (_req, res) => {
      res.writeHead(418, { 'content-type': 'text/plain', 'x-upstream': 'yes', 'set-cookie': ['a=1', 'b=2'] });
      res.end('short and stout');
    });
    const res = await call(`${h.url}/api/status`);
    h.services.status.routes.delete('/api/status');
    expect(res.status).toBe(418);
    expect(res.text).toBe('short and stout');
    expect(res.headers['x-upstream']).toBe('yes');
    expect(res.headers['set-cookie']).toEqual(['a=1', 'b=2']);
  });
});

describe('CORS', () => {
  it('answers a preflight from the web origin without asking the service or a token', async () => {
    const before = h.services.chat.seen.length;
    const res = await call(`${h.url}/api/chat/sessions`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:3001',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:3001');
    expect(res.headers['access-control-allow-methods']).toContain('POST');
    expect(res.headers['access-control-allow-headers']).toBe('authorization, content-type');
    expect(h.services.chat.seen.length).toBe(before);
  });

  it('allows the web origin on real requests and exposes the request id', async () => {
    const res = await call(`${h.url}/api/status`, { headers: { origin: 'http://localhost:8080' } });
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:8080');
    expect(String(res.headers['access-control-expose-headers'])).toContain('X-Request-Id');
    expect(String(res.headers['access-control-expose-headers'])).toContain('X-Kasa-Audio-Url');
  });

  it('does not allow other origins', async () => {
    const res = await call(`${h.url}/api/chat/sessions`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('admin port', () => {
  it('serves health, readiness and metrics by pipeline and status', async () => {
    await call(`${h.url}/api/status`);
    expect((await call(`${h.adminUrl}/healthz`)).json()).toEqual({ status: 'ok' });
    const ready = await call(`${h.adminUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'ready', checks: { jwks: true } });
    const metrics = await call(`${h.adminUrl}/metrics`);
    expect(metrics.text).toMatch(
      /http_requests_total\{method="GET",route="statusPublic",status="200",service="gateway"\} \d+/,
    );
    expect(metrics.text).toContain('http_request_duration_seconds_bucket');
  });

  it('does not serve metrics on the public port', async () => {
    const res = await call(`${h.url}/metrics`);
    expect(res.text).not.toContain('http_requests_total');
  });
});
