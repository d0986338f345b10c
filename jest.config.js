/** One jest run over every package: unit tests beside the code, integration tests in each package's test/ folder. */
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
const kasaPackages = {
  '^@kasa/contracts$': '<rootDir>/shared/contracts/src',
  '^@kasa/service-kit$': '<rootDir>/shared/service-kit/src',
  '^@kasa/api-client$': '<rootDir>/shared/api-client/src',
  '^@kasa/language-detect$': '<rootDir>/shared/language-detect/src',
  '^@kasa/sdk$': '<rootDir>/sdks/js/src',
  '^@kasa/react$': '<rootDir>/sdks/react/src',
  '^@kasa/ai-providers$': '<rootDir>/shared/ai-providers/src',
  '^@kasa/test-kit$': '<rootDir>/shared/test-kit/src',
};
// ESM-only packages that services load with import(): jest runs CommonJS here, so swc compiles them like our code.
const esmOnlyPackages = ['franc-all', 'trigram-utils', 'n-gram', 'collapse-white-space'];

module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j)sx?$': swc },
  transformIgnorePatterns: [`/node_modules/(?!(${esmOnlyPackages.join('|')})/)`],
  moduleNameMapper: kasaPackages,
  testMatch: ['<rootDir>/{shared,services,gateway,frontends,tests,sdks}/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  globalSetup: '<rootDir>/tests/jest/globalSetup.js',
  globalTeardown: '<rootDir>/tests/jest/globalTeardown.js',
  testTimeout: 30_000,
  reporters: ['default', '<rootDir>/tests/jest/summaryReporter.js'],
};
