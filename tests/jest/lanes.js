#!/usr/bin/env node
/**
 * The jest run of `npm test`: every suite, in two lanes side by side and then one measuring phase alone.
 *
 *  - lane `browser`: the browser suites (tests/e2e), one at a time, and the suites that mostly build and run programs
 *    outside Node (the Rust, Python and Go SDKs, the SDK quick starts) and the scaled-out API flows, which even out
 *    the two lanes' lengths;
 *  - lane `services`: every other suite except the measuring ones, one at a time;
 *  - then `measured`: the suites that judge the platform under steady load (tests/soak, tests/load), alone, so that
 *    nothing of another lane is part of what they measure.
 *
 * A browser suite spends much of its time waiting on a page (rendering, animations, network idle) and a service
 * suite on the broker and the database, so the two lanes share the machine's two cores instead of leaving one idle.
 * Two browser suites at once slow each other far more: with the suites handed to two jest workers in any order,
 * the browser suites took a third longer in all and the run was longer (7 December). Each lane has its own range of
 * ports, and every platform its own databases and queues (tests/support/platform.ts), so the lanes never see each
 * other's data.
 *
 * Arguments are passed to every jest run (`npm test -- tests/e2e/chat` runs the matching suites of each lane). Each
 * output line is prefixed with its lane and goes to stderr; stdout gets the slowest suites of the whole run and the
 * whole run's summary in jest's format, unprefixed, then last the plain closing line `tests: N passed, N failed`. The exit code
 * is jest's: 0 only when every run passed (and 1 when no test ran at all).
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
    { name: 'browser', select: ignore(only(BROWSER)), ports: '20000-25999' },
    { name: 'services', select: ignore(BROWSER, MEASURED), ports: '26000-31999' },
  ],
  [{ name: 'measured', select: ignore(only(MEASURED)), ports: '20000-25999' }],
];

/**
 * How long a lane may go on after jest wrote its results: jest then only waits for what a test left running (a
 * browser, a server) to end, and would wait for ever. The lane is stopped and counted as failed.
 */
const EXIT_GRACE_MS = 30_000;

/** Runs one jest process for a lane; resolves with its exit code and its JSON results (null if it wrote none). */
function runLane(lane, extraArgs, resultsDir) {
  const outputFile = path.join(resultsDir, `${lane.name}.json`);
  const args = [
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
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, KASA_TEST_LANE: lane.name, KASA_TEST_PORTS: lane.ports },
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
