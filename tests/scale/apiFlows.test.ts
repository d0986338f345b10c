/**
 * The end-to-end API flows of tests/integration, run unchanged against the scaled-out platform (two gateways and two
 * chat replicas behind round-robin balancers, see tests/support/scaleOut.ts): consecutive calls of each flow land on
 * different replicas, so every step that relied on one process's memory would fail here.
 */
process.env.KASA_TEST_SCALE_OUT = '1';
afterAll(() => {
  delete process.env.KASA_TEST_SCALE_OUT;
});

/* eslint-disable @typescript-eslint/no-require-imports */
describe('sign-up, sign-in and the services through two gateways', () => {
  require('../integration/authThroughGateway.test');
});
describe('API keys through two gateways', () => {
  require('../integration/apiKeysThroughGateway.test');
});
