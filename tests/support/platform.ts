import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { closeAtTeardown } from './leftovers';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { freePort } = require('../../scripts/embedded-mongo') as { freePort: () => Promise<number> };

const ROOT = path.resolve(__dirname, '../..');

export interface RunningPlatform {
  baseUrl: string;
  ports: Record<'gateway' | 'auth' | 'chat' | 'voice' | 'status' | 'admin', number>;
  /** Everything the processes printed, for a failing test to show. */
  logs: string[];
  stop(): Promise<void>;
  /** Stops one part with `signal` (default SIGKILL: a crash) and resolves once it has exited. */
  kill(name: PlatformPart, signal?: NodeJS.Signals): Promise<void>;
  /**
   * Starts a part that was killed again, with the same environment and port (plus `extraEnv`, e.g. a voice instance
   * that renders no videos); resolves once it is ready.
   */
  restart(name: PlatformPart, extraEnv?: NodeJS.ProcessEnv): Promise<void>;
  /**
   * The process id of each part as it runs now (a restarted part has a new one), and `db`, the embedded database's,
   * when this test run started it (KASA_TEST_DB_PID from tests/jest/globalSetup.js): a soak reads their memory from
   * /proc. Optional because the scaled-out platform runs several processes per part.
   */
  pids?(): Record<PlatformPart, number> & { db?: number };
}

export type PlatformPart = 'auth' | 'chat' | 'voice' | 'status' | 'gateway';

async function waitFor(url: string, timeoutMs: number, isUp: (status: number) => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1_000) });
      if (isUp(res.status)) return;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) throw new Error(`${url} did not come up within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Waits until a gateway hears auth's revocations (its admin /readyz says `revocationFeed: connected`). A gateway is
 * ready without the broker, by design; a test that signs out or suspends someone needs every gateway to hear of it,
 * and on a loaded machine the first connection to the broker can come seconds after the gateway answers.
 */
export async function gatewayHearsRevocations(adminPort: number, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${adminPort}/readyz`, { signal: AbortSignal.timeout(1_000) });
      const body = (await res.json()) as { info?: { revocationFeed?: string } };
      if (body.info?.revocationFeed === 'connected') return;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) throw new Error(`the gateway (admin port ${adminPort}) did not reach the broker`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The last lines the test run's embedded database printed (tests/jest/globalSetup.js), for a failed start. */
function databaseLogTail(): string {
  const file = process.env.KASA_TEST_DB_LOG;
  if (!file) return '';
  try {
    const lines = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).slice(-20);
    return lines.length ? `\nthe embedded database printed:\n${lines.join('\n')}` : '';
  } catch {
    return '';
  }
}

/** Deletes a test run's durable queues, so that they do not collect events after it (best effort). */
export async function deleteQueues(amqpUrl: string | undefined, queues: string[]): Promise<void> {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const amqp = require('amqplib') as typeof import('amqplib');
    const connection = await amqp.connect(amqpUrl ?? 'amqp://guest:guest@127.0.0.1:5672');
    const channel = await connection.createChannel();
    for (const queue of queues) await channel.deleteQueue(queue);
    await connection.close();
  } catch {
    /* the broker is away: nothing to tidy */
  }
}

/**
 * Starts the real services and gateway from their built output (npm test builds first), on free ports, with
 * databases of their own on the test run's MongoDB-wire server. No part is mocked.
 */
export async function startPlatform(extraEnv: NodeJS.ProcessEnv = {}): Promise<RunningPlatform> {
  // KASA_TEST_SCALE_OUT=1 runs a suite against two gateways and two chat replicas instead (see tests/scale).
  if (process.env.KASA_TEST_SCALE_OUT === '1') {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return (require('./scaleOut') as typeof import('./scaleOut')).startScaledPlatform(extraEnv);
  }
  const run = randomUUID().slice(0, 8);
  const [gateway, auth, chat, voice, status, admin] = await Promise.all([
    freePort(),
    freePort(),
    freePort(),
    freePort(),
    freePort(),
    freePort(),
  ]);
  const ports = { gateway, auth, chat, voice, status, admin };
  const keysDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-keys-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.KASA_TEST_LOG_LEVEL ?? 'warn',
    AUTH_PORT: String(auth),
    CHAT_PORT: String(chat),
    VOICE_PORT: String(voice),
    STATUS_PORT: String(status),
    GATEWAY_PORT: String(gateway),
    GATEWAY_ADMIN_PORT: String(admin),
    AUTH_SERVICE_URL: `http://127.0.0.1:${auth}`,
    CHAT_SERVICE_URL: `http://127.0.0.1:${chat}`,
    VOICE_SERVICE_URL: `http://127.0.0.1:${voice}`,
    STATUS_SERVICE_URL: `http://127.0.0.1:${status}`,
    GATEWAY_ADMIN_URL: `http://127.0.0.1:${admin}`,
    WEB_ORIGIN: `http://localhost:${gateway}`,
    AUTH_DB_NAME: `kasa_auth_${run}`,
    CHAT_DB_NAME: `kasa_chat_${run}`,
    VOICE_DB_NAME: `kasa_voice_${run}`,
    STATUS_DB_NAME: `kasa_status_${run}`,
    // A queue of this platform's own: status services of other test runs on the same broker never take its events.
    STATUS_CONSUMER_NAME: `status-test-${run}`,
    // ...and so does auth's (the audit log's events), for the same reason.
    AUTH_CONSUMER_NAME: `auth-test-${run}`,
    // ...and it counts only the heartbeats and requests of this platform, not those of other runs on the broker.
    KASA_DEPLOYMENT: `test-${run}`,
    AUTH_KEYS_DIR: keysDir,
    // Chat's secrets key and local model files: this platform's own, never the development folders.
    CHAT_KEYS_DIR: path.join(keysDir, 'chat'),
    CHAT_MODELS_DIR: path.join(keysDir, 'models'),
    // Status's key for webhook signing secrets: this platform's own, never the development folder.
    STATUS_KEYS_DIR: path.join(keysDir, 'status'),
    KASA_MAIL_DIR: path.join(keysDir, 'mail'),
    ...extraEnv,
  };
  const logs: string[] = [];
  const children: ChildProcess[] = [];
  const byName = new Map<string, ChildProcess>();
  const entries: Array<[string, string]> = [
    ['auth', 'services/auth/dist/index.js'],
    ['chat', 'services/chat/dist/index.js'],
    ['voice', 'services/voice/dist/index.js'],
    ['status', 'services/status/dist/index.js'],
    ['gateway', 'gateway/dist/index.js'],
  ];
  const launch = (name: string, entry: string, partEnv: NodeJS.ProcessEnv = {}) => {
    const child = spawn(process.execPath, [path.join(ROOT, entry)], {
      cwd: ROOT,
      env: { ...env, ...partEnv },
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
    byName.set(name, child);
  };
  for (const [name, entry] of entries) launch(name, entry);

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
    fs.rmSync(keysDir, { recursive: true, force: true });
    await deleteQueues(
      env.AMQP_URL,
      [env.STATUS_CONSUMER_NAME, env.AUTH_CONSUMER_NAME].flatMap((name) => [`kasa.${name}`, `kasa.${name}.dlq`]),
    );
  };

  const closed = closeAtTeardown('a platform', stop);
  /**
   * Waits for a service to be ready. One that is alive but not ready after 60 s is killed and started again once, as
   * its supervisor (the launcher, Kubernetes) would; that is said on stderr with its last lines, so a start that hangs
   * stays visible in the run's log.
   */
  const becomeReady = async (name: 'auth' | 'chat' | 'voice' | 'status') => {
    const url = `http://127.0.0.1:${ports[name]}/readyz`;
    try {
      await waitFor(url, 60_000, (status) => status === 200);
    } catch (err) {
      const child = byName.get(name)!;
      if (child.exitCode !== null || child.signalCode !== null) throw err;
      const own = logs.filter((line) => line.startsWith(`[${name}]`)).slice(-10);
      process.stderr.write(`platform: ${name} was not ready after 60 s; starting it again once\n${own.join('\n')}\n`);
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      });
      launch(name, entries.find(([n]) => n === name)![1]);
      await waitFor(url, 60_000, (status) => status === 200);
    }
  };
  try {
    await Promise.all((['auth', 'chat', 'voice', 'status'] as const).map(becomeReady));
    await waitFor(`http://127.0.0.1:${gateway}/api/openapi.json`, 30_000, (s) => s === 200);
    await gatewayHearsRevocations(admin);
  } catch (err) {
    // Which parts had already exited (a crash at start), before stop() ends the others.
    const exited = [...byName].filter(([, child]) => child.exitCode !== null || child.signalCode !== null);
    const exits = exited.map(
      ([name, child]) => `[${name}] exited (${child.exitCode ?? child.signalCode}) before it was ready`,
    );
    await stop();
    throw new Error(`${(err as Error).message}\n${[...exits, ...logs.slice(-40)].join('\n')}${databaseLogTail()}`);
  }
  const kill = (name: PlatformPart, signal: NodeJS.Signals = 'SIGKILL') =>
    new Promise<void>((resolve) => {
      const child = byName.get(name)!;
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  const restart = async (name: PlatformPart, extraEnv: NodeJS.ProcessEnv = {}) => {
    launch(name, entries.find(([n]) => n === name)![1], extraEnv);
    if (name === 'gateway') await waitFor(`http://127.0.0.1:${gateway}/api/openapi.json`, 30_000, (s) => s === 200);
    else await waitFor(`http://127.0.0.1:${ports[name]}/readyz`, 60_000, (s) => s === 200);
  };
  const pids = () => {
    const running = Object.fromEntries(entries.map(([name]) => [name, byName.get(name)!.pid!])) as Record<
      PlatformPart,
      number
    >;
    const db = Number(process.env.KASA_TEST_DB_PID);
    return Number.isInteger(db) && db > 0 ? { ...running, db } : running;
  };
  return { baseUrl: `http://127.0.0.1:${gateway}`, ports, logs, stop, kill, restart, pids };
}
