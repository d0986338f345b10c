import {
  Kasa,
  KasaAuthenticationError,
  KasaBadRequestError,
  KasaConflictError,
  KasaConnectionError,
  KasaError,
  KasaNotFoundError,
  KasaPermissionError,
  KasaRateLimitError,
  KasaServerError,
  KasaTimeoutError,
  REQUEST_TIMEOUT,
  isKasaError,
} from '@kasa/sdk';
import { hangUp, json, localServer } from './localServer';

const personas = [{ id: 'kasa', name: 'Kasa', expertise: 'General', systemPrompt: '...' }];
const rateLimited = (retryAfter: string) =>
  json(
    429,
    { message: 'Too many requests', code: 'rate_limited', requestId: 'req-429' },
    { 'retry-after': retryAfter },
  );
const servers: Array<{ close: () => Promise<void> }> = [];

async function serve(...handlers: Parameters<typeof localServer>[0]) {
  const server = await localServer(handlers);
  servers.push(server);
  return server;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe('retries on 429', () => {
  it('waits as long as Retry-After says, then succeeds', async () => {
    const server = await serve(rateLimited('1'), json(200, personas));
    const kasa = new Kasa({ baseUrl: server.baseUrl, apiKey: 'ksk_test' });

    await expect(kasa.personas.list()).resolves.toEqual(personas);

    expect(server.seen).toHaveLength(2);
    expect(server.seen[1]!.at - server.seen[0]!.at).toBeGreaterThanOrEqual(950);
    expect(server.seen[1]!.authorization).toBe('Bearer ksk_test');
  });

  it('retries a creating POST with the same Idempotency-Key on each try', async () => {
    const server = await serve(rateLimited('0'), json(201, { id: 's1', personaId: 'kasa', title: 't', createdAt: '' }));
    const kasa = new Kasa({ baseUrl: server.baseUrl });
    await expect(kasa.chat.sessions.create({ personaId: 'kasa', title: 't' })).resolves.toMatchObject({ id: 's1' });
    expect(server.seen.map((r) => r.method)).toEqual(['POST', 'POST']);
    expect(server.seen[0]!.idempotencyKey).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(server.seen[1]!.idempotencyKey).toBe(server.seen[0]!.idempotencyKey);
  });

  it('gives up after maxRetries and throws the 429 as a KasaError', async () => {
    const server = await serve(rateLimited('0'));
    const kasa = new Kasa({ baseUrl: server.baseUrl, maxRetries: 3 });

    const error = await kasa.personas.list().catch((err: unknown) => err);

    expect(error).toBeInstanceOf(KasaError);
    expect(error).toMatchObject({
      status: 429,
      code: 'rate_limited',
      requestId: 'req-429',
      message: 'Too many requests',
    });
    expect(server.seen).toHaveLength(4);
  });

  it('does not wait when Retry-After asks for longer than maxRetryDelayMs', async () => {
    const server = await serve(
      json(429, { message: 'Slow down', code: 'rate_limited' }, { 'retry-after': '86400' }),
      json(200, personas),
    );
    const kasa = new Kasa({ baseUrl: server.baseUrl, maxRetryDelayMs: 5_000 });
    await expect(kasa.personas.list()).rejects.toMatchObject({ status: 429, code: 'rate_limited' });
    expect(server.seen).toHaveLength(1);
  });

  it('never retries a used-up monthly quota, which names no Retry-After', async () => {
    const server = await serve(
      json(429, { message: 'Monthly quota used up', code: 'quota_exceeded' }, { 'x-should-retry': 'false' }),
      json(200, personas),
    );
    const kasa = new Kasa({ baseUrl: server.baseUrl, maxRetries: 3 });
    await expect(kasa.personas.list()).rejects.toMatchObject({ status: 429, code: 'quota_exceeded' });
    expect(server.seen).toHaveLength(1);
  });

  it('never retries quota_exceeded even when the answer carries no x-should-retry', async () => {
    const server = await serve(json(429, { message: 'Monthly quota used up', code: 'quota_exceeded' }));
    const kasa = new Kasa({ baseUrl: server.baseUrl, maxRetries: 3 });
    await expect(kasa.chat.sessions.create({ personaId: 'kasa', title: 't' })).rejects.toMatchObject({
      code: 'quota_exceeded',
    });
    expect(server.seen).toHaveLength(1);
  });

  it('does not retry a 429 marked x-should-retry: false', async () => {
    const server = await serve(
      json(429, { message: 'No', code: 'rate_limited' }, { 'retry-after': '0', 'x-should-retry': 'false' }),
      json(200, personas),
    );
    const kasa = new Kasa({ baseUrl: server.baseUrl });
    await expect(kasa.personas.list()).rejects.toMatchObject({ status: 429 });
    expect(server.seen).toHaveLength(1);
  });

  it('stops waiting when the call is aborted', async () => {
    const server = await serve(rateLimited('30'), json(200, personas));
    const kasa = new Kasa({ baseUrl: server.baseUrl });
    const started = Date.now();
    await expect(kasa.personas.list({ signal: AbortSignal.timeout(100) })).rejects.toMatchObject({
      name: 'TimeoutError',
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(server.seen).toHaveLength(1);
  });

  it('does not retry with maxRetries 0', async () => {
    const server = await serve(rateLimited('0'), json(200, personas));
    const kasa = new Kasa({ baseUrl: server.baseUrl, maxRetries: 0 });
    await expect(kasa.personas.list()).rejects.toMatchObject({ status: 429 });
    expect(server.seen).toHaveLength(1);
  });
});

describe('retries on other answers', () => {
  it('retries a 503 after retry-after-ms, and not a 400', async () => {
    const unavailable = json(503, { message: 'Away', code: 'upstream_unavailable' }, { 'retry-after-ms': '10' });
    const server = await serve(unavailable, json(200, personas));
    const kasa = new Kasa({ baseUrl: server.baseUrl });
    await expect(kasa.personas.list()).resolves.toEqual(personas);
    expect(server.seen).toHaveLength(2);

    const refusing = await serve(json(400, { message: 'Bad', code: 'validation_failed' }), json(200, personas));
    await expect(new Kasa({ baseUrl: refusing.baseUrl }).personas.list()).rejects.toMatchObject({ status: 400 });
    expect(refusing.seen).toHaveLength(1);
  });

  it('retries any status the server marks x-should-retry: true', async () => {
    const server = await serve(
      json(500, { message: 'Try again', code: 'internal' }, { 'x-should-retry': 'true', 'retry-after': '0' }),
      json(200, personas),
    );
    const kasa = new Kasa({ baseUrl: server.baseUrl });
    await expect(kasa.personas.list()).resolves.toEqual(personas);
    expect(server.seen).toHaveLength(2);
  });
});

describe('idempotency keys', () => {
  const session = { id: 's1', personaId: 'kasa', title: 't', createdAt: '' };

  it('sends a new key with each creating call and none with a read', async () => {
    const server = await serve(json(201, session));
    const kasa = new Kasa({ baseUrl: server.baseUrl });
    await kasa.chat.sessions.create({ personaId: 'kasa', title: 't' });
    await kasa.chat.sessions.create({ personaId: 'kasa', title: 't' });
    await kasa.chat.sessions.list();
    const [first, second, read] = server.seen;
    expect(first!.idempotencyKey).toEqual(expect.any(String));
    expect(second!.idempotencyKey).toEqual(expect.any(String));
    expect(second!.idempotencyKey).not.toBe(first!.idempotencyKey);
    expect(read!.idempotencyKey).toBeUndefined();
  });

  it('sends the caller’s own key', async () => {
    const server = await serve(json(201, session));
    const kasa = new Kasa({ baseUrl: server.baseUrl });
    await kasa.chat.sessions.create({ personaId: 'kasa', title: 't' }, { idempotencyKey: 'order-1234' });
    expect(server.seen[0]!.idempotencyKey).toBe('order-1234');
  });

  it('with idempotencyKeys: false sends none and does not retry a creating call', async () => {
    const server = await serve(rateLimited('0'), json(201, session));
    const kasa = new Kasa({ baseUrl: server.baseUrl, idempotencyKeys: false });
    await expect(kasa.chat.sessions.create({ personaId: 'kasa', title: 't' })).rejects.toMatchObject({ status: 429 });
    expect(server.seen).toHaveLength(1);
    expect(server.seen[0]!.idempotencyKey).toBeUndefined();
  });
});

describe('retries on network errors', () => {
  it('retries an idempotent call whose connection dropped', async () => {
    const server = await serve(hangUp, json(200, personas));
    const kasa = new Kasa({ baseUrl: server.baseUrl });
    await expect(kasa.personas.list()).resolves.toEqual(personas);
    expect(server.seen).toHaveLength(2);
  });

  it('repeats a creating POST whose connection dropped with the same key, so the server does it once', async () => {
    const server = await serve(hangUp, json(201, { id: 's1', personaId: 'kasa', title: 't', createdAt: '' }));
    const kasa = new Kasa({ baseUrl: server.baseUrl });
    await expect(kasa.chat.sessions.create({ personaId: 'kasa', title: 't' })).resolves.toMatchObject({ id: 's1' });
    expect(server.seen).toHaveLength(2);
    expect(server.seen[1]!.idempotencyKey).toBe(server.seen[0]!.idempotencyKey);
  });

  it('never repeats a POST without a key whose connection dropped: the server may have done it', async () => {
    const server = await serve(hangUp, json(201, {}));
    const kasa = new Kasa({ baseUrl: server.baseUrl, idempotencyKeys: false });
    const error = await kasa.chat.sessions.create({ personaId: 'kasa', title: 't' }).catch((err: unknown) => err);
    expect(error).toMatchObject({ name: 'KasaConnectionError', status: 0, code: 'network_error' });
    expect(server.seen).toHaveLength(1);
  });

  it('reports an unreachable API as a network error after the retries', async () => {
    const server = await serve(json(200, personas));
    const baseUrl = server.baseUrl;
    await server.close();
    servers.length = 0;
    const kasa = new Kasa({ baseUrl, maxRetries: 1 });
    await expect(kasa.personas.list()).rejects.toMatchObject({ status: 0, code: 'network_error' });
  });
});

describe('error answers that are not Kasa’s error JSON', () => {
  it('keeps the status, derives a code and uses the spec’s fallback message', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html', 'x-request-id': 'edge-1' });
      res.end('<html>Bad gateway</html>');
    });
    const kasa = new Kasa({ baseUrl: server.baseUrl });
    await expect(kasa.personas.list()).rejects.toMatchObject({
      status: 502,
      code: 'upstream_unavailable',
      message: 'HTTP error! status: 502',
      requestId: 'edge-1',
    });
  });
});

describe('timeouts', () => {
  const silent: Parameters<typeof localServer>[0][number] = () => undefined;

  it('gives each attempt timeoutMs to start answering, retries a safe call, then throws a KasaTimeoutError', async () => {
    const server = await serve(silent);
    const kasa = new Kasa({ baseUrl: server.baseUrl, timeoutMs: 300, maxRetries: 1 });
    const started = Date.now();
    const error = await kasa.personas.list().catch((err: unknown) => err);
    expect(error).toBeInstanceOf(KasaTimeoutError);
    expect(error).toBeInstanceOf(KasaConnectionError);
    expect(error).toBeInstanceOf(KasaError);
    expect(error).toMatchObject({ name: 'KasaTimeoutError', status: 0, code: REQUEST_TIMEOUT });
    expect(isKasaError(error)).toBe(true);
    expect(server.seen).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(600);
  });

  it('does not repeat a call that is not safe to repeat, and a call may set its own timeout', async () => {
    const server = await serve(silent);
    const kasa = new Kasa({ baseUrl: server.baseUrl, idempotencyKeys: false, timeoutMs: 60_000 });
    const error = await kasa.chat.sessions
      // Long enough for the request to reach the server on a loaded machine, far below the client's 60 s.
      .create({ personaId: 'kasa', title: 't' }, { timeoutMs: 2_000 })
      .catch((err: unknown) => err);
    expect(error).toMatchObject({ name: 'KasaTimeoutError', code: REQUEST_TIMEOUT });
    expect(server.seen).toHaveLength(1);
  });

  it("still rejects with the caller's reason when the caller aborts first", async () => {
    const server = await serve(silent);
    const kasa = new Kasa({ baseUrl: server.baseUrl, timeoutMs: 5_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('changed my mind')), 100);
    await expect(kasa.personas.list({ signal: controller.signal })).rejects.toThrow('changed my mind');
  });
});

describe('error classes', () => {
  it.each([
    [400, KasaBadRequestError],
    [401, KasaAuthenticationError],
    [403, KasaPermissionError],
    [404, KasaNotFoundError],
    [409, KasaConflictError],
    [429, KasaRateLimitError],
    [500, KasaServerError],
  ])('answers %i with its own KasaError subclass', async (status, kind) => {
    const server = await serve(json(status, { message: 'no', code: 'some_code', requestId: 'req-1' }));
    const kasa = new Kasa({ baseUrl: server.baseUrl, maxRetries: 0 });
    const error = await kasa.personas.list().catch((err: unknown) => err);
    expect(error).toBeInstanceOf(kind);
    expect(error).toBeInstanceOf(KasaError);
    expect(error).toMatchObject({ name: kind.name, status, code: 'some_code', requestId: 'req-1' });
  });
});
