// Prints the slowest suites (where CI time goes) and one plain closing line, `tests: N passed, N failed`, that any
// CI log reader understands.
const path = require('node:path');

const SLOWEST_SHOWN = 15;

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const root = path.resolve(__dirname, '../..');
    const slowest = results.testResults
      .map((suite) => ({
        file: path.relative(root, suite.testFilePath),
        ms: suite.perfStats.end - suite.perfStats.start,
      }))
      .filter((suite) => Number.isFinite(suite.ms))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, SLOWEST_SHOWN);
    if (slowest.length > 1) {
      process.stdout.write(
        `\nslowest suites:\n${slowest.map((s) => `  ${(s.ms / 1000).toFixed(1).padStart(7)} s  ${s.file}`).join('\n')}\n`,
      );
    }
    const skipped = results.numPendingTests + results.numTodoTests;
    const line = `tests: ${results.numPassedTests} passed, ${results.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ''}`;
    process.stdout.write(`\n${line}\n`);
  }
}
module.exports = SummaryReporter;
