// @ts-check
/**
 * `npm run bench -- database`: the embedded database's candidates under the platform's own write and read mix.
 *
 * Each candidate is a MongoDB-wire server started fresh in a temporary folder: FerretDB v1 on SQLite as `npm start`
 * runs it, FerretDB v1 on SQLite with a larger page cache and memory-mapped reads, and FerretDB v1 on the machine's
 * PostgreSQL (skipped when none answers on 127.0.0.1:5432). The same workload runs against each: many concurrent
 * chat turns as the chat and status services now write them (history read, user message, reply placeholder,
 * finished reply, provider attempt, a rollup `$inc` upsert) and a dashboard read of 30 day buckets every tenth turn.
 * Then two properties the design depends on: whether 200 concurrent `$inc` of one document all count, and whether a
 * lookup by an indexed field uses its index (its time in a collection of 5,000 documents).
 * The decision this informs is written in docs/adr/0006-embedded-database-under-load.md.
 */
const { spawn, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { MongoClient, ObjectId } = require('mongodb');
const { ensureFerretDb, freePort, waitForPort } = require('../../scripts/embedded-mongo');

const SECONDS = Number(process.env.KASA_BENCH_DB_SECONDS ?? 20);
const WORKERS = Number(process.env.KASA_BENCH_DB_WORKERS ?? 50);

/** @typedef {{ name: string, args: (dir: string) => string[], prepare?: () => (() => void) | undefined }} Candidate */

/** FerretDB's SQLite flags as scripts/embedded-mongo.js passes them, plus `extra` pragmas. @param {string} extra */
const sqliteArgs = (extra) => (/** @type {string} */ dir) => [
  '--handler=sqlite',
  `--sqlite-url=file:${dir}/?_txlock=immediate&_pragma=synchronous(normal)${extra}`,
  `--state-dir=${dir}`,
];

/** Whether a PostgreSQL answers on 127.0.0.1:5432 as `postgres` without a password (Debian's local default here). */
function postgresReachable() {
  try {
    execFileSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-Atc', 'select 1'], { stdio: 'pipe', timeout: 5_000 });
    return true;
  } catch {
    return false;
  }
}

/** @type {Candidate[]} */
const candidates = [
  { name: 'FerretDB + SQLite (as npm start runs it)', args: sqliteArgs('') },
  {
    name: 'FerretDB + SQLite, 64 MB cache + mmap',
    args: sqliteArgs('&_pragma=cache_size(-65536)&_pragma=mmap_size(268435456)&_pragma=temp_store(memory)'),
  },
  {
    name: 'FerretDB + PostgreSQL 15 (Debian)',
    args: (dir) => [
      '--handler=postgresql',
      `--postgresql-url=postgres://postgres@127.0.0.1:5432/${PG_DB}`,
      `--state-dir=${dir}`,
    ],
    prepare: () => {
      if (!postgresReachable()) return undefined;
      const psql = (/** @type {string} */ sql) =>
        execFileSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-Atc', sql], { stdio: 'pipe' });
      psql(`drop database if exists ${PG_DB}`);
      psql(`create database ${PG_DB}`);
      return () => psql(`drop database if exists ${PG_DB}`);
    },
  },
];
const PG_DB = `kasa_bench_${process.pid}`;

/** @param {number[]} values @param {number} q */
function quantile(values, q) {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

/**
 * Runs the workload against `url` for SECONDS with WORKERS concurrent people.
 * @param {string} url
 */
async function workload(url) {
  const client = new MongoClient(url, { maxPoolSize: 50, serverSelectionTimeoutMS: 10_000 });
  await client.connect();
  const chat = client.db('bench_chat');
  const status = client.db('bench_status');
  const messages = chat.collection('messages');
  const attempts = chat.collection('attempts');
  const buckets = status.collection('usage_days');
  await messages.createIndex({ sessionId: 1, _id: -1 });
  await buckets.createIndex({ userId: 1, day: 1 });

  /** @type {Record<string, number[]>} */
  const latency = { history: [], write: [], dashboard: [] };
  let turns = 0;
  let errors = 0;
  /** @type {string[]} */
  const errorSamples = [];
  const deadline = Date.now() + SECONDS * 1000;
  const timed = async (/** @type {string} */ kind, /** @type {() => Promise<unknown>} */ op) => {
    const start = performance.now();
    await op();
    latency[kind]?.push(performance.now() - start);
  };

  const worker = async (/** @type {number} */ n) => {
    const userId = `user-${n}`;
    const sessionId = new ObjectId();
    while (Date.now() < deadline) {
      try {
        await timed('history', () =>
          messages.find({ sessionId }, { maxTimeMS: 5_000 }).sort({ _id: -1 }).limit(100).toArray(),
        );
        const user = new ObjectId();
        const reply = new ObjectId();
        const now = new Date();
        const common = { sessionId, ownerId: userId, personaId: 'kasa', createdAt: now, updatedAt: now };
        await timed('write', () =>
          messages.insertOne({ _id: user, ...common, role: 'user', content: 'Ɛte sɛn? How are you today?' }),
        );
        await timed('write', () =>
          messages.insertOne({ _id: reply, ...common, role: 'assistant', content: '', status: 'streaming' }),
        );
        await timed('write', () =>
          messages.updateOne(
            { _id: reply },
            { $set: { content: 'Me ho yɛ. '.repeat(40), status: 'complete', provider: 'offline', tokens: 120 } },
          ),
        );
        await timed('write', () =>
          attempts.insertOne({ messageId: reply, provider: 'offline', ok: true, latencyMs: 200, at: now }),
        );
        const day = now.toISOString().slice(0, 10);
        await timed('write', () =>
          buckets.updateOne(
            { _id: `${userId}:${day}`, userId, day },
            { $inc: { calls: 1, messages: 2 } },
            { upsert: true },
          ),
        );
        turns += 1;
        if (turns % 10 === 0) {
          await timed('dashboard', () =>
            buckets
              .find({ userId, day: { $gte: '2026-01-01' } }, { maxTimeMS: 5_000 })
              .limit(31)
              .toArray(),
          );
        }
      } catch (err) {
        errors += 1;
        if (errorSamples.length < 3) errorSamples.push(err instanceof Error ? err.message : String(err));
      }
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: WORKERS }, (_, n) => worker(n)));
  const seconds = (Date.now() - started) / 1000;
  // Atomicity of a single-document update under concurrency: 200 `$inc` of one counter at once must store 200.
  const counters = status.collection('counters');
  await counters.insertOne({ _id: 'c', n: 0 });
  // Bounded: a server that deadlocks on them is reported as such (-1) instead of stalling the benchmark.
  const increments = Promise.all(
    Array.from({ length: 200 }, () => counters.updateOne({ _id: 'c' }, { $inc: { n: 1 } }, { maxTimeMS: 10_000 })),
  );
  const finished = await Promise.race([
    increments.then(() => true),
    new Promise((resolve) => setTimeout(resolve, 30_000, false)),
  ]);
  const concurrentIncrements = finished ? ((await counters.findOne({ _id: 'c' }))?.n ?? 0) : -1;
  // Does a lookup by an indexed field use the index? Time it in a collection of 5,000 documents.
  const lookups = status.collection('lookups');
  for (let i = 0; i < 5_000; i += 500)
    await lookups.insertMany(Array.from({ length: 500 }, (_, j) => ({ key: `k${i + j}`, pad: 'x'.repeat(400) })));
  await lookups.createIndex({ key: 1 });
  const lookupStart = performance.now();
  for (let i = 0; i < 50; i += 1) await lookups.findOne({ key: `k${(i * 97) % 5_000}` }, { maxTimeMS: 5_000 });
  const indexedLookupMs = Number(((performance.now() - lookupStart) / 50).toFixed(2));
  await client.close();
  const figures = (/** @type {number[]} */ v) => ({
    p50Ms: Number(quantile(v, 0.5).toFixed(1)),
    p99Ms: Number(quantile(v, 0.99).toFixed(1)),
  });
  return {
    turnsPerSecond: Number((turns / seconds).toFixed(1)),
    writesPerSecond: Number(((turns * 5) / seconds).toFixed(1)),
    errors,
    errorSamples,
    history: figures(latency.history ?? []),
    write: figures(latency.write ?? []),
    dashboard: figures(latency.dashboard ?? []),
    concurrentIncrements,
    indexedLookupMs,
  };
}

/** @typedef {Awaited<ReturnType<typeof workload>> & { name: string, skipped?: string }} DatabaseBenchRow */

/** Runs the workload against every candidate in turn. @returns {Promise<DatabaseBenchRow[]>} */
async function runDatabaseBench() {
  const binary = ensureFerretDb();
  /** @type {DatabaseBenchRow[]} */
  const results = [];
  for (const candidate of candidates) {
    const cleanup = candidate.prepare?.();
    if (candidate.prepare && !cleanup) {
      results.push({ name: candidate.name, skipped: 'no PostgreSQL on 127.0.0.1:5432', ...(await emptyFigures()) });
      continue;
    }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-bench-db-'));
    const port = await freePort();
    const child = spawn(
      binary,
      [
        ...candidate.args(dir),
        `--listen-addr=127.0.0.1:${port}`,
        '--debug-addr=-',
        '--telemetry=disable',
        '--log-level=error',
      ],
      { stdio: 'ignore' },
    );
    try {
      await waitForPort(port, 30_000);
      results.push({ name: candidate.name, ...(await workload(`mongodb://127.0.0.1:${port}`)) });
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      fs.rmSync(dir, { recursive: true, force: true });
      cleanup?.();
    }
  }
  return results;
}

async function emptyFigures() {
  const zero = { p50Ms: 0, p99Ms: 0 };
  return {
    turnsPerSecond: 0,
    writesPerSecond: 0,
    errors: 0,
    errorSamples: [],
    history: zero,
    write: zero,
    dashboard: zero,
    concurrentIncrements: 0,
    indexedLookupMs: 0,
  };
}

module.exports = { runDatabaseBench, SECONDS, WORKERS };

if (require.main === module) {
  runDatabaseBench().then(
    (rows) => console.log(JSON.stringify(rows, null, 2)),
    (err) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
