import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deleteQueues, gatewayHearsRevocations, type PlatformPart, type RunningPlatform } from './platform';
import { closeAtTeardown } from './leftovers';
import { startRoundRobin, type RoundRobin } from './roundRobin';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { freePort } = require('../../scripts/embedded-mongo') as { freePort: () => Promise<number> };

const ROOT = path.resolve(__dirname, '../..');

export interface ScaledPlatform extends RunningPlatform {
  /** Each gateway directly, and its admin port. */
  gateways: Array<{ url: string; admin: number }>;
  /** Each chat replica directly. */
  chats: string[];
  /** The balancer in front of the gateways (`baseUrl`) and the one in front of the chat replicas. */
  front: RoundRobin;
  chatBalancer: RoundRobin;
}

async function waitFor(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(1_000) })).status === 200) return;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) throw new Error(`${url} did not come up within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * The platform scaled out as production runs it: two gateway processes and two chat service processes, each pair
 * behind a round-robin balancer, with one auth, voice and status service, all from the built output and sharing one
 * database, one RabbitMQ and one Redis (REDIS_URL, default redis://127.0.0.1:6379, for the gateways' counters).
 * `baseUrl` is the balancer in front of the gateways; the gateways reach chat through the other balancer.
 */
export async function startScaledPlatform(extraEnv: NodeJS.ProcessEnv = {}): Promise<ScaledPlatform> {
  const run = randomUUID().slice(0, 8);
  const ports = await Promise.all(Array.from({ length: 9 }, () => freePort()));
  const [auth, voice, status, chatA, chatB, gatewayA, gatewayB, adminA, adminB] = ports as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const chats = [`http://127.0.0.1:${chatA}`, `http://127.0.0.1:${chatB}`];
  const chatBalancer = await startRoundRobin(chats, 'chat');
  const gatewayUrls = [`http://127.0.0.1:${gatewayA}`, `http://127.0.0.1:${gatewayB}`];
  const front = await startRoundRobin(gatewayUrls, 'gateway');
  const keysDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-keys-'));
  const frontPort = new URL(front.url).port;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.KASA_TEST_LOG_LEVEL ?? 'warn',
    AUTH_PORT: String(auth),
    VOICE_PORT: String(voice),
    STATUS_PORT: String(status),
    AUTH_SERVICE_URL: `http://127.0.0.1:${auth}`,
    CHAT_SERVICE_URL: chatBalancer.url,
    VOICE_SERVICE_URL: `http://127.0.0.1:${voice}`,
    STATUS_SERVICE_URL: `http://127.0.0.1:${status}`,
    WEB_ORIGIN: `http://localhost:${frontPort}`,
    AUTH_DB_NAME: `kasa_auth_${run}`,
    CHAT_DB_NAME: `kasa_chat_${run}`,
    VOICE_DB_NAME: `kasa_voice_${run}`,
    STATUS_DB_NAME: `kasa_status_${run}`,
    // The status service's own queue and deployment name, as in platform.ts: other runs on the broker stay apart.
    STATUS_CONSUMER_NAME: `status-test-${run}`,
    // ...and so does auth's (the audit log's events), for the same reason.
    AUTH_CONSUMER_NAME: `auth-test-${run}`,
    KASA_DEPLOYMENT: `test-${run}`,
    AUTH_KEYS_DIR: keysDir,
    // Chat's secrets key and local model files: this platform's own, never the development folders.
    CHAT_KEYS_DIR: path.join(keysDir, 'chat'),
    CHAT_MODELS_DIR: path.join(keysDir, 'models'),
    STATUS_KEYS_DIR: path.join(keysDir, 'status'),
    KASA_MAIL_DIR: path.join(keysDir, 'mail'),
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    // The sign-in limit counts per client IP in the Redis every test run on this machine shares: high enough that
    // other runs do not use it up (tests/security checks the limit itself).
    AUTH_RATE_LIMIT_MAX: '100000',
    // The same for the per-address limits of the public routes (their own tests check them).
    PUBLIC_RATE_LIMIT_MAX: '100000',
    ANONYMOUS_SYNTHESIS_RATE_LIMIT_MAX: '100000',
    ...extraEnv,
  };
  const logs: string[] = [];
  const children: ChildProcess[] = [];
  const byName = new Map<string, { child: ChildProcess; entry: string; own: NodeJS.ProcessEnv }>();
  const launch = (name: string, entry: string, own: NodeJS.ProcessEnv = {}) => {
    const child = spawn(process.execPath, [path.join(ROOT, entry)], {
      cwd: ROOT,
      env: { ...env, ...own },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const collect = (chunk: Buffer) =>
      logs.push(
        ...chunk
          .toString()
          .split('\n')
          .filter(Boolean)
          .map((l) => `[${name}] ${l}`),
      );
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    children.push(child);
    byName.set(name, { child, entry, own });
  };
  launch('auth', 'services/auth/dist/index.js');
  launch('voice', 'services/voice/dist/index.js');
  launch('status', 'services/status/dist/index.js');
  launch('chat-0', 'services/chat/dist/index.js', { CHAT_PORT: String(chatA) });
  launch('chat-1', 'services/chat/dist/index.js', { CHAT_PORT: String(chatB) });

  const stop = async () => {
    closed();
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
            setTimeout(() => child.kill('SIGKILL'), 8_000).unref();
          }),
      ),
    );
    await Promise.all([front.close(), chatBalancer.close()]);
    fs.rmSync(keysDir, { recursive: true, force: true });
    await deleteQueues(
      env.AMQP_URL,
      [env.STATUS_CONSUMER_NAME, env.AUTH_CONSUMER_NAME].flatMap((name) => [`kasa.${name}`, `kasa.${name}.dlq`]),
    );
  };

  const closed = closeAtTeardown('a scaled-out platform', stop);
  try {
    await Promise.all(
      [auth, voice, status, chatA, chatB].map((port) => waitFor(`http://127.0.0.1:${port}/readyz`, 60_000)),
    );
    // The gateways start once auth serves its JWKS.
    launch('gateway-0', 'gateway/dist/index.js', {
      GATEWAY_PORT: String(gatewayA),
      GATEWAY_ADMIN_PORT: String(adminA),
    });
    launch('gateway-1', 'gateway/dist/index.js', {
      GATEWAY_PORT: String(gatewayB),
      GATEWAY_ADMIN_PORT: String(adminB),
    });
    await Promise.all(gatewayUrls.map((url) => waitFor(`${url}/api/openapi.json`, 30_000)));
    await Promise.all([adminA, adminB].map((port) => waitFor(`http://127.0.0.1:${port}/readyz`, 30_000)));
    await Promise.all([adminA, adminB].map((port) => gatewayHearsRevocations(port)));
  } catch (err) {
    await stop();
    throw new Error(`${(err as Error).message}\n${logs.slice(-40).join('\n')}`);
  }
  // A part's every replica: `kill('chat')` stops both chat processes.
  const replicasOf = (part: PlatformPart) => [...byName].filter(([name]) => name.split('-')[0] === part);
  const kill = async (part: PlatformPart, signal: NodeJS.Signals = 'SIGKILL') => {
    await Promise.all(
      replicasOf(part).map(
        ([, { child }]) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill(signal);
          }),
      ),
    );
  };
  const restart = async (part: PlatformPart) => {
    for (const [name, { entry, own }] of replicasOf(part)) launch(name, entry, own);
    const probes =
      part === 'gateway' ? [adminA, adminB] : part === 'chat' ? [chatA, chatB] : [{ auth, voice, status }[part]];
    await Promise.all(probes.map((port) => waitFor(`http://127.0.0.1:${port}/readyz`, 60_000)));
  };
  return {
    kill,
    restart,
    baseUrl: front.url,
    ports: { gateway: Number(frontPort), auth, chat: chatA, voice, status, admin: adminA },
    logs,
    stop,
    gateways: gatewayUrls.map((url, i) => ({ url, admin: [adminA, adminB][i]! })),
    chats,
    front,
    chatBalancer,
  };
}
