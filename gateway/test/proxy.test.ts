import { eventually } from '@kasa/test-kit';
import { performance } from 'node:perf_hooks';
import { request as undiciRequest } from 'undici';
import { call, closedPort, startHarness, type Harness } from './harness';

const ONE_MB = 1024 * 1024;
let h: Harness;
let token: string;
const auth = () => ({ authorization: `Bearer ${token}` });

/** When the fake chat service wrote each part of a stream, and when it saw the gateway's request close. */
const marks: Record<string, number> = {};

beforeAll(async () => {
  h = await startHarness({
    VOICE_SERVICE_URL: `http://127.0.0.1:${await closedPort()}`,
    UPSTREAM_TIMEOUT_MS: '500',
  });
  token = h.keys.token();
  h.services.chat
    .rawRoute('/api/chat/stream', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write('data: {"token":"Hello"}\n\n');
      marks.firstWritten = performance.now();
      setTimeout(() => {
        marks.secondWritten = performance.now();
        res.write('data: {"token":" world"}\n\n');
        res.end('data: [DONE]\n\n');
      }, 300);
    })
    .rawRoute('/api/chat/endless', (req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"token":"Once"}\n\n');
      const timer = setInterval(() => res.write(': still thinking\n\n'), 100);
      res.on('close', () => {
        clearInterval(timer);
        marks.endlessClosed = performance.now();
      });
      req.resume();
    })
    .rawRoute('/api/chat/dies-between-events', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: token\ndata: {"text":"Hel"}\n\n');
      setTimeout(() => res.destroy(), 50);
    })
    .rawRoute('/api/chat/dies-mid-event', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: token\ndata: {"te');
      setTimeout(() => res.destroy(), 50);
    })
    .rawRoute('/api/chat/silent', () => {
      // never answers
    });
});
afterAll(async () => {
  await h?.stop();
});

describe('upstream failures', () => {
  it('answers 503 in the shared shape within a second when the service has no listener', async () => {
    const started = performance.now();
    const res = await call(`${h.url}/api/languages`);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(res.status).toBe(503);
    expect(res.json()).toEqual({
      message: 'Voice service is unavailable. Please try again shortly.',
      code: 'upstream_unavailable',
      requestId: res.headers['x-request-id'],
    });
  });

  it('answers 503 for a request with a body too, and keeps serving', async () => {
    const res = await call(`${h.url}/api/translate`, {
      method: 'POST',
      headers: auth(),
      body: JSON.stringify({ text: 'akwaaba' }),
    });
    expect(res.status).toBe(503);
    expect((await call(`${h.url}/api/status`)).status).toBe(200);
  });

  it('answers 503 once a service that was up goes away', async () => {
    expect((await call(`${h.url}/api/status`)).status).toBe(200);
    await h.services.status.stop();
    const res = await call(`${h.url}/api/status`);
    expect(res.status).toBe(503);
    expect(res.json()).toMatchObject({
      code: 'upstream_unavailable',
      message: expect.stringMatching(/^Status service is unavailable/),
    });
    await h.services.status.start(h.services.status.port);
    expect((await call(`${h.url}/api/status`)).status).toBe(200);
  });

  it('answers 504 when the service does not answer within UPSTREAM_TIMEOUT_MS', async () => {
    const started = performance.now();
    const res = await call(`${h.url}/api/chat/silent`, { headers: auth() });
    const elapsed = performance.now() - started;
    expect(res.status).toBe(504);
    expect(res.json()).toMatchObject({ code: 'upstream_timeout', message: expect.stringContaining('Chat service') });
    expect(elapsed).toBeGreaterThanOrEqual(450);
    expect(elapsed).toBeLessThan(2_000);
  });
});

describe('request bodies', () => {
  // Each route's limit is the one its service applies (BODY_LIMITS in @kasa/contracts): the chat routes 64 KB, the
  // OpenAI-compatible /v1 routes 1 MB.
  const COMPLETIONS = '/v1/chat/completions';

  it('refuses a body over the route’s limit by Content-Length with 413 before contacting the service', async () => {
    const before = h.services.chat.seen.length;
    const res = await call(`${h.url}${COMPLETIONS}`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: Buffer.alloc(ONE_MB + 1, 'a'),
    });
    expect(res.status).toBe(413);
    expect(res.json()).toMatchObject({
      code: 'payload_too_large',
      message: 'The request body is too large: the limit is 1 MB.',
      requestId: res.headers['x-request-id'],
      // /v1: OpenAI's error object too, which OpenAI's client libraries read.
      error: {
        message: 'The request body is too large: the limit is 1 MB.',
        type: 'invalid_request_error',
        code: 'payload_too_large',
      },
    });
    expect(h.services.chat.seen.length).toBe(before);
  });

  it('gives the chat routes the chat service’s 64 KB', async () => {
    const before = h.services.chat.seen.length;
    const res = await call(`${h.url}/api/chat/sessions`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: Buffer.alloc(64 * 1024 + 1, 'a'),
    });
    expect(res.status).toBe(413);
    expect(res.json()).toEqual({
      code: 'payload_too_large',
      message: 'The request body is too large: the limit is 64 KB.',
      requestId: res.headers['x-request-id'],
    });
    expect(h.services.chat.seen.length).toBe(before);
    const fits = await call(`${h.url}/api/chat/sessions`, {
      method: 'POST',
      headers: auth(),
      body: 'x'.repeat(64 * 1024),
    });
    expect(fits.status).toBe(200);
  });

  async function* chunks(total: number, size = 64 * 1024): AsyncGenerator<Buffer> {
    for (let sent = 0; sent < total; sent += size) yield Buffer.alloc(Math.min(size, total - sent), 'b');
  }

  it('refuses a streamed (chunked) body once it passes the limit', async () => {
    const res = await call(`${h.url}${COMPLETIONS}`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/octet-stream' },
      body: chunks(ONE_MB + 64 * 1024),
    });
    expect(res.status).toBe(413);
    expect(res.json()).toMatchObject({ code: 'payload_too_large', error: { code: 'payload_too_large' } });
    const chat = await call(`${h.url}/api/chat/sessions`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/octet-stream' },
      body: chunks(128 * 1024, 16 * 1024),
    });
    expect(chat.status).toBe(413);
    expect(chat.json()).toMatchObject({ message: 'The request body is too large: the limit is 64 KB.' });
  });

  it('streams a chunked body under the limit through intact', async () => {
    const res = await call(`${h.url}${COMPLETIONS}`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/octet-stream' },
      body: chunks(ONE_MB - 10),
    });
    expect(res.status).toBe(200);
    expect(h.services.chat.last().body.length).toBe(ONE_MB - 10);
  });

  it('accepts a body of exactly the limit', async () => {
    const res = await call(`${h.url}${COMPLETIONS}`, {
      method: 'POST',
      headers: auth(),
      body: Buffer.alloc(ONE_MB, 'c'),
    });
    expect(res.status).toBe(200);
    expect(h.services.chat.last().body.length).toBe(ONE_MB);
  });
});

describe('streaming responses', () => {
  it('passes Server-Sent Events through unbuffered, event by event', async () => {
    const res = await undiciRequest(`${h.url}/api/chat/stream`, {
      headers: { ...auth(), accept: 'text/event-stream' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['x-accel-buffering']).toBe('no');
    expect(res.headers['content-encoding']).toBeUndefined();

    let text = '';
    let firstArrived = 0;
    for await (const chunk of res.body) {
      text += chunk.toString();
      if (!firstArrived && text.includes('Hello')) firstArrived = performance.now();
    }
    expect(text).toBe('data: {"token":"Hello"}\n\ndata: {"token":" world"}\n\ndata: [DONE]\n\n');
    expect(firstArrived).toBeGreaterThan(0);
    // The first event reached the client before the service had even written the second.
    expect(firstArrived).toBeLessThan(marks.secondWritten!);
    expect(firstArrived - marks.firstWritten!).toBeLessThan(250);
  });

  it('ends a stream whose service died between two events with an error event in the shared shape', async () => {
    const res = await undiciRequest(`${h.url}/api/chat/dies-between-events`, { headers: auth() });
    expect(res.statusCode).toBe(200);
    const text = await res.body.text();
    const [first, last, rest] = text.split('\n\n');
    expect(first).toBe('event: token\ndata: {"text":"Hel"}');
    expect(last).toMatch(/^event: error\ndata: /);
    expect(JSON.parse(last!.slice(last!.indexOf('data: ') + 6))).toEqual({
      message: 'Chat service stopped answering in the middle of the reply. Please try again.',
      code: 'upstream_unavailable',
      requestId: expect.any(String),
    });
    expect(rest).toBe('');
  });

  it('cuts the connection when the service died in the middle of an event, rather than garble it', async () => {
    const res = await undiciRequest(`${h.url}/api/chat/dies-mid-event`, { headers: auth() });
    expect(res.statusCode).toBe(200);
    await expect(res.body.text()).rejects.toThrow();
  });

  it('cancels the upstream request when the client goes away mid-stream', async () => {
    const controller = new AbortController();
    const res = await undiciRequest(`${h.url}/api/chat/endless`, { headers: auth(), signal: controller.signal });
    const iterator = res.body[Symbol.asyncIterator]();
    expect(String((await iterator.next()).value)).toContain('Once');
    const abortedAt = performance.now();
    controller.abort();
    await iterator.return?.().catch(() => undefined);

    const closedAt = await eventually(() => marks.endlessClosed, { timeoutMs: 2_000 });
    expect(closedAt - abortedAt).toBeLessThan(1_000);
    expect((await call(`${h.url}/api/chat/sessions`, { method: 'POST', headers: auth(), body: '{}' })).status).toBe(
      200,
    );
  });
});
