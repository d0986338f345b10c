#!/usr/bin/env node
// @ts-check
/**
 * `npm start` / `npm run dev`: starts the whole platform on one machine with readable, prefixed logs.
 * The embedded database (unless MONGO_URL is set), the four services, the gateway, and in --dev the frontends'
 * watch builds. A part that exits is restarted alone, with backoff (scripts/supervisor.js), while the rest goes on
 * serving. Ctrl-C stops the services, the gateway and the watch builds, then the database; a second Ctrl-C kills
 * whatever is left at once.
 */
const { execFile, spawn } = require('node:child_process');
const net = require('node:net');
const path = require('node:path');
const readline = require('node:readline');
const { prettyFactory } = require('pino-pretty');
const { startEmbeddedMongo, ROOT } = require('./embedded-mongo');
const { createSupervisor } = require('./supervisor');

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

const supervisor = createSupervisor({ log: (name, line) => log(labelOf(name), line) });

/** The colour label of a supervised part: `web marketing` is shown as `web`. @param {string} name */
const labelOf = (name) => /** @type {keyof typeof colors} */ (name.split(' ')[0]);

/**
 * Starts a part as a child process whose output becomes our log lines, restarted alone whenever it exits.
 * @param {string} name @param {string} command @param {string[]} args @param {NodeJS.ProcessEnv} env
 */
function run(name, command, args, env) {
  return supervisor.supervise(
    name,
    () => {
      const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
      for (const stream of [child.stdout, child.stderr]) {
        readline.createInterface({ input: stream }).on('line', (line) => log(labelOf(name), readable(line)));
      }
      return child;
    },
    { layer: 1 },
  );
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
  while (Date.now() < deadline && !supervisor.stopping) {
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

/** @param {number} port @returns {Promise<boolean>} whether nothing listens on 127.0.0.1:port */
function portIsFree(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * The embedded database, supervised like the rest: if it dies, it is started again on the same port and data (the
 * services reconnect by themselves and report not ready meanwhile), and it is stopped last.
 * @param {number} port @param {string} dataDir
 */
async function startDatabase(port, dataDir) {
  // A database left running (say, by a launcher that was killed) would answer in place of ours, with other data.
  if (!(await portIsFree(port))) {
    throw new Error(
      `port ${port} is in use: another MongoDB, or a database a stopped launcher left running? ` +
        'Stop it, or set KASA_MONGO_PORT or MONGO_URL',
    );
  }
  log('db', `starting the embedded MongoDB-wire server (FerretDB, SQLite) on 127.0.0.1:${port}, data in ${dataDir}`);
  await supervisor.supervise(
    'db',
    async () => (await startEmbeddedMongo({ dataDir, port, stdio: 'inherit' })).process,
    { layer: 0, stopTimeoutMs: 5_000 },
  );
  log('db', 'ready');
}

/** Stops everything once, however often it is asked; a second Ctrl-C while stopping kills what is left. */
let stoppingSince = 0;

/** @param {number} code */
async function stop(code) {
  if (stoppingSince) return;
  stoppingSince = Date.now();
  log('kasa', 'stopping... (Ctrl-C again to stop at once)');
  await supervisor.stop();
  log('kasa', 'stopped');
  process.exit(code);
}

function onSignal() {
  if (!stoppingSince) return void stop(0);
  // One Ctrl-C may arrive twice: from the terminal, and forwarded by `npm start` to its script, which may be us.
  if (Date.now() - stoppingSince < 200) return;
  log('kasa', 'stopping at once');
  supervisor.kill();
  process.exit(130);
}

/** The services' default ports, by the prefix of their variables (AUTH_PORT, AUTH_SERVICE_URL...). */
const SERVICE_PORTS = { AUTH: 4001, CHAT: 4002, VOICE: 4003, STATUS: 4004 };

/**
 * The environment every part is started with: production mode unless --dev, the built-in payment provider (the
 * platform on one machine takes no real money unless told to, and the web app shows its test-mode banner; a
 * deployment without a processor sells nothing instead, services/auth/README.md), and each service's address on
 * this machine. Production mode requires every peer's address (`serviceUrl` in the service kit refuses a loopback
 * default there), and here every part does listen on loopback, at its port. What `base` sets wins.
 * @param {NodeJS.ProcessEnv} base @param {{ dev: boolean }} options @returns {NodeJS.ProcessEnv}
 */
function launcherEnv(base, options) {
  /** @type {NodeJS.ProcessEnv} */
  const env = { NODE_ENV: options.dev ? 'development' : 'production', KASA_PAYMENTS: 'builtin', ...base };
  for (const [name, port] of Object.entries(SERVICE_PORTS)) {
    env[`${name}_SERVICE_URL`] ??= `http://127.0.0.1:${env[`${name}_PORT`] || port}`;
  }
  return env;
}

async function main() {
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // The terminal was closed: without this, we would die at once and leave the database running on its port.
  process.on('SIGHUP', onSignal);

  const env = launcherEnv(process.env, { dev });
  if (!env.MONGO_URL) {
    const port = Number(process.env.KASA_MONGO_PORT ?? 27017);
    await startDatabase(port, process.env.KASA_MONGO_DATA_DIR || path.join(ROOT, '.data', 'mongo'));
    env.MONGO_URL = `mongodb://127.0.0.1:${port}`;
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

  /** @type {Promise<void>[]} */
  const started = [];
  for (const service of ['auth', 'chat', 'voice', 'status']) {
    started.push(run(service, process.execPath, [`services/${service}/dist/index.js`], env));
  }
  started.push(run('gateway', process.execPath, ['gateway/dist/index.js'], env));
  if (dev) {
    // Restarted like the rest: a watch build that died would otherwise leave the page on stale files, silently.
    for (const app of ['marketing', 'chat', 'developer', 'admin', 'shell']) {
      started.push(run(`web ${app}`, 'npm', ['run', 'dev', '-w', `@kasa/${app}-app`], env));
    }
  }
  await Promise.all(started);

  const port = env.GATEWAY_PORT ?? '8080';
  if (await waitForHttp(`http://127.0.0.1:${port}/api/status`, 60_000)) {
    log('kasa', `Kasa is running: open http://localhost:${port}  (Ctrl-C stops it)`);
    printSetupLink(env);
  } else if (!supervisor.stopping) {
    log('kasa', `the gateway did not answer on port ${port} within 60 s; see the logs above`);
  }
}

/**
 * While nobody is this installation's operator, prints the first-run setup link (`npm run kasa -- setup-link
 * --if-none`): whoever started Kasa opens it, signed in, and runs it from then on. Nothing is printed afterwards.
 * @param {NodeJS.ProcessEnv} env
 */
function printSetupLink(env) {
  const command = path.join(ROOT, 'services/auth/dist/operators/operatorCommand.js');
  execFile(process.execPath, [command, 'setup-link', '--if-none'], { env, timeout: 30_000 }, (err, stdout) => {
    if (err) return log('kasa', 'could not make the first-run setup link: `npm run kasa -- setup-link` tries again');
    for (const line of stdout.split('\n').filter(Boolean)) log('kasa', line);
  });
}

module.exports = { launcherEnv };

if (require.main === module) {
  main().catch((err) => {
    log('kasa', `could not start: ${err instanceof Error ? err.message : String(err)}`);
    void stop(1);
  });
}
