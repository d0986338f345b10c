#!/usr/bin/env node
// @ts-check
/**
 * `npm start` / `npm run dev`: starts the whole platform on one machine with readable, prefixed logs.
 * The embedded database (unless MONGO_URL is set), the four services, the gateway, and in --dev the frontends'
 * watch builds. Ctrl-C stops everything in reverse order.
 */
const { spawn } = require('node:child_process');
const net = require('node:net');
const path = require('node:path');
const readline = require('node:readline');
const { prettyFactory } = require('pino-pretty');
const { startEmbeddedMongo, ROOT } = require('./embedded-mongo');

const dev = process.argv.includes('--dev');
const colors = { db: 90, auth: 35, chat: 36, voice: 33, status: 32, gateway: 34, web: 95, kasa: 97 };
const pretty = prettyFactory({
  colorize: process.stdout.isTTY,
  ignore: 'pid,hostname,service,version',
  translateTime: 'SYS:HH:MM:ss',
  singleLine: true,
});

/** @param {keyof typeof colors} name @param {string} line */
function log(name, line) {
  const label = process.stdout.isTTY ? `\x1b[${colors[name]}m${name.padEnd(7)}\x1b[0m` : name.padEnd(7);
  process.stdout.write(`${label}| ${line}\n`);
}

/** pino JSON lines become one readable line; anything else is passed through. @param {string} line */
function readable(line) {
  if (!line.startsWith('{')) return line;
  try {
    return pretty(JSON.parse(line)).trimEnd();
  } catch {
    return line;
  }
}

/** @type {{ name: keyof typeof colors, child: import('node:child_process').ChildProcess }[]} */
const children = [];
let stopping = false;

/** @param {keyof typeof colors} name @param {string} command @param {string[]} args @param {NodeJS.ProcessEnv} env */
function run(name, command, args, env) {
  const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  for (const stream of [child.stdout, child.stderr]) {
    readline.createInterface({ input: stream }).on('line', (line) => log(name, readable(line)));
  }
  child.on('exit', (code, signal) => {
    if (!stopping) log(name, `exited (${signal ?? code}); stopping everything`);
    if (!stopping) void stop(1);
  });
  children.push({ name, child });
  return child;
}

/** @param {string} url */
function tcpReachable(url) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port || 5672), hostname);
    socket.setTimeout(1_500);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
}

/** @param {string} url @param {number} timeoutMs */
async function waitForHttp(url, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !stopping) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1_000) });
      if (res.status < 500) return true;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

/** @type {{ stop(): Promise<void> } | undefined} */
let mongo;

/** @param {number} code */
async function stop(code) {
  if (stopping) return;
  stopping = true;
  log('kasa', 'stopping...');
  await Promise.all(
    children.map(
      ({ child }) =>
        new Promise((resolve) => {
          if (child.exitCode !== null) return resolve(undefined);
          child.once('exit', resolve);
          child.kill('SIGTERM');
          setTimeout(() => child.kill('SIGKILL'), 12_000).unref();
        }),
    ),
  );
  await mongo?.stop();
  log('kasa', 'stopped');
  process.exit(code);
}

async function main() {
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));

  const env = { NODE_ENV: dev ? 'development' : 'production', ...process.env };
  if (!env.MONGO_URL) {
    const port = Number(process.env.KASA_MONGO_PORT ?? 27017);
    log('db', `starting the embedded MongoDB-wire server (FerretDB, SQLite) on 127.0.0.1:${port}, data in .data/mongo`);
    mongo = await startEmbeddedMongo({ dataDir: path.join(ROOT, '.data', 'mongo'), port, stdio: 'inherit' });
    env.MONGO_URL = `mongodb://127.0.0.1:${port}`;
    log('db', 'ready');
  } else {
    log('db', 'using MONGO_URL');
  }

  const amqpUrl = env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
  if (!(await tcpReachable(amqpUrl))) {
    const { hostname, port } = new URL(amqpUrl);
    log(
      'kasa',
      `RabbitMQ is not reachable at ${hostname}:${port || 5672}. Start it (for example \`rabbitmq-server -detached\`,`,
    );
    log(
      'kasa',
      'or `docker compose up rabbitmq`) or set AMQP_URL. Services start anyway and report not ready until it answers.',
    );
  }

  for (const service of ['auth', 'chat', 'voice', 'status']) {
    run(/** @type {keyof typeof colors} */ (service), process.execPath, [`services/${service}/dist/index.js`], env);
  }
  run('gateway', process.execPath, ['gateway/dist/index.js'], env);
  if (dev) {
    for (const app of ['marketing', 'chat', 'developer', 'shell']) {
      run('web', 'npm', ['run', 'dev', '-w', `@kasa/${app}-app`], env);
    }
  }

  const port = env.GATEWAY_PORT ?? '8080';
  if (await waitForHttp(`http://127.0.0.1:${port}/api/status`, 60_000)) {
    log('kasa', `Kasa is running: open http://localhost:${port}  (Ctrl-C stops it)`);
  } else if (!stopping) {
    log('kasa', `the gateway did not answer on port ${port} within 60 s; see the logs above`);
  }
}

main().catch((err) => {
  log('kasa', `could not start: ${err instanceof Error ? err.message : String(err)}`);
  void stop(1);
});
