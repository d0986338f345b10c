#!/usr/bin/env node
/**
 * The test run of `npm test` after the build: every suite, in four jest lanes side by side with the type-check, then
 * one measuring phase alone.
 *
 *  - lanes `browser-1` and `browser-2`: the browser suites (tests/e2e), one at a time in each lane, with the suites
 *    that mostly build and run programs outside Node (the Rust, Python and Go SDKs, the SDK quick starts) and the
 *    scaled-out API flows in `browser-2`. `browser-1` takes a fixed list of the longest browser suites (BROWSER_1);
 *    every other browser suite, a new one included, runs in `browser-2`;
 *  - lanes `platform` and `services`: the other suites except the measuring ones, one at a time in each lane:
 *    `platform` the suites under tests/ (most start a whole platform) and the JS SDK's, `services` the rest (each
 *    package's own tests beside its code and in its test/ folder);
 *  - `typecheck`: `npm run typecheck` (every package, frontend, SDK and test, and the Python SDK), beside the lanes;
 *  - then `measured`: the suites that judge the platform under steady load (tests/soak, tests/load), alone, so that
 *    nothing of another lane is part of what they measure.
 *
 * A lane spends much of its time waiting: a browser suite on a page (rendering, animations, streamed replies), a
 * service suite on the broker, the database and the platform it started. On this 2-core machine two lanes left the
 * cores a third idle (7 December: CI's test run used 118 % CPU of 200 %); four lanes share the same work out so that
 * the waits of one fill with the work of another. Each lane has its own range of ports, its own embedded database
 * (tests/jest/globalSetup.js) and every platform its own databases and queues (tests/support/platform.ts), so the
 * lanes never see each other's data. The lanes' lengths were evened out from the per-suite times of a CI run (the
 * run's slowest suites are printed at its end): move a suite between BROWSER_1 and the rest, or between the service
 * lanes' patterns, when one lane ends long after the others.
 *
 * Arguments are passed to every jest run (`npm test -- tests/e2e/chat` runs the matching suites of each lane). Each
 * output line is prefixed with its lane and goes to stderr; stdout gets the slowest suites of the whole run and the
 * whole run's summary in jest's format, unprefixed, then last the plain closing line `tests: N passed, N failed`. The
 * exit code is 0 only when every lane and the type-check passed (and 1 when no test ran at all).
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const readline = require('node:readline');
const { closingLine, slowestSuites, summaryLine } = require('./summaryReporter');

const ROOT = path.resolve(__dirname, '../..');
const JEST = require.resolve('jest/bin/jest');
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const MEASURED = `${escape(ROOT)}/tests/(soak|load)/`;
const BROWSER = `${escape(ROOT)}/(tests/e2e/|sdks/(rust|python|go)/|tests/integration/sdkQuickStarts|tests/scale/apiFlows)`;
/** The browser suites of lane `browser-1`: about half of the browser lane's time in a CI run of 7 December. */
const BROWSER_1 = `${escape(ROOT)}/tests/e2e/(${[
  'chat',
  'developer',
  'accessibility',
  'phone',
  'public-pages',
  'video',
  'voice',
  'handsFree',
  'landing',
  'share',
  'auth',
].join('|')})\\.e2e\\.test\\.ts$`;
/** The suites of lane `platform`: those under tests/ (most start a platform) and the JS SDK's. */
const PLATFORM = `${escape(ROOT)}/(tests/|sdks/js/)`;
/**
 * Each lane is chosen with ignore patterns only (jest takes the union of path patterns, so a lane chosen with one
 * could not be narrowed by a path given on the command line); `only` ignores every path outside the lane.
 */
const only = (pattern) => `^(?!${pattern})`;
const ignore = (...patterns) =>
  ['/node_modules/', '/dist/', ...patterns].map((pattern) => `--testPathIgnorePatterns=${pattern}`);

/**
 * `ports`: the range a lane's platforms listen in (KASA_TEST_PORTS, read by freePort in scripts/embedded-mongo.js):
 * disjoint between lanes that run together, and below Linux's ephemeral range (32768-60999), where outgoing
 * connections and the kernel's own picks would race a port between its probe and its listen.
 */
const phases = [
  [
    { name: 'browser-1', select: ignore(only(BROWSER_1)), ports: '20000-22999' },
    { name: 'browser-2', select: ignore(only(BROWSER), BROWSER_1), ports: '23000-25999' },
    { name: 'platform', select: ignore(only(PLATFORM), BROWSER, MEASURED), ports: '26000-28999' },
    { name: 'services', select: ignore(PLATFORM, BROWSER, MEASURED), ports: '29000-31999' },
    { name: 'typecheck', command: ['npm', 'run', 'typecheck'] },
  ],
  [{ name: 'measured', select: ignore(only(MEASURED)), ports: '20000-25999' }],
];

/**
 * How long a lane may go on after jest wrote its results: jest then only waits for what a test left running (a
 * browser, a server) to end, and would wait for ever. The lane is stopped and counted as failed.
 */
const EXIT_GRACE_MS = 30_000;

/**
 * Runs one lane: a jest process, or a `command` (the type-check); resolves with its exit code and jest's JSON results
 * (null for a command, or when jest wrote none).
 */
function runLane(lane, extraArgs, resultsDir) {
  const outputFile = path.join(resultsDir, `${lane.name}.json`);
  const [program, ...args] = lane.command ?? [
    process.execPath,
    JEST,
    // First: jest's array options (the lane's ignore patterns) would take a path given after them as one of theirs.
    ...extraArgs,
    '--runInBand',
    '--passWithNoTests',
    '--reporters=default',
    '--json',
    `--outputFile=${outputFile}`,
    ...lane.select,
  ];
  const child = spawn(program, args, {
    cwd: ROOT,
    env: { ...process.env, KASA_TEST_LANE: lane.name, ...(lane.ports ? { KASA_TEST_PORTS: lane.ports } : {}) },
    stdio: ['ignore', 'pipe', 'pipe'],
    // A process group of its own, so that a lane that does not end can be stopped with everything it started.
    detached: true,
  });
  running.add(child);
  const prefix = `[${lane.name}] `;
  // Everything the lanes print goes to stderr, as jest's own reporter does: stdout carries only the summary and
  // its closing line, so that a reader of stdout finds one closing line, the run's, and no lane's.
  for (const stream of [child.stdout, child.stderr]) {
    readline.createInterface({ input: stream }).on('line', (line) => process.stderr.write(`${prefix}${line}\n`));
  }
  let stuck = false;
  const watchdog = setInterval(() => {
    if (!fs.existsSync(outputFile)) return;
    clearInterval(watchdog);
    setTimeout(() => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      stuck = true;
      process.stderr.write(
        `${prefix}jest did not exit ${EXIT_GRACE_MS / 1000} s after its run: something a test started is still ` +
          'running (run the lane with --detectOpenHandles to find it); stopping the lane\n',
      );
      stopGroup(child);
    }, EXIT_GRACE_MS).unref();
  }, 1_000);
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      clearInterval(watchdog);
      running.delete(child);
      let results = null;
      try {
        results = JSON.parse(fs.readFileSync(outputFile, 'utf8'));
      } catch {
        /* the run ended before writing its results: its exit code says why */
      }
      resolve({ lane: lane.name, code: stuck ? 1 : (code ?? (signal ? 1 : 0)), results });
    });
  });
}

/** SIGTERM to a lane's whole process group (playwright closes its browsers on it), SIGKILL 5 s later. */
function stopGroup(child, signal = 'SIGTERM') {
  const send = (sig) => {
    try {
      process.kill(-child.pid, sig);
    } catch {
      /* already gone */
    }
  };
  send(signal);
  setTimeout(() => send('SIGKILL'), 5_000).unref();
}

const running = new Set();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of running) stopGroup(child, signal);
    process.exit(130);
  });
}

async function main() {
  const extraArgs = process.argv.slice(2);
  const resultsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-jest-lanes-'));
  const startedAt = Date.now();
  const finished = [];
  try {
    for (const phase of phases) {
      finished.push(...(await Promise.all(phase.map((lane) => runLane(lane, extraArgs, resultsDir)))));
    }
  } finally {
    fs.rmSync(resultsDir, { recursive: true, force: true });
  }

  const suites = finished.flatMap((run) => run.results?.testResults ?? []);
  const totals = { passed: 0, failed: 0, skipped: 0 };
  const suiteTotals = { passed: 0, failed: 0, skipped: 0 };
  for (const run of finished) {
    if (!run.results) continue;
    totals.passed += run.results.numPassedTests;
    totals.failed += run.results.numFailedTests;
    totals.skipped += run.results.numPendingTests + run.results.numTodoTests;
    suiteTotals.passed += run.results.numPassedTestSuites;
    suiteTotals.failed += run.results.numFailedTestSuites;
    suiteTotals.skipped += run.results.numPendingTestSuites;
  }
  const failedLanes = finished.filter((run) => run.code !== 0).map((run) => run.lane);
  process.stdout.write(
    slowestSuites(
      suites.map((suite) => ({ path: suite.name, ms: suite.endTime - suite.startTime })),
      ROOT,
    ),
  );
  process.stdout.write(
    `\n${summaryLine('Test Suites', suiteTotals)}\n` +
      `${'Time:'.padEnd(12)} ${Math.round((Date.now() - startedAt) / 1000)} s` +
      (failedLanes.length ? `; failed lanes: ${failedLanes.join(', ')}` : '') +
      (failedLanes.includes('typecheck')
        ? '\nthe type-check failed: its errors are the lines marked [typecheck]'
        : '') +
      `\n${summaryLine('Tests', totals)}\n${closingLine(totals)}\n`,
  );
  const noTests = totals.passed + totals.failed === 0;
  if (noTests) process.stderr.write('no test matched\n');
  process.exit(failedLanes.length || noTests ? 1 : 0);
}

main().catch((err) => {
  process.stderr.write(`${err.stack ?? err}\n`);
  for (const child of running) stopGroup(child);
  process.exit(1);
});
