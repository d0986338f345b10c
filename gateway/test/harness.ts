import { eventually } from '@kasa/test-kit';
import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createLogger } from '@kasa/service-kit';
import jwt from 'jsonwebtoken';
import { request as undiciRequest } from 'undici';
import { loadGatewayConfig } from '../src/config';
import { egDependency } from '../src/eg/expressGateway';
import { startGateway, type RunningGateway } from '../src/gateway';

/** What a fake service saw of one request. */
export interface SeenRequest {
  service: string;
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void;

/** A small node:http server standing in for one Kasa service: echoes what it saw unless a route says otherwise. */
export class FakeService {
  readonly seen: SeenRequest[] = [];
  readonly routes = new Map<string, Handler>();
  private server!: Server;
  port = 0;

  constructor(readonly name: string) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Handles requests whose path (without query) is `path`, after the request body was read. */
  route(path: string, handler: Handler): this {
    this.routes.set(path, handler);
    return this;
  }

  /** Handles requests whose path is `path` at once, before reading the body (streams, hangs). */
  rawRoute(path: string, handler: (req: IncomingMessage, res: ServerResponse) => void): this {
    this.routes.set(`raw:${path}`, (req, res) => handler(req, res));
    return this;
  }

  async start(port = 0): Promise<this> {
    this.server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      const raw = this.routes.get(`raw:${path}`);
      if (raw) {
        this.seen.push({
          service: this.name,
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          body: '',
        });
        raw(req, res, Buffer.alloc(0));
        return;
      }
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        this.seen.push({
          service: this.name,
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          body: body.toString(),
        });
        const handler = this.routes.get(path);
        if (handler) {
          handler(req, res, body);
          return;
        }
        const json = JSON.stringify({
          service: this.name,
          method: req.method,
          url: req.url,
          headers: req.headers,
          body: body.toString(),
        });
        res.writeHead(200, { 'content-type': 'application/json', connection: 'keep-alive', 'keep-alive': 'timeout=5' });
        res.end(json);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  last(): SeenRequest {
    const seen = this.seen.at(-1);
    if (!seen) throw new Error(`${this.name} saw no request`);
    return seen;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}

/** A freshly generated RS256 key pair and its JWKS document, as the auth service publishes it. */
export class TestKeys {
  readonly kid = `test-${randomUUID().slice(0, 8)}`;
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;

  constructor() {
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
  }

  get jwks(): { keys: object[] } {
    return { keys: [{ ...this.publicKey.export({ format: 'jwk' }), kid: this.kid, alg: 'RS256', use: 'sig' }] };
  }

  /** A valid access token; `claims` and `options` override the defaults. */
  token(claims: Record<string, unknown> = {}, options: jwt.SignOptions = {}): string {
    return jwt.sign({ sub: 'u-123', username: 'ama', tier: 'pro', ...claims }, this.privateKey, {
      algorithm: 'RS256',
      keyid: this.kid,
      issuer: 'kasa-auth',
      audience: 'kasa',
      ...(claims.exp === undefined ? { expiresIn: 900 } : {}),
      jwtid: randomUUID(),
      ...options,
    });
  }
}

/** A port nothing listens on (it was free a moment ago). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface Harness {
  gateway: RunningGateway;
  url: string;
  adminUrl: string;
  keys: TestKeys;
  services: { auth: FakeService; chat: FakeService; voice: FakeService; status: FakeService };
  stop(): Promise<void>;
}

/**
 * Starts four fake services (the auth one also serves the JWKS of `keys`) and the real gateway in this process,
 * on free ports. `env` overrides the gateway's environment (e.g. a small rate limit, a dead upstream URL).
 */
export async function startHarness(env: Record<string, string> = {}): Promise<Harness> {
  const keys = new TestKeys();
  const services = {
    auth: new FakeService('auth'),
    chat: new FakeService('chat'),
    voice: new FakeService('voice'),
    status: new FakeService('status'),
  };
  services.auth.route('/.well-known/jwks.json', (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(keys.jwks));
  });
  await Promise.all(Object.values(services).map((service) => service.start()));

  const config = loadGatewayConfig({
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    GATEWAY_PORT: '0',
    GATEWAY_ADMIN_PORT: '0',
    AUTH_SERVICE_URL: services.auth.url,
    CHAT_SERVICE_URL: services.chat.url,
    VOICE_SERVICE_URL: services.voice.url,
    STATUS_SERVICE_URL: services.status.url,
    AMQP_URL: process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672',
    SHUTDOWN_TIMEOUT_MS: '1000',
    ...env,
  });
  const logger = createLogger({ service: 'gateway', version: 'test', level: config.LOG_LEVEL });
  const gateway = await startGateway(config, { logger });
  return {
    gateway,
    url: `http://127.0.0.1:${gateway.port}`,
    adminUrl: `http://127.0.0.1:${gateway.adminPort}`,
    keys,
    services,
    async stop() {
      await gateway.stop();
      await Promise.all(Object.values(services).map((service) => service.stop().catch(() => undefined)));
    },
  };
}

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json<T = Record<string, unknown>>(): T;
}

/** One HTTP request with undici (a fresh connection per call is not needed: undici pools them). */
export async function call(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer | AsyncIterable<Buffer> } = {},
): Promise<Reply> {
  const res = await undiciRequest(url, {
    method: (options.method ?? 'GET') as 'GET',
    headers: options.headers,
    body: options.body as string | undefined,
  });
  const text = await res.body.text();
  return {
    status: res.statusCode,
    headers: res.headers,
    text,
    json: <T>() => JSON.parse(text) as T,
  };
}

/** The built gateway: what a second instance in another process runs (express-gateway allows one per process). */
const GATEWAY_ENTRY = path.resolve(__dirname, '../dist/index.js');

/**
 * A second gateway instance, started from the build in a process of its own, in front of the same fake services as
 * `h` and with the same `env` (say a shared REDIS_URL): for what must hold across replicas. Ready when it resolves.
 */
export async function startSecondGateway(
  h: Harness,
  env: Record<string, string>,
): Promise<{ url: string; stop: () => Promise<void> }> {
  if (!existsSync(GATEWAY_ENTRY)) throw new Error('gateway/dist is missing: run `npx tsc -b gateway/tsconfig.json`');
  const [port, adminPort] = await Promise.all([closedPort(), closedPort()]);
  const child: ChildProcess = spawn(process.execPath, [GATEWAY_ENTRY], {
    env: {
      ...process.env,
      ...env,
      LOG_LEVEL: 'silent',
      GATEWAY_PORT: String(port),
      GATEWAY_ADMIN_PORT: String(adminPort),
      AUTH_SERVICE_URL: h.services.auth.url,
      CHAT_SERVICE_URL: h.services.chat.url,
      VOICE_SERVICE_URL: h.services.voice.url,
      STATUS_SERVICE_URL: h.services.status.url,
      AMQP_URL: process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672',
    },
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  await eventually(
    async () => ((await call(`${url}/api/openapi.json`).catch(() => undefined))?.status === 200 ? true : undefined),
    { timeoutMs: 20_000 },
  );
  return {
    url,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Deletes the Redis keys matching each pattern (what a test left in a shared Redis). */
export async function deleteRedisKeys(redisUrl: string, patterns: string[]): Promise<void> {
  const Redis = egDependency<
    new (url: string) => {
      keys(p: string): Promise<string[]>;
      del(...k: string[]): Promise<number>;
      quit(): Promise<unknown>;
    }
  >('ioredis');
  const redis = new Redis(redisUrl);
  try {
    for (const pattern of patterns) {
      const keys = await redis.keys(pattern);
      if (keys.length > 0) await redis.del(...keys);
    }
  } finally {
    await redis.quit();
  }
}
