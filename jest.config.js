/**
 * One jest run over every package: unit tests beside the code run on src (compiled by swc); integration tests (each
 * package's test/ folder and tests/) run the tsc output in dist/ that production runs (see tests/jest/resolveBuilt.js).
 */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', tsx: true },
      target: 'es2022',
      transform: { react: { runtime: 'automatic' } },
    },
  },
];
// The built output of the packages tsc compiles: run as emitted, not recompiled.
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const builtOutput = `^${escape(__dirname)}/(shared|services|sdks)/[^/]+/dist/.+\\.js$|^${escape(__dirname)}/gateway/dist/.+\\.js$`;
// ESM-only packages that services load with import(): jest runs CommonJS here, so swc compiles them like our code.
const esmOnlyPackages = [
  'franc-all',
  'trigram-utils',
  'n-gram',
  'collapse-white-space',
  'eld',
  '@formatjs',
  'intl-messageformat',
];

module.exports = {
  testEnvironment: '<rootDir>/tests/jest/environment.js',
  // The first matching pattern wins: built output before everything else.
  transform: { [builtOutput]: '<rootDir>/tests/jest/distTransform.js', '^.+\\.(t|j)sx?$': swc },
  // tests/jest/ is plain Node code that runs outside the sandbox; its environment needs Node's real import().
  transformIgnorePatterns: [`/node_modules/(?!(${esmOnlyPackages.join('|')})/)`, '<rootDir>/tests/jest/'],
  // @kasa/* is src for unit tests and the built main for integration tests; src/**/*.ts is dist/**/*.js for the latter.
  resolver: '<rootDir>/tests/jest/resolveBuilt.js',
  testMatch: ['<rootDir>/{shared,services,gateway,frontends,tests,sdks}/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  globalSetup: '<rootDir>/tests/jest/globalSetup.js',
  globalTeardown: '<rootDir>/tests/jest/globalTeardown.js',
  // A timeout catches a hang, not slowness: a loaded 2-core machine runs browser tests several times slower.
  testTimeout: 60_000,
  reporters: ['default', '<rootDir>/tests/jest/summaryReporter.js'],
};
