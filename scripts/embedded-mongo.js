// @ts-check
/**
 * The embedded MongoDB-wire server used when MONGO_URL is not set: FerretDB v1 with its SQLite backend, data under
 * a folder of ours. Used by the launcher (`npm start`) and by the test setup.
 */
const { spawn, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const BINARY = path.join(ROOT, '.bin', 'ferretdb');

/** Builds FerretDB into .bin/ once (minutes the first time, instant after). */
function ensureFerretDb(log = (/** @type {string} */ line) => process.stderr.write(`${line}\n`)) {
  if (!fs.existsSync(BINARY)) log('Preparing the embedded database (FerretDB); the first build takes a few minutes...');
  execFileSync('bash', [path.join(ROOT, 'scripts', 'ensure-ferretdb.sh')], { stdio: 'inherit' });
  return BINARY;
}

/** @param {number} port @returns {Promise<boolean>} whether a listener can bind 127.0.0.1:port now */
function canListen(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * KASA_TEST_PORTS ("from-to"), set per lane by tests/jest/lanes.js: this process hands out ports of that range only,
 * in turn from a random place. A port the kernel picks (listen on port 0) comes from the ephemeral range,
 * where, between the probe and the real listen a moment later, another lane's probe or any outgoing connection can
 * take it (seen: a gateway's EADDRINUSE with two lanes running). The lanes' ranges are disjoint and below the
 * ephemeral range, so only a port listening already is in the way, and the probe sees that.
 */
const portRange = (() => {
  const match = /^(\d+)-(\d+)$/.exec(process.env.KASA_TEST_PORTS ?? '');
  if (!match) return null;
  const [from, to] = [Number(match[1]), Number(match[2])];
  return { from, size: to - from + 1, next: Math.floor(Math.random() * (to - from + 1)) };
})();

/** @returns {Promise<number>} a free TCP port on 127.0.0.1 */
async function freePort() {
  if (portRange) {
    for (let tries = 0; tries < portRange.size; tries += 1) {
      const port = portRange.from + (portRange.next++ % portRange.size);
      if (await canListen(port)) return port;
    }
    throw new Error(`no free port left in KASA_TEST_PORTS=${process.env.KASA_TEST_PORTS}`);
  }
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** @param {number} port @param {number} timeoutMs */
async function waitForPort(port, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const open = await new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`The embedded database did not start listening on port ${port} within ${timeoutMs} ms`);
}

/**
 * Starts FerretDB on the given port (a free one when 0) keeping its data in dataDir. What it prints goes to the
 * terminal (`stdio: 'inherit'`, the launcher) or else to `logFile` (default: embedded-db.log in dataDir). Never to a
 * pipe: one that nobody reads fills after 64 KiB of log lines, and then every write of the database's logger, and
 * with it every connection that logs, blocks for good (seen late in long test runs: all services lost the database
 * at the same second).
 * @param {{ dataDir: string, port?: number, stdio?: 'inherit' | 'ignore', logFile?: string }} options
 */
async function startEmbeddedMongo(options) {
  const binary = ensureFerretDb();
  const port = options.port || (await freePort());
  fs.mkdirSync(options.dataDir, { recursive: true });
  const logFd =
    options.stdio === undefined
      ? fs.openSync(options.logFile ?? path.join(options.dataDir, 'embedded-db.log'), 'a')
      : null;
  const child = spawn(
    binary,
    [
      '--handler=sqlite',
      // BEGIN IMMEDIATE: a write transaction takes SQLite's write lock up front, so concurrent writers wait (busy
      // timeout 10 s) instead of failing with SQLITE_BUSY when a read transaction tries to upgrade mid-way.
      // synchronous=NORMAL: in WAL mode a commit no longer waits for an fsync (the WAL is synced at checkpoints);
      // a crash of the process loses nothing, a power cut may lose the last commits — right for a dev database.
      // cache_size=-128: each connection's page cache holds at most 128 KiB (SQLite's default is 2 MiB): every
      // connection fills a cache of its own, and up to 100 per database may be open. In the 30-minute soak 128 KiB
      // held the database 1.2 MB lower than 512 KiB at the same speed; a page not held is read from the OS's cache
      // (microseconds).
      `--sqlite-url=file:${options.dataDir}/?_txlock=immediate&_pragma=synchronous(normal)&_pragma=cache_size(-128)`,
      `--state-dir=${options.dataDir}`,
      `--listen-addr=127.0.0.1:${port}`,
      // Go runtime and Prometheus metrics (/debug/metrics) for profiling the database; off unless asked for.
      `--debug-addr=${process.env.KASA_EMBEDDED_DB_DEBUG_ADDR || '-'}`,
      '--telemetry=disable',
      '--log-level=error',
    ],
    {
      stdio: logFd === null ? options.stdio : ['ignore', logFd, logFd],
      // memprofilerate=0: no heap-profile sampling. Go samples an allocation every 512 KB and keeps each sampled call
      // stack in a table that only grows (about 0.3 MB per 7 minutes of mixed traffic, for good); nobody reads those
      // profiles unless the debug address is set for profiling, and then they stay on.
      env: process.env.KASA_EMBEDDED_DB_DEBUG_ADDR
        ? process.env
        : { ...process.env, GODEBUG: [process.env.GODEBUG, 'memprofilerate=0'].filter(Boolean).join(',') },
    },
  );
  // The child holds its own copy of the descriptor.
  if (logFd !== null) fs.closeSync(logFd);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await Promise.race([
    waitForPort(port, 30_000),
    exited.then((code) => {
      throw new Error(`The embedded database exited early with code ${code}`);
    }),
  ]);
  return {
    url: `mongodb://127.0.0.1:${port}`,
    port,
    process: child,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      /** @type {NodeJS.Timeout | undefined} */
      let timer;
      await Promise.race([exited, new Promise((r) => (timer = setTimeout(r, 5_000)))]);
      clearTimeout(timer);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

module.exports = { ensureFerretDb, startEmbeddedMongo, freePort, waitForPort, ROOT };
