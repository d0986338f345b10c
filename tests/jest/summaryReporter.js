// Prints the slowest suites (where CI time goes), the run's counts in jest's own summary format
// (`Tests:       1 failed, 1952 passed, 1953 total`) and, last, the plain closing line that any CI log reader
// understands whatever the test runner: `tests: 1952 passed, 1 failed` (`, N skipped` after it when any were).
// tests/jest/lanes.js prints the same for a run in several lanes, whose own jest summaries carry a lane prefix.
const path = require('node:path');

const SLOWEST_SHOWN = 15;

/** @param {Array<{ path: string, ms: number }>} suites @param {string} root @returns {string} */
function slowestSuites(suites, root) {
  const slowest = suites
    .filter((suite) => Number.isFinite(suite.ms))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, SLOWEST_SHOWN);
  if (slowest.length <= 1) return '';
  const lines = slowest.map((s) => `  ${(s.ms / 1000).toFixed(1).padStart(7)} s  ${path.relative(root, s.path)}`);
  return `\nslowest suites:\n${lines.join('\n')}\n`;
}

/**
 * jest's own wording and order: failed, skipped, passed, total; a count of zero is left out, as jest does.
 * @param {string} label @param {{ passed: number, failed: number, skipped: number }} counts @returns {string}
 */
function summaryLine(label, { passed, failed, skipped }) {
  const parts = [];
  if (failed) parts.push(`${failed} failed`);
  if (skipped) parts.push(`${skipped} skipped`);
  if (passed) parts.push(`${passed} passed`);
  parts.push(`${passed + failed + skipped} total`);
  return `${`${label}:`.padEnd(12)} ${parts.join(', ')}`;
}

/**
 * The last line of a run: passed and failed always (a run with no test reads `0 passed, 0 failed`), skipped when any.
 * @param {{ passed: number, failed: number, skipped: number }} totals @returns {string}
 */
const closingLine = ({ passed, failed, skipped }) =>
  `tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`;

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const root = path.resolve(__dirname, '../..');
    const suites = results.testResults.map((suite) => ({
      path: suite.testFilePath,
      ms: suite.perfStats.end - suite.perfStats.start,
    }));
    process.stdout.write(slowestSuites(suites, root));
    const totals = {
      passed: results.numPassedTests,
      failed: results.numFailedTests,
      skipped: results.numPendingTests + results.numTodoTests,
    };
    process.stdout.write(`\n${summaryLine('Tests', totals)}\n${closingLine(totals)}\n`);
  }
}
module.exports = SummaryReporter;
module.exports.slowestSuites = slowestSuites;
module.exports.closingLine = closingLine;
module.exports.summaryLine = summaryLine;
