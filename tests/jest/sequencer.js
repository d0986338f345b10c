// The order in which `npm test` hands suites to its two jest workers: longest first, so that the last suites to start
// are short ones and both workers end at about the same time (the longest suite started last would leave one core
// idle for its whole length). Lengths come from durations.json (seconds, from an earlier full run:
// `KASA_TEST_RECORD_DURATIONS=1 npm test` rewrites it); a suite not in it gets an estimate by kind.
// Browser suites and the others share the order by time, so that the two workers mostly run one of each: a browser
// suite waits on page rendering and a service suite on the broker and the database, and two browsers rendering at
// once on two cores slow each other more than either slows a service suite.
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

const isBrowserSuite = (file) => /^tests\/e2e\//.test(path.relative(ROOT, file).split(path.sep).join('/'));

class LongestFirst extends Sequencer {
  sort(tests) {
    const longestFirst = (list) =>
      list.sort((a, b) => expectedSeconds(b.path) - expectedSeconds(a.path) || (a.path < b.path ? -1 : 1));
    const browser = longestFirst(tests.filter((t) => isBrowserSuite(t.path)));
    const others = longestFirst(tests.filter((t) => !isBrowserSuite(t.path)));
    // Whichever kind has less time handed out so far goes next, so each kind keeps about one worker busy.
    const order = [];
    const handedOut = { browser: 0, others: 0 };
    while (browser.length || others.length) {
      const kind = !others.length || (browser.length && handedOut.browser <= handedOut.others) ? 'browser' : 'others';
      const next = (kind === 'browser' ? browser : others).shift();
      handedOut[kind] += expectedSeconds(next.path);
      order.push(next);
    }
    return order;
  }
}

module.exports = LongestFirst;
module.exports.expectedSeconds = expectedSeconds;
