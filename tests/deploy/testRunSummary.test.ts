// The closing lines of `npm test` (tests/jest/lanes.js), which CI log readers look for: jest's own format, unprefixed.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { closingLine, summaryLine } = require('../jest/summaryReporter') as {
  closingLine: (totals: Counts) => string;
  summaryLine: (label: string, totals: Counts) => string;
};
type Counts = { passed: number; failed: number; skipped: number };

// What jest's own summary reporter prints (jest-reporters, getSummary), which readers of a jest log match.
const JEST_TESTS_LINE = /^Tests:\s+(?:(\d+) failed, )?(?:(\d+) skipped, )?(?:(\d+) passed, )?(\d+) total$/;

describe('the closing line of a test run', () => {
  it('reads as jest prints it when every test passed', () => {
    expect(closingLine({ passed: 1953, failed: 0, skipped: 0 })).toBe('Tests:       1953 passed, 1953 total');
  });

  it('names the failures first, then skipped, then passed, with the total', () => {
    const line = closingLine({ passed: 1950, failed: 1, skipped: 2 });
    expect(line).toBe('Tests:       1 failed, 2 skipped, 1950 passed, 1953 total');
    expect(JEST_TESTS_LINE.exec(line)?.slice(1)).toEqual(['1', '2', '1950', '1953']);
  });

  it('says 0 total when nothing ran, so a reader sees an empty run rather than a success', () => {
    expect(closingLine({ passed: 0, failed: 0, skipped: 0 })).toBe('Tests:       0 total');
  });

  it('aligns the suites line with the tests line, as jest does', () => {
    expect(summaryLine('Test Suites', { passed: 215, failed: 1, skipped: 0 })).toBe(
      'Test Suites: 1 failed, 215 passed, 216 total',
    );
  });
});
