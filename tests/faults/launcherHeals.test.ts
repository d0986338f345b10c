import { eventually } from '@kasa/test-kit';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import readline from 'node:readline';
import { closeAtTeardown } from '../support/leftovers';
import { deleteQueues } from '../support/platform';
import { call, register } from './support/faults';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { freePort } = require('../../scripts/embedded-mongo') as { freePort: () => Promise<number> };

/**
 * `npm start`'s launcher (scripts/launcher.js), run as people run it, with its own embedded database and ports: each
 * service and then the gateway is killed (SIGKILL: a crash), the others keep answering, and the launcher starts the
 * killed one again, alone. Then Ctrl-C (SIGINT) stops everything, the database included.
 */
const ROOT = path.resolve(__dirname, '../..');
/**
 * A bound for a hang, not a speed check: a crashed part answers again within 2–5 s on a quiet machine (the budget is
 * 15 s, reported by this suite's log line), and a CI machine running other suites beside this one is far slower.
 */
const READY_WITHIN_MS = 60_000;
/** A bound on stopping, for a hang: services drain for up to 10 s, the database for 5 s (scripts/supervisor.js). */
const STOPPED_WITHIN_MS = 20_000;

type Part = 'auth' | 'chat' | 'voice' | 'status' | 'gateway';
const PARTS: Part[] = ['auth', 'chat', 'voice', 'status', 'gateway'];

let launcher: ChildProcess | undefined;
let exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
const output: string[] = [];
/** The process ids the launcher reported for each part ("chat   | started (pid 1234)"), the running one last. */
const started = new Map<string, number[]>();
let ports: Record<Part | 'admin' | 'mongo', number>;
let baseUrl: string;
let token: string;
let env: NodeJS.ProcessEnv;
const dirs: string[] = [];

const pidOf = (part: string): number | undefined => started.get(part)?.at(-1);
const lastLines = () => output.slice(-60).join('\n');

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Whether a part answers its users: its route through the gateway (the gateway's own health for the gateway). */
async function answers(part: Part): Promise<boolean> {
  const ok = (answer: { status: number }) => answer.status >= 200 && answer.status < 300;
  const timeoutMs = 5_000;
  switch (part) {
    case 'auth':
      return ok(await call(baseUrl, 'GET', '/.well-known/jwks.json', { timeoutMs }));
    case 'chat':
      return ok(await call(baseUrl, 'GET', '/api/personas', { token, timeoutMs }));
    case 'voice':
      return ok(await call(baseUrl, 'GET', '/api/languages', { timeoutMs }));
    case 'status':
      return ok(await call(baseUrl, 'GET', '/api/status', { timeoutMs }));
    case 'gateway':
      // Ready once it holds auth's signing keys: then every route above works through it again.
      return ok(await call(`http://127.0.0.1:${ports.admin}`, 'GET', '/readyz', { timeoutMs }));
  }
}

/** Whether a service answers on its own port (while the gateway in front of it is down). */
async function readyDirectly(part: Exclude<Part, 'gateway'>): Promise<boolean> {
  return (await call(`http://127.0.0.1:${ports[part]}`, 'GET', '/readyz', { timeoutMs: 5_000 })).status === 200;
}

async function stopLauncher(): Promise<void> {
  if (!launcher || launcher.exitCode !== null || launcher.signalCode !== null) return;
  launcher.kill('SIGINT');
  const timer = setTimeout(() => launcher?.kill('SIGKILL'), STOPPED_WITHIN_MS);
  await exited;
  clearTimeout(timer);
}

/** What a failed run leaves: the launcher stopped, and any of its processes still running killed. */
async function cleanUp(): Promise<void> {
  await stopLauncher();
  for (const pids of started.values()) for (const pid of pids) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  const queue = `kasa.${env?.STATUS_CONSUMER_NAME}`;
  if (env) await deleteQueues(env.AMQP_URL, [queue, `${queue}.dlq`]);
}
const forgetCleanUp = closeAtTeardown('the launcher', cleanUp);

beforeAll(async () => {
  const [gateway, admin, auth, chat, voice, status, mongo] = await Promise.all([
    freePort(),
    freePort(),
    freePort(),
    freePort(),
    freePort(),
    freePort(),
    freePort(),
  ]);
  ports = { gateway, admin, auth, chat, voice, status, mongo };
  baseUrl = `http://127.0.0.1:${gateway}`;
  const run = randomUUID().slice(0, 8);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-launcher-db-'));
  const keysDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-launcher-keys-'));
  dirs.push(dataDir, keysDir);
  const { MONGO_URL: _testDatabase, NODE_ENV: _jest, ...inherited } = process.env;
  env = {
    // Without MONGO_URL (the test run's database) and NODE_ENV, the launcher does what `npm start` does: it starts
    // an embedded database of its own, here on a free port with its data in a temporary folder, in production mode.
    ...inherited,
    KASA_MONGO_PORT: String(mongo),
    KASA_MONGO_DATA_DIR: dataDir,
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
    // The status service's queue and counts of this run only (as tests/support/platform.ts does).
    STATUS_CONSUMER_NAME: `status-launcher-${run}`,
    KASA_DEPLOYMENT: `test-launcher-${run}`,
    AUTH_KEYS_DIR: keysDir,
  };

  launcher = spawn(process.execPath, [path.join(ROOT, 'scripts', 'launcher.js')], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  exited = new Promise((resolve) => launcher!.once('exit', (code, signal) => resolve({ code, signal })));
  for (const stream of [launcher.stdout!, launcher.stderr!]) {
    readline.createInterface({ input: stream }).on('line', (line) => {
      output.push(line);
      const match = /^(\w+)\s*\| started \(pid (\d+)\)$/.exec(line);
      if (match) started.set(match[1]!, [...(started.get(match[1]!) ?? []), Number(match[2])]);
    });
  }

  await eventually(() => output.some((line) => line.includes('Kasa is running')), {
    timeoutMs: 100_000,
    intervalMs: 200,
    what: 'the launcher saying that Kasa is running',
    context: lastLines,
  });
  token = (await register(baseUrl, 'launcher')).token;
  for (const part of PARTS) {
    // A bound for a hang: on a CI machine running other suites, a service's first start can take a while.
    await eventually(() => answers(part), {
      timeoutMs: 120_000,
      intervalMs: 200,
      what: `${part} ready`,
      context: lastLines,
    });
  }
}, 240_000);

afterAll(async () => {
  forgetCleanUp();
  await cleanUp();
});

describe('the launcher (npm start)', () => {
  const restartMs: Record<string, number> = {};

  it.each(PARTS)('restarts %s alone after a crash, while the rest keeps answering', async (part) => {
    const pid = pidOf(part)!;
    expect(pid).toBeGreaterThan(0);
    const others = PARTS.filter((p) => p !== part);
    const othersBefore = others.map(pidOf);

    process.kill(pid, 'SIGKILL');
    const killedAt = performance.now();
    await eventually(() => !isAlive(pid), { what: `${part} (pid ${pid}) gone` });

    // The first restart waits 0.5 s and a service takes longer than that to start: these calls find it down. While
    // the gateway is down, the services are asked on their own ports.
    for (const other of others) {
      const up = part === 'gateway' ? await readyDirectly(other as Exclude<Part, 'gateway'>) : await answers(other);
      if (!up) throw new Error(`${other} did not answer while ${part} was down\n${lastLines()}`);
    }

    // Back, as a new process, and answering within the bound: through the gateway and, for a service, on its own
    // port too (the gateway may answer a route such as /api/status from what it last saw while the service starts).
    const restarted = async () =>
      (pidOf(part) ?? pid) !== pid && (await answers(part)) && (part === 'gateway' || (await readyDirectly(part)));
    await eventually(restarted, {
      timeoutMs: READY_WITHIN_MS,
      intervalMs: 100,
      what: `${part} restarted and answering`,
      context: lastLines,
    });
    restartMs[part] = Math.round(performance.now() - killedAt);

    // Only the crashed part was restarted, and the log says which, why and when.
    expect(others.map(pidOf)).toEqual(othersBefore);
    expect(isAlive(pidOf(part)!)).toBe(true);
    expect(output).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^${part}\\s*\\| exited \\(signal SIGKILL: killed .*\\) after \\d+(\\.\\d)? s up; restarting it alone in 0\\.5 s$`,
        ),
      ),
    );
    // The rest of the platform answers through the restarted part (tokens verify after a gateway restart).
    for (const other of others) expect(await answers(other)).toBe(true);
  });

  it('stops everything on Ctrl-C, the embedded database last, and frees its port', async () => {
    console.log(
      `launcher: each part answered again after a SIGKILL within ${Object.entries(restartMs)
        .map(([part, ms]) => `${part} ${ms} ms`)
        .join(', ')}`,
    );
    const pids = [...PARTS, 'db'].map((part) => pidOf(part)!);
    expect(pids.every((pid) => pid > 0)).toBe(true);
    expect(await portIsFree(ports.mongo)).toBe(false);

    const stoppingAt = performance.now();
    launcher!.kill('SIGINT');
    const timer = setTimeout(() => launcher?.kill('SIGKILL'), STOPPED_WITHIN_MS);
    const outcome = await exited;
    clearTimeout(timer);
    const stopMs = Math.round(performance.now() - stoppingAt);
    console.log(`launcher: stopped ${stopMs} ms after SIGINT`);

    expect(outcome).toEqual({ code: 0, signal: null });
    expect(output).toContain('kasa   | stopped');
    expect(pids.filter(isAlive)).toEqual([]);
    expect(await portIsFree(ports.mongo)).toBe(true);
    // Nothing was restarted while stopping.
    expect(output.slice(output.indexOf('kasa   | stopping... (Ctrl-C again to stop at once)'))).not.toContainEqual(
      expect.stringMatching(/restarting it alone/),
    );
  }, 40_000);
});
