// The closing lines of `npm test` (tests/jest/lanes.js), which CI log readers look for: jest's own summary format,
// unprefixed, and last the plain `tests: N passed, N failed` line that a reader knowing no particular runner matches.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { closingLine, summaryLine } = require('../jest/summaryReporter') as {
  closingLine: (totals: Counts) => string;
  summaryLine: (label: string, totals: Counts) => string;
};
type Counts = { passed: number; failed: number; skipped: number };

// What jest's own summary reporter prints (jest-reporters, getSummary), which readers of a jest log match.
const JEST_TESTS_LINE = /^Tests:\s+(?:(\d+) failed, )?(?:(\d+) skipped, )?(?:(\d+) passed, )?(\d+) total$/;
// The plain closing line: 'N passed, N failed' alone on a line, ', N skipped' after it, one word and a colon before.
const PLAIN_CLOSING_LINE = /^(?:\w+: )?(\d+) passed, (\d+) failed(?:, (\d+) skipped)?$/;

describe('the closing line of a test run', () => {
  it('gives passed and failed when every test passed', () => {
    const line = closingLine({ passed: 1953, failed: 0, skipped: 0 });
    expect(line).toBe('tests: 1953 passed, 0 failed');
    expect(PLAIN_CLOSING_LINE.exec(line)?.slice(1)).toEqual(['1953', '0', undefined]);
  });

  it('counts the failures, and the skipped tests after them', () => {
    const line = closingLine({ passed: 1950, failed: 1, skipped: 2 });
    expect(line).toBe('tests: 1950 passed, 1 failed, 2 skipped');
    expect(PLAIN_CLOSING_LINE.exec(line)?.slice(1)).toEqual(['1950', '1', '2']);
  });

  it('says 0 passed when nothing ran, so a reader sees an empty run rather than a success', () => {
    expect(closingLine({ passed: 0, failed: 0, skipped: 0 })).toBe('tests: 0 passed, 0 failed');
  });
});

describe("the run's summary in jest's format", () => {
  it('names the failures first, then skipped, then passed, with the total', () => {
    const line = summaryLine('Tests', { passed: 1950, failed: 1, skipped: 2 });
    expect(line).toBe('Tests:       1 failed, 2 skipped, 1950 passed, 1953 total');
    expect(JEST_TESTS_LINE.exec(line)?.slice(1)).toEqual(['1', '2', '1950', '1953']);
  });

  it('aligns the suites line with the tests line, as jest does', () => {
    expect(summaryLine('Test Suites', { passed: 215, failed: 1, skipped: 0 })).toBe(
      'Test Suites: 1 failed, 215 passed, 216 total',
    );
  });
});
