// Prints the slowest suites (where CI time goes) and one plain closing line, `tests: N passed, N failed`, that any
// CI log reader understands. tests/jest/lanes.js prints the same for a run in several lanes.
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

/** @param {{ passed: number, failed: number, skipped: number }} totals @returns {string} */
function closingLine({ passed, failed, skipped }) {
  return `tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`;
}

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
    process.stdout.write(`\n${closingLine(totals)}\n`);
  }
}
module.exports = SummaryReporter;
module.exports.slowestSuites = slowestSuites;
module.exports.closingLine = closingLine;
