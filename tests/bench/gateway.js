#!/usr/bin/env node
/**
 * Gateway benchmark (ARCHITECTURE.md, "Budgets"): what the gateway costs over calling a service directly.
 *
 *  - throughput at saturation: a hello-world upstream, 50 connections for 10 s, directly and through the gateway
 *    (a public route, and a protected one with a bearer token); budget: gateway >= 30 % of direct. The 10 s of
 *    each are given in alternating 2 s blocks, like the latency runs below.
 *  - added latency at a steady 500 req/s: p50 and p99 through the gateway minus direct; budget: <= 1 ms p50 and
 *    <= 5 ms p99. Measured with microsecond timers (autocannon's histogram only has whole milliseconds), in
 *    alternating 2 s blocks of direct and gateway traffic, so that noise on the machine hits both alike.
 *
 * The upstream and the gateway (the built one: gateway/dist, so `npm run build` first) run as child processes, the
 * load generator in this one. `runGatewayBench()` returns the figures; run directly, it also prints them.
 */
const { spawn } = require('node:child_process');
const { generateKeyPairSync, randomUUID } = require('node:crypto');
const { existsSync } = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const autocannon = require('autocannon');
const jwt = require('jsonwebtoken');
const { Pool } = require('undici');

const ROOT = path.resolve(__dirname, '..', '..');
const GATEWAY_ENTRY = path.join(ROOT, 'gateway', 'dist', 'index.js');

const BUDGET = { minThroughputRatio: 0.3, maxAddedP50Ms: 0.5, maxAddedP99Ms: 2 };

/** The stand-in service: "hello world" on every path, plus the JWKS the gateway verifies tokens with. */
const UPSTREAM_SOURCE = `
const http = require('node:http');
const jwks = process.env.BENCH_JWKS;
const server = http.createServer((req, res) => {
  if (req.url === '/.well-known/jwks.json') {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(jwks) });
    res.end(jwks);
    return;
  }
  res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '11' });
  res.end('hello world');
});
server.keepAliveTimeout = 65000;
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.send && process.send('ready'));
process.on('disconnect', () => process.exit(0));
`;

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(url, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
    await sleep(100);
  }
}

function startChild(name, args, env) {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  child.on('exit', (code, signal) => {
    if (code && !child.killedByBench)
      process.stderr.write(`[bench] ${name} exited with ${code ?? signal}\n${stderr}\n`);
  });
  return child;
}

function stopChild(child) {
  if (!child || child.exitCode !== null) return Promise.resolve();
  child.killedByBench = true;
  return new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
  });
}

/**
 * Requests per second at saturation for each target: a 2 s warm-up each (JIT, connection pools), then `durationS`
 * of load per target, given in alternating 2 s blocks (direct, gateway, direct, ...), so that whatever else runs on
 * the machine meanwhile weighs on every target alike. Any non-2xx answer or error fails the benchmark.
 */
async function saturate(targets, { connections, durationS, blockS = 2 }) {
  const totals = new Map(targets.map((t) => [t.name, { requests: 0, seconds: 0 }]));
  const run = async (target, seconds) => {
    const result = await autocannon({ url: target.url, connections, duration: seconds, headers: target.headers });
    if (result.non2xx || result.errors || result.timeouts) {
      throw new Error(
        `${target.url}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts under load`,
      );
    }
    return result;
  };
  for (const target of targets) await run(target, 2);
  const rounds = Math.max(1, Math.round(durationS / blockS));
  for (let i = 0; i < rounds; i++) {
    for (const target of targets) {
      const result = await run(target, blockS);
      const total = totals.get(target.name);
      total.requests += result.requests.total;
      total.seconds += result.duration;
    }
  }
  const rps = {};
  for (const [name, total] of totals) rps[name] = total.requests / total.seconds;
  return rps;
}

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/**
 * Latency at a fixed request rate: sends requests paced at `rate` per second (each timed from send to last byte,
 * in microseconds), switching between the targets every `blockMs`, until each got `perTargetMs` of traffic.
 */
async function pacedLatency(targets, { rate, perTargetMs, blockMs }) {
  const samples = new Map(targets.map((t) => [t.name, []]));
  const pools = new Map(
    targets.map((t) => [t.name, new Pool(new URL(t.url).origin, { connections: 16, pipelining: 1 })]),
  );
  const send = async (target, record) => {
    const { pathname, search } = new URL(target.url);
    const started = process.hrtime.bigint();
    const res = await pools
      .get(target.name)
      .request({ method: 'GET', path: pathname + search, headers: target.headers });
    await res.body.dump();
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (res.statusCode !== 200) throw new Error(`${target.url} answered ${res.statusCode}`);
    if (record) samples.get(target.name).push(ms);
  };

  const intervalMs = 1000 / rate;
  const runBlock = async (target, durationMs, record) => {
    const inFlight = [];
    const start = performance.now();
    let sent = 0;
    while (performance.now() - start < durationMs) {
      const due = Math.floor((performance.now() - start) / intervalMs) + 1;
      while (sent < due) {
        sent++;
        inFlight.push(send(target, record));
      }
      await sleep(Math.max(0, start + sent * intervalMs - performance.now()));
    }
    await Promise.all(inFlight);
  };
  // Warm-up at the same rate (JIT, connections), not recorded.
  for (const target of targets) await runBlock(target, 1_000, false);

  const blocks = Math.max(1, Math.round(perTargetMs / blockMs));
  for (let i = 0; i < blocks; i++) for (const target of targets) await runBlock(target, blockMs, true);
  await Promise.all([...pools.values()].map((pool) => pool.close()));

  const out = {};
  for (const [name, values] of samples) {
    const sorted = values.sort((a, b) => a - b);
    out[name] = {
      count: sorted.length,
      p50: percentile(sorted, 50),
      p90: percentile(sorted, 90),
      p99: percentile(sorted, 99),
    };
  }
  return out;
}

const round = (value, digits = 3) => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * Runs the gateway benchmark and returns its figures (see the file comment). Options: `connections` (50),
 * `durationS` (10), `rate` (500), `latencyS` (10 per target).
 */
async function runGatewayBench(options = {}) {
  const connections = options.connections ?? 50;
  const durationS = options.durationS ?? 10;
  const rate = options.rate ?? 500;
  const latencyMs = (options.latencyS ?? 10) * 1000;
  if (!existsSync(GATEWAY_ENTRY))
    throw new Error(`${path.relative(ROOT, GATEWAY_ENTRY)} is missing: run \`npm run build\` first`);

  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = 'bench';
  const jwks = JSON.stringify({ keys: [{ ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' }] });
  const token = jwt.sign({ sub: 'bench-user', username: 'bench', tier: 'pro' }, privateKey, {
    algorithm: 'RS256',
    keyid: kid,
    issuer: 'kasa-auth',
    audience: 'kasa',
    expiresIn: 3600,
    jwtid: randomUUID(),
  });

  const [upstreamPort, gatewayPort, adminPort] = await Promise.all([freePort(), freePort(), freePort()]);
  const upstreamUrl = `http://127.0.0.1:${upstreamPort}`;
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  let upstream;
  let gateway;
  try {
    upstream = startChild('upstream', ['-e', UPSTREAM_SOURCE], { PORT: String(upstreamPort), BENCH_JWKS: jwks });
    gateway = startChild('gateway', [GATEWAY_ENTRY], {
      GATEWAY_PORT: String(gatewayPort),
      GATEWAY_ADMIN_PORT: String(adminPort),
      AUTH_SERVICE_URL: upstreamUrl,
      CHAT_SERVICE_URL: upstreamUrl,
      VOICE_SERVICE_URL: upstreamUrl,
      STATUS_SERVICE_URL: upstreamUrl,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      // The quota policy still counts every call with the token; limits this high only keep it from refusing them.
      API_RATE_LIMIT_PER_MINUTE: '1000000000',
      PLAN_PRO_MONTHLY_CALLS: 'unlimited',
      // The same for the per-address limit of the public route measured (it still counts every request).
      PUBLIC_RATE_LIMIT_MAX: '1000000000',
    });
    await waitFor(`${upstreamUrl}/api/status`, 10_000);
    await waitFor(`${gatewayUrl}/api/status`, 30_000);
    const auth = { authorization: `Bearer ${token}` };

    const rps = await saturate(
      [
        { name: 'direct', url: `${upstreamUrl}/api/status` },
        { name: 'gateway', url: `${gatewayUrl}/api/status` },
        { name: 'gatewayWithToken', url: `${gatewayUrl}/api/personas`, headers: auth },
      ],
      { connections, durationS },
    );
    const direct = { rps: rps.direct };
    const viaGateway = { rps: rps.gateway };
    const viaGatewayWithToken = { rps: rps.gatewayWithToken };

    const latency = await pacedLatency(
      [
        { name: 'direct', url: `${upstreamUrl}/api/status` },
        { name: 'gateway', url: `${gatewayUrl}/api/status` },
      ],
      { rate, perTargetMs: latencyMs, blockMs: 2_000 },
    );

    const ratio = viaGateway.rps / direct.rps;
    const addedP50 = latency.gateway.p50 - latency.direct.p50;
    const addedP99 = latency.gateway.p99 - latency.direct.p99;
    return {
      machine: { cpus: require('node:os').cpus().length, node: process.version },
      throughput: {
        connections,
        durationS,
        directRps: Math.round(direct.rps),
        gatewayRps: Math.round(viaGateway.rps),
        gatewayWithTokenRps: Math.round(viaGatewayWithToken.rps),
        ratio: round(ratio),
        ratioWithToken: round(viaGatewayWithToken.rps / direct.rps),
      },
      latency: {
        rate,
        samplesPerTarget: latency.gateway.count,
        directMs: { p50: round(latency.direct.p50), p90: round(latency.direct.p90), p99: round(latency.direct.p99) },
        gatewayMs: {
          p50: round(latency.gateway.p50),
          p90: round(latency.gateway.p90),
          p99: round(latency.gateway.p99),
        },
        addedP50Ms: round(addedP50),
        addedP99Ms: round(addedP99),
      },
      budget: BUDGET,
      withinBudget: {
        throughput: ratio >= BUDGET.minThroughputRatio,
        addedP50: addedP50 <= BUDGET.maxAddedP50Ms,
        addedP99: addedP99 <= BUDGET.maxAddedP99Ms,
      },
    };
  } finally {
    await Promise.all([stopChild(gateway), stopChild(upstream)]);
  }
}

function printTable(r) {
  const pct = (x) => `${(x * 100).toFixed(1)} %`;
  const ok = (b) => (b ? 'ok' : 'OVER BUDGET');
  const rows = [
    ['throughput, direct', `${r.throughput.directRps} req/s`, ''],
    [
      'throughput, via gateway (public route)',
      `${r.throughput.gatewayRps} req/s`,
      `${pct(r.throughput.ratio)} of direct (budget >= 30 %): ${ok(r.withinBudget.throughput)}`,
    ],
    [
      'throughput, via gateway (JWT route)',
      `${r.throughput.gatewayWithTokenRps} req/s`,
      `${pct(r.throughput.ratioWithToken)} of direct`,
    ],
    [
      `latency p50 at ${r.latency.rate} req/s, direct / gateway`,
      `${r.latency.directMs.p50} / ${r.latency.gatewayMs.p50} ms`,
      `+${r.latency.addedP50Ms} ms (budget <= 0.5 ms): ${ok(r.withinBudget.addedP50)}`,
    ],
    [
      `latency p99 at ${r.latency.rate} req/s, direct / gateway`,
      `${r.latency.directMs.p99} / ${r.latency.gatewayMs.p99} ms`,
      `+${r.latency.addedP99Ms} ms (budget <= 2 ms): ${ok(r.withinBudget.addedP99)}`,
    ],
  ];
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((row) => row[i].length)));
  process.stdout.write(
    `\nGateway benchmark (${r.machine.cpus} CPUs, Node ${r.machine.node}, ${r.throughput.connections} connections x ${r.throughput.durationS} s)\n`,
  );
  for (const row of rows) process.stdout.write(`  ${row.map((cell, i) => cell.padEnd(widths[i])).join('  ')}\n`);
  process.stdout.write('\n');
}

module.exports = { runGatewayBench, printTable };

if (require.main === module) {
  runGatewayBench().then(
    (result) => {
      printTable(result);
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    },
    (err) => {
      process.stderr.write(`gateway benchmark failed: ${err.stack ?? err}\n`);
      process.exit(1);
    },
  );
}
