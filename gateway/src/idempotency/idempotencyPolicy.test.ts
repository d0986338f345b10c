import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '@kasa/service-kit';
import { eventually } from '@kasa/test-kit';
import { request } from 'undici';
import type { EgConfig, GatewayRequest } from '../eg/types';
import { createIdempotencyPolicy, isValidIdempotencyKey, type IdempotencyOptions } from './idempotencyPolicy';
import { MemoryIdempotencyStore, type IdempotencyStore } from './idempotencyStore';
import { exchangeTapOf } from './idempotentExchange';

const logger = createLogger({ service: 'gateway', version: 'test', level: 'silent' });

/**
 * The policy on a real HTTP server, in front of a stand-in for the proxy that speaks to the tap as the proxy does;
 * `hold` keeps the stand-in's answers back until the test lets them go.
 */
async function serve(
  store: IdempotencyStore,
  options: Partial<IdempotencyOptions> = {},
  route?: { name: string; config: EgConfig },
) {
  const middleware = createIdempotencyPolicy({ getStore: () => store, logger, maxBodyBytes: 1024, options }).policy(
    {},
    route?.config ?? ({} as EgConfig),
  );
  const state = { upstreamCalls: 0, held: [] as Array<{ answer(): void; fail(): void }>, hold: false };
  const upstream = (req: IncomingMessage, res: ServerResponse) => {
    state.upstreamCalls++;
    const tap = exchangeTapOf(req as GatewayRequest);
    tap?.claim();
    const chunks: Buffer[] = tap?.bufferedBody ? [tap.bufferedBody] : [];
    const answer = () => {
      const body = JSON.stringify({ call: state.upstreamCalls, body: Buffer.concat(chunks).toString() });
      const headers = { 'content-type': 'application/json' };
      tap?.responseStart(201, headers);
      tap?.responseData(Buffer.from(body));
      tap?.responseEnd();
      res.writeHead(201, headers).end(body);
    };
    // As the proxy does when the service breaks off: the key is released, the client's connection cut.
    const fail = () => {
      tap?.fail();
      res.destroy();
    };
    const ready = () => (state.hold ? state.held.push({ answer, fail }) : answer());
    if (tap?.bufferedBody) return ready();
    req.on('data', (chunk: Buffer) => {
      tap?.requestData(chunk);
      chunks.push(chunk);
    });
    req.on('end', () => {
      tap?.requestEnd();
      ready();
    });
  };
  const server: Server = createServer((req, res) => {
    const gatewayRequest = req as GatewayRequest;
    gatewayRequest.originalUrl = req.url ?? '/';
    if (route) gatewayRequest.egContext = { apiEndpoint: { apiEndpointName: route.name } };
    gatewayRequest.kasaIdentity = {
      sub: String(req.headers['x-test-user'] ?? 'u-1'),
    } as GatewayRequest['kasaIdentity'];
    middleware(gatewayRequest, res, (err?: unknown) => {
      if (err) res.writeHead(500).end(String(err));
      else upstream(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const post = async (key: string, body = '{"title":"Hi"}') => {
    const res = await request(`${url}/api/chat/sessions`, {
      method: 'POST',
      headers: { 'idempotency-key': key, 'content-type': 'application/json' },
      body,
    });
    return { status: res.statusCode, headers: res.headers, body: (await res.body.json()) as Record<string, unknown> };
  };
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return { state, post, close };
}

describe('the idempotency policy', () => {
  it('accepts 1 to 255 printable ASCII characters as a key', () => {
    expect(isValidIdempotencyKey('a')).toBe(true);
    expect(isValidIdempotencyKey(' ~!"#$%&\'()*+,-./09:;<=>?@AZ[\\]^_`az{|}')).toBe(true);
    expect(isValidIdempotencyKey('k'.repeat(255))).toBe(true);
    expect(isValidIdempotencyKey('')).toBe(false);
    expect(isValidIdempotencyKey('k'.repeat(256))).toBe(false);
    expect(isValidIdempotencyKey('caf\u00e9')).toBe(false);
    expect(isValidIdempotencyKey('a\u0000b')).toBe(false);
    expect(isValidIdempotencyKey('a\u007fb')).toBe(false);
  });

  it('answers a duplicate 409 idempotency_in_progress with Retry-After: 1 when the first runs past the wait', async () => {
    const app = await serve(new MemoryIdempotencyStore({ maxEntries: 100, maxBytes: 1_000_000 }), {
      waitMs: 300,
      pollMs: 20,
    });
    try {
      app.state.hold = true;
      const first = app.post('slow-key');
      await new Promise((resolve) => setTimeout(resolve, 50));
      const started = Date.now();
      const duplicate = await app.post('slow-key');
      expect(Date.now() - started).toBeGreaterThanOrEqual(280);
      expect(duplicate.status).toBe(409);
      expect(duplicate.headers['retry-after']).toBe('1');
      expect(duplicate.body).toMatchObject({ code: 'idempotency_in_progress' });

      app.state.held.shift()!.answer();
      expect((await first).status).toBe(201);
      const replayed = await app.post('slow-key');
      expect(replayed.headers['idempotent-replayed']).toBe('true');
      expect(replayed.body).toEqual({ call: 1, body: '{"title":"Hi"}' });
      expect(app.state.upstreamCalls).toBe(1);
    } finally {
      await app.close();
    }
  });

  it('runs a waiting duplicate in place of a first request that failed, with the body it read', async () => {
    const app = await serve(new MemoryIdempotencyStore({ maxEntries: 100, maxBytes: 1_000_000 }), { pollMs: 20 });
    try {
      app.state.hold = true;
      const first = app.post('failing-key').catch((err: Error) => err);
      await new Promise((resolve) => setTimeout(resolve, 50));
      await eventually(() => app.state.upstreamCalls === 1 || undefined, { what: 'the first request upstream' });
      const duplicate = app.post('failing-key');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(app.state.upstreamCalls).toBe(1);
      app.state.held.shift()!.fail();
      expect(await first).toBeInstanceOf(Error);
      // The duplicate now runs upstream itself, with the body the policy read from it.
      await eventually(() => app.state.upstreamCalls === 2 || undefined, { what: 'the duplicate upstream' });
      app.state.held.shift()!.answer();
      const taken = await duplicate;
      expect(taken.status).toBe(201);
      expect(taken.headers['idempotent-replayed']).toBeUndefined();
      expect(taken.body).toEqual({ call: 2, body: '{"title":"Hi"}' });
    } finally {
      await app.close();
    }
  });

  it('lets requests through as if they had no key when the store fails', async () => {
    const broken: IdempotencyStore = {
      reserve: () => Promise.reject(new Error('Connection is closed.')),
      get: () => Promise.reject(new Error('Connection is closed.')),
      replace: () => Promise.reject(new Error('Connection is closed.')),
      release: () => Promise.reject(new Error('Connection is closed.')),
      close: async () => undefined,
    };
    const app = await serve(broken);
    try {
      expect((await app.post('any-key')).status).toBe(201);
      expect((await app.post('any-key')).status).toBe(201);
      expect(app.state.upstreamCalls).toBe(2);
    } finally {
      await app.close();
    }
  });

  it('answers 413 to a duplicate whose body is over the proxy’s limit, without waiting', async () => {
    const app = await serve(new MemoryIdempotencyStore({ maxEntries: 100, maxBytes: 1_000_000 }));
    try {
      await app.post('big-key');
      const tooBig = await app.post('big-key', JSON.stringify({ title: 'x'.repeat(2_000) }));
      expect(tooBig.status).toBe(413);
      expect(tooBig.body).toMatchObject({
        code: 'payload_too_large',
        message: 'The request body is too large: the limit is 1 KB.',
      });
    } finally {
      await app.close();
    }
  });

  it('reads a duplicate within its route’s limit, the maxBodyBytes of the pipeline’s proxy step', async () => {
    const config: EgConfig = {
      gatewayConfig: {
        pipelines: {
          uploads: {
            apiEndpoints: ['uploads'],
            policies: [
              { 'kasa-idempotency': null },
              { 'kasa-proxy': [{ action: { serviceEndpoint: 'voice', maxBodyBytes: 8 * 1024 } }] },
            ],
          },
        },
      },
    };
    const app = await serve(
      new MemoryIdempotencyStore({ maxEntries: 100, maxBytes: 1_000_000 }),
      {},
      {
        name: 'uploads',
        config,
      },
    );
    try {
      // Over the gateway's default (1 KB here), within the route's 8 KB: replayed, not refused.
      const body = JSON.stringify({ title: 'x'.repeat(4_000) });
      expect((await app.post('upload-key', body)).status).toBe(201);
      const again = await app.post('upload-key', body);
      expect(again.status).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(app.state.upstreamCalls).toBe(1);
      const tooBig = await app.post('upload-key', JSON.stringify({ title: 'x'.repeat(9_000) }));
      expect(tooBig.status).toBe(413);
      expect(tooBig.body).toMatchObject({ message: 'The request body is too large: the limit is 8 KB.' });
    } finally {
      await app.close();
    }
  });
});
