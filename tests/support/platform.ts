import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { freePort } = require('../../scripts/embedded-mongo') as { freePort: () => Promise<number> };

const ROOT = path.resolve(__dirname, '../..');

export interface RunningPlatform {
  baseUrl: string;
  ports: Record<'gateway' | 'auth' | 'chat' | 'voice' | 'status' | 'admin', number>;
  /** Everything the processes printed, for a failing test to show. */
  logs: string[];
  stop(): Promise<void>;
}

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
 * Starts the real services and gateway from their built output (npm test builds first), on free ports, with
 * databases of their own on the test run's MongoDB-wire server. No part is mocked.
 */
export async function startPlatform(extraEnv: NodeJS.ProcessEnv = {}): Promise<RunningPlatform> {
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
    WEB_ORIGIN: `http://localhost:${gateway}`,
    AUTH_DB_NAME: `kasa_auth_${run}`,
    CHAT_DB_NAME: `kasa_chat_${run}`,
    VOICE_DB_NAME: `kasa_voice_${run}`,
    STATUS_DB_NAME: `kasa_status_${run}`,
    AUTH_KEYS_DIR: keysDir,
    ...extraEnv,
  };
  const logs: string[] = [];
  const children: ChildProcess[] = [];
  const entries: Array<[string, string]> = [
    ['auth', 'services/auth/dist/index.js'],
    ['chat', 'services/chat/dist/index.js'],
    ['voice', 'services/voice/dist/index.js'],
    ['status', 'services/status/dist/index.js'],
    ['gateway', 'gateway/dist/index.js'],
  ];
  for (const [name, entry] of entries) {
    const child = spawn(process.execPath, [path.join(ROOT, entry)], {
      cwd: ROOT,
      env,
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
  }

  const stop = async () => {
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
  };

  try {
    await Promise.all(
      (['auth', 'chat', 'voice', 'status'] as const).map((name) =>
        waitFor(`http://127.0.0.1:${ports[name]}/readyz`, 60_000, (s) => s === 200),
      ),
    );
    await waitFor(`http://127.0.0.1:${gateway}/api/openapi.json`, 30_000, (s) => s === 200);
  } catch (err) {
    await stop();
    throw new Error(`${(err as Error).message}\n${logs.slice(-40).join('\n')}`);
  }
  return { baseUrl: `http://127.0.0.1:${gateway}`, ports, logs, stop };
}
