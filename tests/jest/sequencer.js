// The order in which `npm test` hands suites to its two jest workers: longest first, so that the last suites to start
// are short ones and both workers end at about the same time (the longest suite started last would leave one core
// idle for its whole length). Lengths come from durations.json (seconds, from an earlier full run:
// `KASA_TEST_RECORD_DURATIONS=1 npm test` rewrites it); a suite not in it gets an estimate by kind.
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;
const durations = require('./durations.json');

const ROOT = path.resolve(__dirname, '../..');

/** Seconds a suite is expected to take. */
function expectedSeconds(file) {
  const relative = path.relative(ROOT, file).split(path.sep).join('/');
  if (durations[relative] !== undefined) return durations[relative];
  if (/^tests\/e2e\//.test(relative)) return 60;
  if (/^(tests\/|sdks\/[^/]+\/[^/]+\.test\.ts$)/.test(relative)) return 30;
  if (/\/test\//.test(relative)) return 10;
  return 2;
}

class LongestFirst extends Sequencer {
  sort(tests) {
    return [...tests].sort((a, b) => expectedSeconds(b.path) - expectedSeconds(a.path) || (a.path < b.path ? -1 : 1));
  }
}

module.exports = LongestFirst;
module.exports.expectedSeconds = expectedSeconds;
